package io.kubepekko.agent.manager;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.runtime.NodeContext;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Removes what the node holds of pods no source knows ({@link OrphanedPods}: an earlier run's pod
 * deleted while the agent was down), inside the {@link PodManager}'s actor, as the kubelet's
 * housekeeping does once its sources are ready. The pods the manager runs are adopted by their
 * workers, which find their sandboxes and containers by the uid label. A failed step is looked at
 * again a little later.
 */
final class OrphanSweep {

    /** This helper's own steps, delivered to the pod manager's actor. */
    sealed interface Command {}

    private enum Sweep implements Command {
        INSTANCE
    }

    private record Found(OrphanedPods.Found found) implements Command {}

    private record Removed(String uid) implements Command {}

    private record Failed(String what, Throwable error) implements Command {}

    /**
     * After a failed look for orphans (the runtime unreachable), the next one (the kubelet's
     * housekeeping: 2 s).
     */
    static final Duration RETRY = Duration.ofSeconds(2);

    private final ActorContext<?> ctx;
    private final CriRuntime cri;
    private final NodeContext node;
    private final ActorRef<Command> self;

    OrphanSweep(ActorContext<?> ctx, CriRuntime cri, NodeContext node, ActorRef<Command> self) {
        this.ctx = ctx;
        this.cri = cri;
        this.node = node;
        this.self = self;
    }

    /** Looks for orphans now (once every source was heard from). */
    void start() {
        self.tell(Sweep.INSTANCE);
    }

    /**
     * Handles one of this helper's steps; {@code known}: whether the manager runs a pod of that uid
     * now.
     */
    void on(Command c, Predicate<String> known) {
        if (c == Sweep.INSTANCE) {
            OrphanedPods.find(cri, node, blocking())
                    .whenComplete(
                            (found, t) ->
                                    self.tell(
                                            t == null
                                                    ? new Found(found)
                                                    : new Failed("looking for orphaned pods", t)));
        } else if (c instanceof Found f) {
            // Decided now, not when the read began: a pod added meanwhile is known by now, before
            // its worker wrote anything.
            for (String uid : orphans(f.found(), known)) {
                ctx.getLog()
                        .info(
                                "pod uid {} is in no source: removing what the node holds of it",
                                uid);
                OrphanedPods.remove(cri, node, f.found(), uid, blocking())
                        .whenComplete(
                                (v, t) ->
                                        self.tell(
                                                t == null
                                                        ? new Removed(uid)
                                                        : new Failed(
                                                                "removing orphaned pod uid " + uid,
                                                                t)));
            }
        } else if (c instanceof Removed r) {
            ctx.getLog().info("orphaned pod uid {} removed", r.uid());
        } else if (c instanceof Failed f) {
            // Whatever is still there, and still nobody's, is found again.
            ctx.getLog()
                    .warn(
                            "{} failed, looking again in {} s: {}",
                            f.what(),
                            RETRY.toSeconds(),
                            f.error().toString());
            ctx.scheduleOnce(RETRY, self, Sweep.INSTANCE);
        }
    }

    /** The uids of what was found that no pod the manager runs has. */
    static Set<String> orphans(OrphanedPods.Found found, Predicate<String> known) {
        Set<String> out = found.uids();
        out.removeIf(known);
        return out;
    }

    private Executor blocking() {
        return ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    }
}
