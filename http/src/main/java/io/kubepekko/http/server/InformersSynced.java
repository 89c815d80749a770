package io.kubepekko.http.server;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Completes once this server's own informers have synced (what {@code /readyz}'s informer-sync
 * check reads: RBAC, the service-account token index, the admission plugins' indexes): when the
 * controllers start, as kube-controller-manager starts its controllers once the API server it talks
 * to is healthy. Started before, their informers' lists competed with the server's own start for
 * the CPU: a restart with 100,000 pods was ready about 3 s later. Polled on the scheduler, every
 * few milliseconds at first, as {@link ReadyLog} polls readiness; it never gives up (a server whose
 * informers never sync never starts its controllers, as kube's would not).
 */
final class InformersSynced {
    private static final Duration FIRST = Duration.ofMillis(5);
    private static final Duration MOST = Duration.ofMillis(200);

    private InformersSynced() {}

    /**
     * @param notSynced why not yet, empty once synced
     */
    static CompletionStage<Void> await(
            ActorSystem<?> system, Supplier<Optional<String>> notSynced) {
        CompletableFuture<Void> synced = new CompletableFuture<>();
        poll(system, notSynced, synced, FIRST);
        return synced;
    }

    private static void poll(
            ActorSystem<?> system,
            Supplier<Optional<String>> notSynced,
            CompletableFuture<Void> synced,
            Duration wait) {
        if (system.whenTerminated().isCompleted()) {
            return;
        }
        if (notSynced.get().isEmpty()) {
            synced.complete(null);
            return;
        }
        Duration next = wait.multipliedBy(2).compareTo(MOST) > 0 ? MOST : wait.multipliedBy(2);
        system.scheduler()
                .scheduleOnce(
                        wait,
                        () -> poll(system, notSynced, synced, next),
                        system.executionContext());
    }
}
