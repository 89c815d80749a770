package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.TokenBucket;
import io.kubepekko.agent.api.WatchEvent;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.events.EventRecorder;
import io.kubepekko.agent.manifest.ManifestOrigin;
import io.kubepekko.agent.manifest.StaticPodAnnotations;
import io.kubepekko.agent.manifest.StaticPodSet;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.worker.EventSink;
import io.kubepekko.agent.worker.PodWorker;
import io.kubepekko.agent.worker.PodWorkerSettings;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The node's pod manager: the one actor that orders what happens to the node's pods, as the
 * kubelet's {@code HandlePodAdditions/Updates/Removes} and pod workers do. It feeds one {@link
 * PodWorker} per pod uid from the API ({@link ApiPodSource}) and from the static sources ({@link
 * StaticPods}); the work is done by collaborators that run inside this actor:
 *
 * <ul>
 *   <li>{@link PodInputsResolution}: a new uid's ConfigMaps and Secrets are read, then its worker
 *       is spawned; a change of what the worker acts on ({@link PodChange}): inputs read again,
 *       then {@code Update}.
 *   <li>{@code metadata.deletionTimestamp}: {@code Terminate} with the {@link GracePeriod}; once
 *       the worker answers {@code Terminated}, {@link PodDeletions} deletes the object (grace 0,
 *       uid precondition, retried) and {@link PodLogDirectories} removes the pod's log directory
 *       ({@link PodEndings}).
 *   <li>After a restart: a new worker adopts what its pod has in the runtime (found by the uid
 *       label). Once every source was heard from ({@link SourcesReady}), {@link OrphanSweep}
 *       removes what the node holds of any other uid.
 *   <li>A pod no longer listed or a {@code DELETED} event (the object is gone: a forced delete) and
 *       a pod whose name now has another uid: {@code Terminate} with grace 0, no delete.
 * </ul>
 *
 * Workers are spawned and told to terminate by {@link PodWorkers}. Static pods run the same way, a
 * worker per uid, without ConfigMaps or Secrets ({@link StaticPodRunner}: stopped when their source
 * drops them, one per name, their mirror pods). Pods of the API with the mirror annotation are
 * never run (they belong to a static pod), as in the kubelet. Without an API server ({@link
 * #standalone}) only static pods run and nothing is written. A new pod beyond {@code --max-pods} is
 * rejected ({@link PodAdmitter}) and never runs. A second delete with a shorter grace period while
 * the pod terminates shortens the termination. Running pods' ConfigMaps and Secrets are read again
 * every sync period ({@link PodInputsResolution}). Not yet: admission by resources (cpu, memory).
 */
public final class PodManager extends AbstractBehavior<PodManager.Command> {

    /** The pod manager's protocol (all messages are its own, its reflector's or its helpers'). */
    public sealed interface Command {}

    /** A static source's whole set of pods now (the kubelet's {@code SET} update of one source). */
    public record StaticPods(StaticPodSet set) implements Command {}

    private record Listed(List<ObjectNode> pods) implements Command {}

    private record Event(WatchEvent event) implements Command {}

    private record StaticStatus(String uid, ObjectNode status) implements Command {}

    private record WorkerTerminated(PodWorker.Terminated terminated) implements Command {}

    private record Mirror(MirrorPods.Command command) implements Command {}

    private record Inputs(PodInputsResolution.Command command) implements Command {}

    private record Deletion(PodDeletions.Command command) implements Command {}

    private record Orphans(OrphanSweep.Command command) implements Command {}

    /** The collection and selector of the pods bound to {@code nodeName}. */
    public static ListOptions boundTo(String nodeName) {
        return ApiPodSource.boundTo(nodeName);
    }

    /** The kubelet's default {@code --max-pods}. */
    public static final int DEFAULT_MAX_PODS = 110;

    /** Without static pod sources. */
    public static Behavior<Command> create(
            ApiClient client,
            CriRuntime cri,
            NodeContext node,
            ActorRef<StatusManager.Command> status,
            Clock clock,
            PodWorkerSettings settings,
            ScheduledExecutorService scheduler) {
        return create(client, cri, node, status, clock, settings, scheduler, Set.of());
    }

    /**
     * The pods of the API server and of the {@code staticSources} that will send {@link
     * StaticPods}: what the runtime holds of other pods is removed once the API's first list and
     * each of these sources' first set came.
     */
    public static Behavior<Command> create(
            ApiClient client,
            CriRuntime cri,
            NodeContext node,
            ActorRef<StatusManager.Command> status,
            Clock clock,
            PodWorkerSettings settings,
            ScheduledExecutorService scheduler,
            Set<ManifestOrigin.Kind> staticSources) {
        return create(
                client,
                cri,
                node,
                status,
                clock,
                settings,
                scheduler,
                staticSources,
                DEFAULT_MAX_PODS);
    }

    /**
     * As above, admitting at most {@code maxPods} pods at once ({@code --max-pods}, {@link
     * PodAdmission}).
     */
    public static Behavior<Command> create(
            ApiClient client,
            CriRuntime cri,
            NodeContext node,
            ActorRef<StatusManager.Command> status,
            Clock clock,
            PodWorkerSettings settings,
            ScheduledExecutorService scheduler,
            Set<ManifestOrigin.Kind> staticSources,
            int maxPods) {
        return Behaviors.setup(
                ctx ->
                        new PodManager(
                                ctx,
                                client,
                                cri,
                                node,
                                status,
                                clock,
                                settings,
                                scheduler,
                                staticSources,
                                maxPods));
    }

    /**
     * Without an API server: only the static pods its sources send run, and no status is written
     * anywhere.
     */
    public static Behavior<Command> standalone(
            CriRuntime cri,
            NodeContext node,
            Clock clock,
            PodWorkerSettings settings,
            Set<ManifestOrigin.Kind> staticSources) {
        return standalone(cri, node, clock, settings, staticSources, DEFAULT_MAX_PODS);
    }

    /**
     * As above, admitting at most {@code maxPods} pods at once ({@code --max-pods}, {@link
     * PodAdmission}).
     */
    public static Behavior<Command> standalone(
            CriRuntime cri,
            NodeContext node,
            Clock clock,
            PodWorkerSettings settings,
            Set<ManifestOrigin.Kind> staticSources,
            int maxPods) {
        return Behaviors.setup(
                ctx ->
                        new PodManager(
                                ctx,
                                null,
                                cri,
                                node,
                                ctx.getSystem().ignoreRef(),
                                clock,
                                settings,
                                null,
                                staticSources,
                                maxPods));
    }

    /**
     * Without an API server, sources not declared: nothing is removed as an orphan until a source
     * sent its set.
     */
    public static Behavior<Command> standalone(
            CriRuntime cri, NodeContext node, Clock clock, PodWorkerSettings settings) {
        return standalone(cri, node, clock, settings, EnumSet.allOf(ManifestOrigin.Kind.class));
    }

    private final NodeContext node;

    /** Absent in standalone mode. */
    private final ApiPodSource source;

    /** Absent in standalone mode. */
    private final MirrorPods mirrors;

    /** Absent in standalone mode. */
    private final PodInputsResolution inputs;

    /** Absent in standalone mode. */
    private final PodDeletions deletions;

    private final OrphanSweep orphans;
    private final SourcesReady sourcesReady;
    private final PodTable pods = new PodTable();
    private final PodWorkers workers;
    private final PodAdmitter admitter;
    private final StaticPodRunner statics;
    private final PodEndings endings;

    private PodManager(
            ActorContext<Command> ctx,
            ApiClient client,
            CriRuntime cri,
            NodeContext node,
            ActorRef<StatusManager.Command> status,
            Clock clock,
            PodWorkerSettings settings,
            ScheduledExecutorService scheduler,
            Set<ManifestOrigin.Kind> staticSourceKinds,
            int maxPods) {
        super(ctx);
        this.node = node;
        this.orphans =
                new OrphanSweep(
                        ctx,
                        cri,
                        node,
                        ctx.messageAdapter(OrphanSweep.Command.class, Orphans::new));
        Set<Object> sources = new HashSet<>(staticSourceKinds);
        // Where workers record events: nowhere in standalone mode; else through a throttle apart
        // (the kubelet's event client).
        EventSink events =
                client == null
                        ? EventSink.NONE
                        : EventRecorder.sink(
                                ctx.spawn(
                                        EventRecorder.create(
                                                client.withThrottle(
                                                        TokenBucket.eventDefaults(
                                                                System.nanoTime())),
                                                node.nodeName(),
                                                clock),
                                        "events"));
        ActorRef<Command> self = ctx.getSelf();
        // A static pod's status goes to its mirror pod (known only here), not to a pod of its own
        // uid.
        this.workers =
                new PodWorkers(
                        ctx,
                        cri,
                        node,
                        StatusManager.sink(status),
                        (namespace, name, uid, st) -> self.tell(new StaticStatus(uid, st)),
                        events,
                        clock,
                        settings,
                        ctx.messageAdapter(PodWorker.Terminated.class, WorkerTerminated::new));
        this.admitter = new PodAdmitter(maxPods, pods, events, status, clock, ctx);
        if (client == null) {
            this.source = null;
            this.mirrors = null;
            this.inputs = null;
            this.deletions = null;
            this.sourcesReady = new SourcesReady(sources);
            this.statics = new StaticPodRunner(pods, workers, admitter, null, ctx, events);
            this.endings = new PodEndings(ctx, node, pods, workers, statics, status, null, null);
            sourceSeen(null);
            return;
        }
        sources.add(Resource.PODS);
        this.sourcesReady = new SourcesReady(sources);
        this.mirrors =
                new MirrorPods(
                        ctx,
                        client,
                        node.nodeName(),
                        ctx.messageAdapter(MirrorPods.Command.class, Mirror::new),
                        status);
        this.inputs =
                new PodInputsResolution(
                        ctx,
                        client,
                        ctx.messageAdapter(PodInputsResolution.Command.class, Inputs::new),
                        settings.resyncPeriod(),
                        clock);
        this.deletions =
                new PodDeletions(
                        ctx, client, ctx.messageAdapter(PodDeletions.Command.class, Deletion::new));
        this.statics = new StaticPodRunner(pods, workers, admitter, mirrors, ctx, events);
        this.endings = new PodEndings(ctx, node, pods, workers, statics, status, inputs, deletions);
        this.source =
                ApiPodSource.start(
                        client,
                        node.nodeName(),
                        scheduler,
                        items -> self.tell(new Listed(items)),
                        e -> self.tell(new Event(e)));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListed)
                .onMessage(Event.class, this::onEvent)
                .onMessage(
                        StaticPods.class,
                        m -> {
                            statics.set(m.set());
                            sourceSeen(m.set().source());
                            return this;
                        })
                .onMessage(
                        StaticStatus.class,
                        m -> {
                            statics.status(m.uid(), m.status());
                            return this;
                        })
                .onMessage(
                        WorkerTerminated.class,
                        m -> {
                            endings.terminated(m.terminated().uid());
                            return this;
                        })
                .onMessage(
                        Mirror.class,
                        m -> {
                            mirrors.on(m.command(), pods::mirrored);
                            return this;
                        })
                .onMessage(
                        Inputs.class,
                        m -> {
                            inputs.on(m.command(), this::onResolved);
                            return this;
                        })
                .onMessage(
                        Deletion.class,
                        m -> {
                            deletions.on(
                                    m.command(),
                                    uid -> {
                                        PodEntry e = pods.get(uid);
                                        if (e != null) {
                                            endings.forget(e);
                                        }
                                    });
                            return this;
                        })
                .onMessage(
                        Orphans.class,
                        m -> {
                            orphans.on(m.command(), pods::contains);
                            return this;
                        })
                .onSignal(
                        PostStop.class,
                        s -> {
                            if (source != null) {
                                source.stop();
                            }
                            return this;
                        })
                .build();
    }

    // ---------------------------------------------------------------- the API source

    private Behavior<Command> onListed(Listed listed) {
        Set<String> present = new HashSet<>();
        mirrors.listed(
                listed.pods().stream().filter(StaticPodAnnotations::isMirror).toList(),
                pods::mirrored);
        // Oldest first, as the kubelet's HandlePodAdditions: after a restart the pods that ran keep
        // their places.
        List<ObjectNode> byAge = new ArrayList<>(listed.pods());
        byAge.sort(
                Comparator.comparing(p -> p.path("metadata").path("creationTimestamp").asText("")));
        for (ObjectNode pod : byAge) {
            if (ApiPodSource.runsHere(pod, node.nodeName())) {
                present.add(PodChange.uid(pod));
                seen(pod);
            }
        }
        pods.onlyPresent(present);
        for (PodEntry e : pods.all()) {
            if (!e.isStatic && !present.contains(e.uid)) {
                endings.vanished(e, "no longer listed");
            }
        }
        sourceSeen(Resource.PODS);
        return this;
    }

    private Behavior<Command> onEvent(Event event) {
        WatchEvent e = event.event();
        if (StaticPodAnnotations.isMirror(e.object())) {
            mirrors.event(e, pods::mirrored); // a static pod's, never run as a pod of its own
        } else if ("DELETED".equals(e.type())) {
            pods.gone(PodChange.uid(e.object()));
            PodEntry entry = pods.get(PodChange.uid(e.object()));
            if (entry != null) {
                endings.vanished(entry, "deleted from the API");
            }
        } else if (ApiPodSource.runsHere(e.object(), node.nodeName())) {
            seen(e.object());
        }
        return this;
    }

    private void seen(JsonNode pod) {
        String uid = PodChange.uid(pod);
        if (pods.finished(uid)) {
            return;
        }
        String key = PodChange.key(pod);
        pods.claimName(key, uid).ifPresent(old -> endings.vanished(old, "replaced by uid " + uid));
        PodEntry e = pods.get(uid);
        if (e == null) {
            e = new PodEntry(uid, pod, false);
            pods.add(e);
            getContext().getLog().info("pod {} (uid {}) bound to this node", key, uid);
            if (PodAdmission.rejectedBefore(pod)) {
                e.rejected = true; // rejected by an earlier run: never admitted again
            } else if (PodChange.deleting(pod)) {
                // Seen only once deleting (e.g. after a restart): a worker still cleans up what the
                // runtime has.
                workers.spawn(e, PodInputs.NONE);
                endings.terminate(e, GracePeriod.of(pod), true);
                return;
            } else if (PodAdmission.terminal(pod)
                    || admitter.admit(e)) { // a terminal pod is not admitted, as in kubelet
                inputs.resolve(uid, pod);
                return;
            }
        }
        if (e.terminating) {
            if (e.worker != null
                    && PodChange.deleting(pod)
                    && GracePeriod.of(pod).compareTo(e.grace) < 0) {
                e.pod = pod; // a second delete with a shorter grace period: the kubelet honours the
                // shorter one
                endings.terminate(e, GracePeriod.of(pod), e.deleteWhenDone);
            }
            return;
        }
        JsonNode before = e.pod;
        e.pod = pod;
        if (e.rejected) {
            if (PodChange.deleting(pod)) {
                // Nothing ran: the object goes at once, as the kubelet's status manager deletes a
                // finished pod.
                e.terminating = true;
                deletions.delete(uid, pod);
            }
            return;
        }
        if (PodChange.deleting(pod)) {
            if (e.worker == null) {
                workers.spawn(e, PodInputs.NONE);
            }
            endings.terminate(e, GracePeriod.of(pod), true);
        } else if (PodChange.changed(before, pod)) {
            inputs.resolve(uid, pod);
        }
    }

    private void onResolved(String uid, PodInputs in) {
        PodEntry e = pods.get(uid);
        if (e == null || e.terminating || e.rejected) {
            return;
        }
        if (e.worker == null) {
            workers.spawn(e, in);
        } else {
            e.worker.tell(new PodWorker.Update(e.pod, in));
        }
    }

    // ---------------------------------------------------------------- workers

    // ---------------------------------------------------------------- orphans (an earlier run's
    // pods)

    /** {@code source} (the API's pods, a static source's kind; null: none) was heard from. */
    private void sourceSeen(Object source) {
        if (sourcesReady.seen(source)) {
            orphans.start();
        }
    }
}
