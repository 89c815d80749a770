package io.kubepekko.agent.manager;

import io.kubepekko.agent.runtime.NodeContext;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * How a pod's run ends, inside the {@link PodManager}'s actor: its worker is told to terminate (its
 * ConfigMap and Secret reads dropped); once the worker answered, the pod's log directory is removed
 * ({@link PodLogDirectories}) and its object deleted ({@link PodDeletions}) or the pod forgotten. A
 * pod the API no longer has (a forced delete, no longer listed) or whose name now has another uid
 * is stopped at once with grace 0, without a delete.
 */
final class PodEndings {
    private final ActorContext<?> ctx;
    private final NodeContext node;
    private final PodTable pods;
    private final PodWorkers workers;
    private final StaticPodRunner statics;
    private final ActorRef<StatusManager.Command> status;

    /** Absent in standalone mode. */
    private final PodInputsResolution inputs;

    /** Absent in standalone mode. */
    private final PodDeletions deletions;

    PodEndings(
            ActorContext<?> ctx,
            NodeContext node,
            PodTable pods,
            PodWorkers workers,
            StaticPodRunner statics,
            ActorRef<StatusManager.Command> status,
            PodInputsResolution inputs,
            PodDeletions deletions) {
        this.ctx = ctx;
        this.node = node;
        this.pods = pods;
        this.workers = workers;
        this.statics = statics;
        this.status = status;
        this.inputs = inputs;
        this.deletions = deletions;
    }

    /**
     * Terminates {@code e}'s worker with {@code grace}; {@code deleteWhenDone}: then its object is
     * deleted.
     */
    void terminate(PodEntry e, Duration grace, boolean deleteWhenDone) {
        if (inputs != null) {
            inputs.cancel(e.uid);
        }
        workers.terminate(e, grace, deleteWhenDone);
    }

    /**
     * {@code e}'s object is gone from the API or its name taken by another uid: stopped at once,
     * not deleted.
     */
    void vanished(PodEntry e, String why) {
        ctx.getLog().info("pod {} (uid {}) {}: stopping it at once", e.key(), e.uid, why);
        pods.releaseName(e);
        if (e.terminating) {
            if (e.worker == null) {
                e.deleteWhenDone = false;
                forget(e); // its delete was under way: the object is gone already
            } else if (e.grace != null && !e.grace.isZero()) {
                // Gone while it stops (a forced delete): the kubelet's removal kills with the
                // shortest grace.
                terminate(e, Duration.ZERO, false);
            } else {
                e.deleteWhenDone = false;
            }
            return;
        }
        if (e.worker == null) {
            forget(e); // never started: nothing in the runtime
            return;
        }
        terminate(e, Duration.ZERO, false);
    }

    /**
     * The worker of {@code uid} answered {@code Terminated}: nothing of the pod is left in the
     * runtime.
     */
    void terminated(String uid) {
        PodEntry e = pods.get(uid);
        if (e == null) {
            return;
        }
        e.worker = null;
        PodLogDirectories.removeLater(
                node,
                e.pod,
                ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking()),
                ctx.getLog());
        if (e.deleteWhenDone) {
            deletions.delete(e.uid, e.pod);
        } else {
            forget(e);
        }
    }

    /**
     * Drops {@code e}: its run is over (and its object, if it had one in the API, is gone or to be
     * left).
     */
    void forget(PodEntry e) {
        if (e.isStatic) {
            statics.forget(e);
            return;
        }
        pods.remove(e, true);
        inputs.cancel(e.uid);
        deletions.cancel(e.uid);
        status.tell(new StatusManager.Forget(e.uid));
    }
}
