package io.kubepekko.agent.worker;

import io.kubepekko.agent.pleg.PodLifecycleEvents;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * When a {@link PodWorker} syncs, as the kubelet's pod worker is woken (PLEG events, its work
 * queue's requeues, {@code --sync-frequency}): the worker's {@code tick} is sent at once when it
 * starts, when the node's {@link PodLifecycleEvents} says the runtime's view of the pod changed,
 * when the worker asks ({@link #now}), when a back-off it waits for expires ({@link #wakeUp}),
 * after a pass as {@link SyncPass} says, and every {@link PodWorkerSettings#resyncPeriod()}. Runs
 * inside the worker's actor, on its timers.
 *
 * @param <M> the worker's message type
 */
final class SyncTriggers<M> {
    private final TimerScheduler<M> timers;
    private final ActorRef<M> self;
    private final M tick;
    private final Duration relistPeriod;
    private final String uid;
    private final ActorRef<PodLifecycleEvents.Command> lifecycle;
    private final ActorRef<PodLifecycleEvents.PodChanged> changes;
    private final SyncPass pass = new SyncPass();

    /**
     * Starts the resync timer, subscribes to {@code lifecycle} by {@code uid}, and asks for a first
     * sync.
     */
    SyncTriggers(
            ActorContext<M> ctx,
            TimerScheduler<M> timers,
            M tick,
            PodWorkerSettings settings,
            String uid,
            ActorRef<PodLifecycleEvents.Command> lifecycle) {
        this.timers = timers;
        this.self = ctx.getSelf();
        this.tick = tick;
        this.relistPeriod = settings.relistPeriod();
        this.uid = uid;
        this.lifecycle = lifecycle;
        timers.startTimerWithFixedDelay("resync", tick, settings.resyncPeriod());
        this.changes = ctx.messageAdapter(PodLifecycleEvents.PodChanged.class, c -> tick);
        lifecycle.tell(new PodLifecycleEvents.Subscribe(uid, changes));
        self.tell(tick);
    }

    /** Asks for a sync now. */
    void now() {
        self.tell(tick);
    }

    /**
     * A tick came: true if a pass begins now (one at a time: else another follows the one running).
     */
    boolean begin() {
        if (!pass.begin()) {
            return false;
        }
        timers.cancel("retry");
        return true;
    }

    /** A step of the pass changed something: another pass follows at once. */
    void progressed() {
        pass.progressed();
    }

    /** The pass met a failure or a back-off wait: another pass follows a relist period later. */
    void retryLater() {
        pass.retry();
    }

    /** Asks for a sync once {@code wait} is over (a back-off named {@code name} expires). */
    void wakeUp(String name, Duration wait) {
        timers.startSingleTimer(name, tick, wait.plusMillis(1));
    }

    /** The pass ended: the next one is asked for as {@link SyncPass#end} says. */
    void passEnded() {
        switch (pass.end()) {
            case NOW -> self.tell(tick); // see at once what the steps did
            case AFTER_RELIST_PERIOD -> timers.startSingleTimer("retry", tick, relistPeriod);
            case NOTHING -> {}
        }
    }

    /** No sync any more (the pod terminates): every timer of the worker is cancelled. */
    void stop() {
        timers.cancelAll();
    }

    /** The worker stopped: no more events from the node's relist. */
    void unsubscribe() {
        lifecycle.tell(new PodLifecycleEvents.Unsubscribe(uid, changes));
    }
}
