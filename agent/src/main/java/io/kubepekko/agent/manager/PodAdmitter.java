package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.worker.EventSink;
import java.time.Clock;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Admits a new pod if the node has room ({@link PodAdmission} against the {@link PodTable}'s
 * count), else rejects it as the kubelet's {@code rejectPod} does: a Warning Event, the status
 * {@code Failed} with the reason and message (API pods only), and the entry marked {@linkplain
 * PodEntry#rejected rejected}, so it never gets a worker.
 */
final class PodAdmitter {
    private final int maxPods;
    private final PodTable pods;
    private final EventSink events;
    private final ActorRef<StatusManager.Command> status;
    private final Clock clock;
    private final ActorContext<?> ctx;

    PodAdmitter(
            int maxPods,
            PodTable pods,
            EventSink events,
            ActorRef<StatusManager.Command> status,
            Clock clock,
            ActorContext<?> ctx) {
        this.maxPods = maxPods;
        this.pods = pods;
        this.events = events;
        this.status = status;
        this.clock = clock;
        this.ctx = ctx;
    }

    /** Whether {@code e} is admitted; if not, it is rejected. */
    boolean admit(PodEntry e) {
        Optional<PodAdmission.Rejection> rejection =
                PodAdmission.admit(maxPods, pods.admittedBesides(e));
        if (rejection.isEmpty()) {
            return true;
        }
        PodAdmission.Rejection r = rejection.get();
        e.rejected = true;
        ctx.getLog()
                .info(
                        "pod {} (uid {}) not admitted: {}: {}",
                        e.key(),
                        e.uid,
                        r.reason(),
                        r.message());
        events.event(e.pod, "", "Warning", r.reason(), r.message());
        if (!e.isStatic) {
            // A static pod's status would go to its mirror, which only a running static pod gets
            // (as in the kubelet).
            JsonNode meta = e.pod.path("metadata");
            status.tell(
                    new StatusManager.Write(
                            meta.path("namespace").asText(""),
                            meta.path("name").asText(""),
                            e.uid,
                            r.status(e.pod, clock.instant())));
        }
        return false;
    }
}
