package io.kubepekko.actors.fencing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * How a server of a shared keyspace joins: the cluster that already owns the keyspace if there is
 * one, else a new one that only it forms.
 *
 * <p>Pekko's own rule (the first seed node forms a new cluster when no other seed answers within
 * {@code seed-node-timeout}) forms a second cluster beside the first whenever the first seed node
 * restarts while the others are slow to answer — an overloaded machine is enough — and two clusters
 * on one journal run two sequencers and two writers per collection. Here the storage decides
 * instead. Every member beats in the storage ({@link GenerationWatch}). A starting server reads the
 * beats twice, {@code observe} apart: if a member's beat moved, a cluster is alive and the server
 * joins it through the other seed nodes only (Pekko never forms a cluster from a list without
 * itself, it keeps asking). If none moved, it raises the generation by a lightweight transaction;
 * the one server whose transaction applies forms the cluster, every other one joins it. A cluster
 * that was only silent, not dead (every member paused longer than {@code observe}) finds the newer
 * generation when it wakes up and stops writing before it can.
 */
public final class ClusterFormation {
    /** The storage side ({@code FormationTable} on Cassandra). */
    public interface Store {
        /** Every member's last beat, by member. */
        CompletionStage<Map<String, Long>> beats();

        /** The current generation (empty: none yet). */
        CompletionStage<Optional<Long>> generation();

        /**
         * Raises the generation from {@code expected} to {@code next}; whether this call did it.
         */
        CompletionStage<Boolean> claim(Optional<Long> expected, long next, String former);
    }

    /** How the decision waits ({@code Thread::sleep} in a server; tests pass their own). */
    public interface Pause {
        void pause(Duration d) throws InterruptedException;
    }

    /**
     * The outcome: the generation this server belongs to (empty when it joined through others
     * before the former recorded one: it takes the first it reads), whether it formed the cluster,
     * and the seed nodes it joined through.
     */
    public record Joined(Optional<Long> generation, boolean formed, List<String> seeds) {}

    private ClusterFormation() {}

    /** Whether some member other than {@code self} beat between the two readings. */
    static boolean othersAlive(Map<String, Long> before, Map<String, Long> after, String self) {
        for (Map.Entry<String, Long> e : after.entrySet()) {
            if (!e.getKey().equals(self) && !e.getValue().equals(before.get(e.getKey()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Decides how to join and asks {@code join} to do it with the seed nodes to use: this server
     * first when it forms the cluster, else the others only. A server that is not one of the seed
     * nodes never forms one, as in Pekko.
     *
     * @param self this server's member name in the beats (its address and incarnation)
     * @param selfSeed this server's own seed address ({@code seeds} may name it)
     */
    public static Joined join(
            Store store,
            String self,
            String selfSeed,
            List<String> seeds,
            Duration observe,
            Duration timeout,
            Pause pause,
            Consumer<List<String>> join)
            throws Exception {
        List<String> others = new ArrayList<>(seeds);
        boolean mayForm = others.remove(selfSeed);
        Optional<Long> generation;
        if (mayForm) {
            Map<String, Long> before = get(store.beats(), timeout);
            pause.pause(observe);
            Map<String, Long> after = get(store.beats(), timeout);
            generation = get(store.generation(), timeout);
            if (!othersAlive(before, after, self) || others.isEmpty()) {
                long next = generation.orElse(0L) + 1;
                if (get(store.claim(generation, next, self), timeout)) {
                    List<String> first = new ArrayList<>();
                    first.add(selfSeed);
                    first.addAll(others);
                    join.accept(first);
                    return new Joined(Optional.of(next), true, first);
                }
                generation = get(store.generation(), timeout); // another server formed it just now
            }
            if (others.isEmpty()) {
                throw new IllegalStateException(
                        "another server formed the cluster of this keyspace, and no seed"
                                + " node but this one is known to join it through");
            }
        } else {
            generation = get(store.generation(), timeout);
        }
        join.accept(others);
        return new Joined(generation, false, others);
    }

    private static <T> T get(CompletionStage<T> stage, Duration timeout) throws Exception {
        return stage.toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
