package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Resource;
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
import io.kubepekko.agent.worker.StatusSink;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The node's pod manager: the one actor that orders what happens to the node's pods, as the kubelet's
 * {@code HandlePodAdditions/Updates/Removes} and pod workers do. It feeds one {@link PodWorker} per pod uid from the
 * API ({@link ApiPodSource}) and from the static sources ({@link StaticPods}); the work is done by collaborators that
 * run inside this actor:
 * <ul>
 *   <li>{@link PodInputsResolution}: a new uid's ConfigMaps and Secrets are read, then its worker is spawned; a
 *       change of what the worker acts on ({@link PodChange}): inputs read again, then {@code Update}.</li>
 *   <li>{@code metadata.deletionTimestamp}: {@code Terminate} with the {@link GracePeriod}; once the worker answers
 *       {@code Terminated}, {@link PodDeletions} deletes the object (grace 0, uid precondition, retried) and
 *       {@link PodLogDirectories} removes the pod's log directory.</li>
 *   <li>After a restart: a new worker adopts what its pod has in the runtime (found by the uid label). Once every
 *       source was heard from ({@link SourcesReady}), {@link OrphanSweep} removes what the node holds of any other
 *       uid.</li>
 *   <li>A pod no longer listed or a {@code DELETED} event (the object is gone: a forced delete) and a pod whose
 *       name now has another uid: {@code Terminate} with grace 0, no delete.</li>
 * </ul>
 * Static pods run the same way, a worker per uid, without ConfigMaps or Secrets; a uid a source no longer lists
 * ({@link StaticPodSources}) is stopped with its grace period; a new uid of a name (a changed manifest) starts only
 * once the previous one has stopped. With an API server each gets its mirror pod
 * ({@link MirrorPods}), kept while the static pod runs and until it finished stopping; the static pod's status is
 * written to its mirror. Pods of the
 * API with the mirror annotation are never run (they belong to a static pod), as in the kubelet. Without an API server
 * ({@link #standalone}) only static pods run and nothing is written.
 * A new pod beyond {@code --max-pods} is rejected ({@link PodAdmission}) and never runs.
 * A second delete with a shorter grace period while the pod terminates shortens the termination.
 * Running pods' ConfigMaps and Secrets are read again every sync period ({@link PodInputsResolution}). Not yet:
 * admission by resources (cpu, memory).
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
    public static Behavior<Command> create(ApiClient client, CriRuntime cri, NodeContext node,
                                           ActorRef<StatusManager.Command> status, Clock clock,
                                           PodWorkerSettings settings, ScheduledExecutorService scheduler) {
        return create(client, cri, node, status, clock, settings, scheduler, Set.of());
    }

    /**
     * The pods of the API server and of the {@code staticSources} that will send {@link StaticPods}: what the runtime
     * holds of other pods is removed once the API's first list and each of these sources' first set came.
     */
    public static Behavior<Command> create(ApiClient client, CriRuntime cri, NodeContext node,
                                           ActorRef<StatusManager.Command> status, Clock clock,
                                           PodWorkerSettings settings, ScheduledExecutorService scheduler,
                                           Set<ManifestOrigin.Kind> staticSources) {
        return create(client, cri, node, status, clock, settings, scheduler, staticSources, DEFAULT_MAX_PODS);
    }

    /** As above, admitting at most {@code maxPods} pods at once ({@code --max-pods}, {@link PodAdmission}). */
    public static Behavior<Command> create(ApiClient client, CriRuntime cri, NodeContext node,
                                           ActorRef<StatusManager.Command> status, Clock clock,
                                           PodWorkerSettings settings, ScheduledExecutorService scheduler,
                                           Set<ManifestOrigin.Kind> staticSources, int maxPods) {
        return Behaviors.setup(ctx -> new PodManager(ctx, client, cri, node, status, clock, settings, scheduler,
                staticSources, maxPods));
    }

    /** Without an API server: only the static pods its sources send run, and no status is written anywhere. */
    public static Behavior<Command> standalone(CriRuntime cri, NodeContext node, Clock clock,
                                               PodWorkerSettings settings, Set<ManifestOrigin.Kind> staticSources) {
        return standalone(cri, node, clock, settings, staticSources, DEFAULT_MAX_PODS);
    }

    /** As above, admitting at most {@code maxPods} pods at once ({@code --max-pods}, {@link PodAdmission}). */
    public static Behavior<Command> standalone(CriRuntime cri, NodeContext node, Clock clock,
                                               PodWorkerSettings settings, Set<ManifestOrigin.Kind> staticSources,
                                               int maxPods) {
        return Behaviors.setup(ctx -> new PodManager(ctx, null, cri, node, ctx.getSystem().ignoreRef(), clock,
                settings, null, staticSources, maxPods));
    }

    /** Without an API server, sources not declared: nothing is removed as an orphan until a source sent its set. */
    public static Behavior<Command> standalone(CriRuntime cri, NodeContext node, Clock clock,
                                               PodWorkerSettings settings) {
        return standalone(cri, node, clock, settings, EnumSet.allOf(ManifestOrigin.Kind.class));
    }

    private final CriRuntime cri;
    private final NodeContext node;
    private final ActorRef<StatusManager.Command> status;
    private final Clock clock;
    private final PodWorkerSettings settings;
    private final int maxPods;
    /** Where workers record events: nowhere in standalone mode. */
    private final EventSink events;
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
    private final StaticPodSources staticSources = new StaticPodSources();
    private final ActorRef<PodWorker.Terminated> terminatedAdapter;
    private final PodTable pods = new PodTable();
    /** Makes worker names unique: a stopping worker may still hold its name. */
    private long workers;
    /** The node-wide relist (the kubelet's PLEG) that tells each worker when its pod changed in the runtime. */
    private final ActorRef<io.kubepekko.agent.pleg.PodLifecycleEvents.Command> lifecycle;

    private PodManager(ActorContext<Command> ctx, ApiClient client, CriRuntime cri, NodeContext node,
                       ActorRef<StatusManager.Command> status, Clock clock, PodWorkerSettings settings,
                       ScheduledExecutorService scheduler, Set<ManifestOrigin.Kind> staticSourceKinds, int maxPods) {
        super(ctx);
        this.maxPods = maxPods;
        this.cri = cri;
        this.node = node;
        this.status = status;
        this.clock = clock;
        this.settings = settings;
        this.terminatedAdapter = ctx.messageAdapter(PodWorker.Terminated.class, WorkerTerminated::new);
        this.orphans = new OrphanSweep(ctx, cri, node, ctx.messageAdapter(OrphanSweep.Command.class, Orphans::new));
        this.lifecycle = ctx.spawn(io.kubepekko.agent.pleg.PodLifecycleEvents.create(cri, settings.relistPeriod()),
                "pod-lifecycle-events");
        Set<Object> sources = new HashSet<>(staticSourceKinds);
        if (client == null) {
            this.events = EventSink.NONE;
            this.source = null;
            this.mirrors = null;
            this.inputs = null;
            this.deletions = null;
            this.sourcesReady = new SourcesReady(sources);
            sourceSeen(null);
            return;
        }
        sources.add(Resource.PODS);
        this.sourcesReady = new SourcesReady(sources);
        this.events = EventRecorder.sink(ctx.spawn(EventRecorder.create(client, node.nodeName(), clock), "events"));
        this.mirrors = new MirrorPods(ctx, client, node.nodeName(), ctx.messageAdapter(MirrorPods.Command.class, Mirror::new),
                status);
        this.inputs = new PodInputsResolution(ctx, client, ctx.messageAdapter(PodInputsResolution.Command.class, Inputs::new),
                settings.resyncPeriod());
        this.deletions = new PodDeletions(ctx, client, ctx.messageAdapter(PodDeletions.Command.class, Deletion::new));
        ActorRef<Command> self = ctx.getSelf();
        this.source = ApiPodSource.start(client, node.nodeName(), scheduler, items -> self.tell(new Listed(items)),
                e -> self.tell(new Event(e)));
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListed)
                .onMessage(Event.class, this::onEvent)
                .onMessage(StaticPods.class, this::onStaticPods)
                .onMessage(StaticStatus.class, this::onStaticStatus)
                .onMessage(WorkerTerminated.class, this::onWorkerTerminated)
                .onMessage(Mirror.class, m -> {
                    mirrors.on(m.command(), this::wantedMirror);
                    return this;
                })
                .onMessage(Inputs.class, m -> {
                    inputs.on(m.command(), this::onResolved);
                    return this;
                })
                .onMessage(Deletion.class, m -> {
                    deletions.on(m.command(), uid -> {
                        PodEntry e = pods.get(uid);
                        if (e != null) {
                            forget(e);
                        }
                    });
                    return this;
                })
                .onMessage(Orphans.class, m -> {
                    orphans.on(m.command(), pods::contains);
                    return this;
                })
                .onSignal(PostStop.class, s -> {
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
        mirrors.listed(listed.pods().stream().filter(StaticPodAnnotations::isMirror).toList(), this::wantedMirror);
        // Oldest first, as the kubelet's HandlePodAdditions: after a restart the pods that ran keep their places.
        List<ObjectNode> byAge = new ArrayList<>(listed.pods());
        byAge.sort(Comparator.comparing(p -> p.path("metadata").path("creationTimestamp").asText("")));
        for (ObjectNode pod : byAge) {
            if (ApiPodSource.runsHere(pod, node.nodeName())) {
                present.add(PodChange.uid(pod));
                seen(pod);
            }
        }
        pods.onlyPresent(present);
        for (PodEntry e : pods.all()) {
            if (!e.isStatic && !present.contains(e.uid)) {
                vanished(e, "no longer listed");
            }
        }
        sourceSeen(Resource.PODS);
        return this;
    }

    private Behavior<Command> onEvent(Event event) {
        WatchEvent e = event.event();
        if (StaticPodAnnotations.isMirror(e.object())) {
            mirrors.event(e, this::wantedMirror); // a static pod's, never run as a pod of its own
        } else if ("DELETED".equals(e.type())) {
            pods.gone(PodChange.uid(e.object()));
            PodEntry entry = pods.get(PodChange.uid(e.object()));
            if (entry != null) {
                vanished(entry, "deleted from the API");
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
        pods.claimName(key, uid).ifPresent(old -> vanished(old, "replaced by uid " + uid));
        PodEntry e = pods.get(uid);
        if (e == null) {
            e = new PodEntry(uid, pod, false);
            pods.add(e);
            getContext().getLog().info("pod {} (uid {}) bound to this node", key, uid);
            if (PodAdmission.rejectedBefore(pod)) {
                e.rejected = true; // rejected by an earlier run: never admitted again
            } else if (PodChange.deleting(pod)) {
                // Seen only once deleting (e.g. after a restart): a worker still cleans up what the runtime has.
                spawn(e, PodInputs.NONE);
                terminate(e, GracePeriod.of(pod), true);
                return;
            } else if (PodAdmission.terminal(pod) || admit(e)) { // a terminal pod is not admitted, as in kubelet
                inputs.resolve(uid, pod);
                return;
            }
        }
        if (e.terminating) {
            if (e.worker != null && PodChange.deleting(pod) && GracePeriod.of(pod).compareTo(e.grace) < 0) {
                e.pod = pod; // a second delete with a shorter grace period: the kubelet honours the shorter one
                terminate(e, GracePeriod.of(pod), e.deleteWhenDone);
            }
            return;
        }
        JsonNode before = e.pod;
        e.pod = pod;
        if (e.rejected) {
            if (PodChange.deleting(pod)) {
                // Nothing ran: the object goes at once, as the kubelet's status manager deletes a finished pod.
                e.terminating = true;
                deletions.delete(uid, pod);
            }
            return;
        }
        if (PodChange.deleting(pod)) {
            if (e.worker == null) {
                spawn(e, PodInputs.NONE);
            }
            terminate(e, GracePeriod.of(pod), true);
        } else if (PodChange.changed(before, pod)) {
            inputs.resolve(uid, pod);
        }
    }

    private void vanished(PodEntry e, String why) {
        getContext().getLog().info("pod {} (uid {}) {}: stopping it at once", e.key(), e.uid, why);
        pods.releaseName(e);
        if (e.terminating) {
            e.deleteWhenDone = false;
            if (e.worker == null) {
                forget(e); // its delete was under way: the object is gone already
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
     * Admits {@code e} if the node has room ({@link PodAdmission}); else rejects it as the kubelet's {@code rejectPod}
     * does: a Warning Event, the status {@code Failed} with the reason and message, and no worker ever.
     */
    private boolean admit(PodEntry e) {
        Optional<PodAdmission.Rejection> rejection = PodAdmission.admit(maxPods, pods.admittedBesides(e));
        if (rejection.isEmpty()) {
            return true;
        }
        PodAdmission.Rejection r = rejection.get();
        e.rejected = true;
        getContext().getLog().info("pod {} (uid {}) not admitted: {}: {}", e.key(), e.uid, r.reason(), r.message());
        events.event(e.pod, "", "Warning", r.reason(), r.message());
        if (!e.isStatic) {
            // A static pod's status would go to its mirror, which only a running static pod gets (as in the kubelet).
            JsonNode meta = e.pod.path("metadata");
            status.tell(new StatusManager.Write(meta.path("namespace").asText(""), meta.path("name").asText(""), e.uid,
                    r.status(e.pod, clock.instant())));
        }
        return false;
    }

    private void onResolved(String uid, PodInputs in) {
        PodEntry e = pods.get(uid);
        if (e == null || e.terminating || e.rejected) {
            return;
        }
        if (e.worker == null) {
            spawn(e, in);
        } else {
            e.worker.tell(new PodWorker.Update(e.pod, in));
        }
    }

    // ---------------------------------------------------------------- static pods

    private Behavior<Command> onStaticPods(StaticPods m) {
        Set<String> now = new HashSet<>();
        for (ObjectNode pod : m.set().pods()) {
            String uid = PodChange.uid(pod);
            now.add(uid);
            if (pods.contains(uid)) {
                continue; // the same manifest read again (only config.seen differs)
            }
            String key = PodChange.key(pod);
            pods.claimName(key, uid).filter(old -> !old.terminating)
                    .ifPresent(old -> stopStatic(old, "replaced by uid " + uid));
            PodEntry e = new PodEntry(uid, pod, true);
            pods.add(e);
            getContext().getLog().info("static pod {} (uid {}) from {}", key, uid, m.set().source().configSource());
            if (!admit(e)) {
                continue;
            }
            if (pods.anotherStaticStopping(e)) {
                // The kubelet starts one static pod per full name: the new uid waits for the old one to finish.
                getContext().getLog().info("static pod {} (uid {}) waits for its previous version to stop", key, uid);
                continue;
            }
            spawn(e, PodInputs.NONE);
            if (mirrors != null) {
                mirrors.reconcile(key, this::wantedMirror);
            }
        }
        for (String uid : staticSources.replace(m.set().source(), now)) {
            PodEntry e = pods.get(uid);
            if (e != null && !e.terminating) {
                stopStatic(e, "no longer in its source");
            }
        }
        sourceSeen(m.set().source());
        return this;
    }

    private void stopStatic(PodEntry e, String why) {
        getContext().getLog().info("static pod {} (uid {}) {}: stopping it", e.key(), e.uid, why);
        pods.releaseName(e);
        if (e.worker == null) {
            forget(e); // never ran (rejected, or waiting for its previous version)
            return;
        }
        terminate(e, GracePeriod.of(e.pod), false);
        if (mirrors != null) {
            mirrors.reconcile(e.key(), this::wantedMirror);
        }
    }

    /** Starts the static pod of {@code key} that waited for its previous version to stop, once none is left. */
    private void startWaiting(String key) {
        pods.holder(key).filter(next -> next.isStatic && next.worker == null && !next.terminating && !next.rejected
                && !pods.anotherStaticStopping(next)).ifPresent(next -> {
                    getContext().getLog().info("static pod {} (uid {}): its previous version stopped, starting it", key,
                            next.uid);
                    spawn(next, PodInputs.NONE);
                });
    }

    /** The static pod a mirror of {@code key} should show now ({@link PodTable#mirrored}). */
    private Optional<JsonNode> wantedMirror(String key) {
        return pods.mirrored(key);
    }

    private Behavior<Command> onStaticStatus(StaticStatus s) {
        PodEntry e = pods.get(s.uid());
        if (e != null && mirrors != null) {
            mirrors.status(e.key(), s.uid(), s.status());
        }
        return this;
    }

    // ---------------------------------------------------------------- workers

    private void spawn(PodEntry e, PodInputs in) {
        ActorRef<Command> self = getContext().getSelf();
        // A static pod's status goes to its mirror pod (known only here), not to a pod of its own uid.
        StatusSink sink = e.isStatic
                ? (namespace, name, uid, st) -> self.tell(new StaticStatus(uid, st))
                : StatusManager.sink(status);
        e.worker = getContext().spawn(PodWorker.create(e.pod, in, cri, node, sink, events, clock, settings,
                lifecycle), "pod-" + e.uid + "-" + (++workers));
    }

    private void terminate(PodEntry e, Duration grace, boolean deleteWhenDone) {
        e.terminating = true;
        e.deleteWhenDone = deleteWhenDone;
        e.grace = grace;
        if (inputs != null) {
            inputs.cancel(e.uid);
        }
        getContext().getLog().info("pod {} (uid {}): terminating with grace period {} s", e.key(), e.uid,
                grace.toSeconds());
        e.worker.tell(new PodWorker.Terminate(grace, terminatedAdapter));
    }

    private Behavior<Command> onWorkerTerminated(WorkerTerminated t) {
        PodEntry e = pods.get(t.terminated().uid());
        if (e == null) {
            return this;
        }
        e.worker = null;
        PodLogDirectories.removeLater(node, e.pod, getContext().getSystem().dispatchers()
                .lookup(DispatcherSelector.blocking()), getContext().getLog());
        if (e.deleteWhenDone) {
            deletions.delete(e.uid, e.pod);
        } else {
            forget(e);
        }
        return this;
    }

    private void forget(PodEntry e) {
        pods.remove(e, !e.isStatic);
        if (e.isStatic) {
            startWaiting(e.key());
            if (mirrors != null) {
                mirrors.stopped(e.key(), e.uid, this::wantedMirror);
            }
            return;
        }
        inputs.cancel(e.uid);
        deletions.cancel(e.uid);
        status.tell(new StatusManager.Forget(e.uid));
    }

    // ---------------------------------------------------------------- orphans (an earlier run's pods)

    /** {@code source} (the API's pods, a static source's kind; null: none) was heard from. */
    private void sourceSeen(Object source) {
        if (sourcesReady.seen(source)) {
            orphans.start();
        }
    }
}
