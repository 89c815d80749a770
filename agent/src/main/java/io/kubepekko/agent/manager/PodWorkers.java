package io.kubepekko.agent.manager;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.pleg.PodLifecycleEvents;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.worker.EventSink;
import io.kubepekko.agent.worker.PodWorker;
import io.kubepekko.agent.worker.PodWorkerSettings;
import io.kubepekko.agent.worker.StatusSink;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Spawns the {@link PodManager}'s {@link PodWorker}s (children of its actor) and tells them to
 * terminate; owns the node-wide relist ({@link PodLifecycleEvents}, the kubelet's PLEG) each worker
 * subscribes to. A static pod's worker writes its status to {@code staticStatus} (its mirror pod is
 * known only to the manager), any other's to {@code apiStatus}.
 */
final class PodWorkers {
    private final ActorContext<?> ctx;
    private final CriRuntime cri;
    private final NodeContext node;
    private final StatusSink apiStatus;
    private final StatusSink staticStatus;
    private final EventSink events;
    private final Clock clock;
    private final PodWorkerSettings settings;
    private final ActorRef<PodWorker.Terminated> terminated;
    private final ActorRef<PodLifecycleEvents.Command> lifecycle;

    /** Makes worker names unique: a stopping worker may still hold its name. */
    private long workers;

    /** {@code terminated}: where each worker answers its {@code Terminate}. */
    PodWorkers(
            ActorContext<?> ctx,
            CriRuntime cri,
            NodeContext node,
            StatusSink apiStatus,
            StatusSink staticStatus,
            EventSink events,
            Clock clock,
            PodWorkerSettings settings,
            ActorRef<PodWorker.Terminated> terminated) {
        this.ctx = ctx;
        this.cri = cri;
        this.node = node;
        this.apiStatus = apiStatus;
        this.staticStatus = staticStatus;
        this.events = events;
        this.clock = clock;
        this.settings = settings;
        this.terminated = terminated;
        this.lifecycle =
                ctx.spawn(
                        PodLifecycleEvents.create(cri, settings.relistPeriod()),
                        "pod-lifecycle-events");
    }

    /** Gives {@code e} a worker that runs its pod with {@code in}. */
    void spawn(PodEntry e, PodInputs in) {
        StatusSink sink = e.isStatic ? staticStatus : apiStatus;
        e.worker =
                ctx.spawn(
                        PodWorker.create(
                                e.pod, in, cri, node, sink, events, clock, settings, lifecycle),
                        "pod-" + e.uid + "-" + (++workers));
    }

    /**
     * Tells {@code e}'s worker to terminate with {@code grace} (again, with a shorter one); {@code
     * deleteWhenDone}: the object is deleted once it answered.
     */
    void terminate(PodEntry e, Duration grace, boolean deleteWhenDone) {
        e.terminating = true;
        e.deleteWhenDone = deleteWhenDone;
        e.grace = grace;
        ctx.getLog()
                .info(
                        "pod {} (uid {}): terminating with grace period {} s",
                        e.key(),
                        e.uid,
                        grace.toSeconds());
        e.worker.tell(new PodWorker.Terminate(grace, terminated));
    }
}
