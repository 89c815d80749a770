package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.worker.PodWorker;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;

/** What the {@link PodManager} knows of one pod uid. */
final class PodEntry {
    final String uid;

    /** From a static source (a file or URL), not from the API. */
    final boolean isStatic;

    JsonNode pod;

    /** Absent before the inputs are read and once the worker is done. */
    ActorRef<PodWorker.Command> worker;

    boolean terminating;

    /** The grace period the worker was last told to terminate with. */
    Duration grace;

    /** Whether the object is still in the API once the worker is done (then it is deleted). */
    boolean deleteWhenDone;

    /** Not admitted ({@link PodAdmission}): never gets a worker. */
    boolean rejected;

    PodEntry(String uid, JsonNode pod, boolean isStatic) {
        this.uid = uid;
        this.pod = pod;
        this.isStatic = isStatic;
    }

    /**
     * Whether the pod holds a place on the node for admission (the kubelet's {@code
     * filterOutInactivePods}): admitted, not yet done terminating, and not in a terminal phase
     * unless it is terminating.
     */
    boolean active() {
        if (rejected || (terminating && worker == null)) {
            return false;
        }
        return terminating || !PodAdmission.terminal(pod);
    }

    String key() {
        return PodChange.key(pod);
    }
}
