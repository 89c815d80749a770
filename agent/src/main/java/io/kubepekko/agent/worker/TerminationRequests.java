package io.kubepekko.agent.worker;

import java.time.Duration;

/**
 * The {@link PodWorker.Terminate}s a worker was sent: the first begins the termination; a later one
 * with a shorter grace period cuts it short (what still runs is killed again with it, as the
 * kubelet's pod workers restart {@code SyncTerminatingPod}: pod_workers.go {@code
 * calculateEffectiveGracePeriod}, the grace period only decreases); any other changes nothing. The
 * reply goes to the first one's {@code replyTo}.
 */
final class TerminationRequests {

    /** What a {@code Terminate} asks of the worker. */
    enum Action {
        BEGIN,
        SHORTEN,
        NOTHING
    }

    private PodWorker.Terminate current;

    /** Takes {@code t}: what the worker does now. */
    Action take(PodWorker.Terminate t) {
        if (current == null) {
            current = t;
            return Action.BEGIN;
        }
        if (t.gracePeriod().compareTo(current.gracePeriod()) < 0) {
            current = new PodWorker.Terminate(t.gracePeriod(), current.replyTo());
            return Action.SHORTEN;
        }
        return Action.NOTHING;
    }

    /** Whether the pod terminates (a {@code Terminate} came). */
    boolean underWay() {
        return current != null;
    }

    /** The grace period to kill with now. */
    Duration gracePeriod() {
        return current.gracePeriod();
    }

    /** Answers that nothing of pod {@code uid} is left in the runtime. */
    void reply(String uid) {
        current.replyTo().tell(new PodWorker.Terminated(uid));
    }
}
