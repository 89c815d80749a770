package io.kubepekko.agent.pleg;

import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The node's pod lifecycle event generator, as the kubelet's generic PLEG: once per period it lists
 * every sandbox and container of the runtime (two CRI calls, whatever the number of pods), compares
 * the listing with the previous one ({@link RuntimeListing#changedSince}) and tells the subscriber
 * of each pod that changed. A pod worker subscribes by its pod's uid and then relists only its own
 * pod, when told, instead of every period.
 *
 * <p>A relist runs only while someone subscribes, one at a time (a slow runtime skips periods
 * rather than queueing them). A failed listing is logged once per streak and keeps the previous
 * listing, so what changed meanwhile is told after the next good one.
 */
public final class PodLifecycleEvents extends AbstractBehavior<PodLifecycleEvents.Command> {

    /** The generator's protocol. */
    public sealed interface Command {}

    /**
     * Tell {@code subscriber} when the runtime's sandboxes or containers of pod {@code uid} change.
     */
    public record Subscribe(String uid, ActorRef<PodChanged> subscriber) implements Command {}

    /** Stop telling {@code subscriber} (the one subscribed) about pod {@code uid}. */
    public record Unsubscribe(String uid, ActorRef<PodChanged> subscriber) implements Command {}

    /** List the runtime now (the timer sends it every period; tests may too). */
    public enum Relist implements Command {
        INSTANCE
    }

    /** To a subscriber: a sandbox or container of its pod was created, removed or changed state. */
    public record PodChanged(String uid) {}

    private record Listed(RuntimeListing listing) implements Command {}

    private record ListFailed(Throwable error) implements Command {}

    public static Behavior<Command> create(CriRuntime cri, Duration period) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers -> {
                                    timers.startTimerWithFixedDelay(
                                            "relist", Relist.INSTANCE, period);
                                    return new PodLifecycleEvents(ctx, cri);
                                }));
    }

    private final CriRuntime cri;
    private final Map<String, ActorRef<PodChanged>> subscribers = new HashMap<>();
    private RuntimeListing previous = RuntimeListing.EMPTY;
    private boolean listing;
    private boolean failing;

    private PodLifecycleEvents(ActorContext<Command> ctx, CriRuntime cri) {
        super(ctx);
        this.cri = cri;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(
                        Subscribe.class,
                        s -> {
                            subscribers.put(s.uid(), s.subscriber());
                            return this;
                        })
                .onMessage(
                        Unsubscribe.class,
                        u -> {
                            subscribers.remove(u.uid(), u.subscriber());
                            return this;
                        })
                .onMessageEquals(Relist.INSTANCE, this::onRelist)
                .onMessage(Listed.class, this::onListed)
                .onMessage(ListFailed.class, this::onListFailed)
                .build();
    }

    private Behavior<Command> onRelist() {
        if (listing || subscribers.isEmpty()) {
            return this;
        }
        listing = true;
        var sandboxes =
                cri.listPodSandbox(PodSandboxFilter.getDefaultInstance()).toCompletableFuture();
        var containers =
                cri.listContainers(ContainerFilter.getDefaultInstance()).toCompletableFuture();
        getContext()
                .pipeToSelf(
                        sandboxes.thenCombine(containers, RuntimeListing::of),
                        (l, t) -> t == null ? new Listed(l) : new ListFailed(t));
        return this;
    }

    private Behavior<Command> onListed(Listed listed) {
        listing = false;
        if (failing) {
            failing = false;
            getContext().getLog().info("relist of the runtime works again");
        }
        Set<String> changed = listed.listing().changedSince(previous);
        previous = listed.listing();
        for (String uid : changed) {
            ActorRef<PodChanged> subscriber = subscribers.get(uid);
            if (subscriber != null) {
                subscriber.tell(new PodChanged(uid));
            }
        }
        return this;
    }

    private Behavior<Command> onListFailed(ListFailed failed) {
        listing = false;
        if (!failing) {
            failing = true;
            getContext()
                    .getLog()
                    .warn("relist of the runtime failed: {}", CriError.of(failed.error()));
        }
        return this;
    }
}
