package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.ListOptions;
import io.kubepekko.agent.api.Reflector;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.WatchEvent;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.logs.PodLogs;
import io.kubepekko.agent.manifest.ManifestOrigin;
import io.kubepekko.agent.manifest.StaticPodAnnotations;
import io.kubepekko.agent.manifest.StaticPodSet;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.worker.PodWorker;
import io.kubepekko.agent.worker.PodWorkerSettings;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The node's pod manager: the kubelet's API config source ({@code pods?fieldSelector=spec.nodeName=<node>}, all
 * namespaces, through a {@link Reflector}) feeding one {@link PodWorker} per pod uid, as the kubelet's
 * {@code HandlePodAdditions/Updates/Removes} and pod workers do.
 *
 * <ul>
 *   <li>A new uid: its ConfigMaps and Secrets ({@link PodReferences}) are read, then its worker is spawned; one
 *       that does not exist is left out of the {@link PodInputs}, so the worker reports
 *       {@code CreateContainerConfigError} as kube does. A read that fails otherwise is retried with back-off.</li>
 *   <li>A change of what the worker acts on ({@link PodChange}): inputs read again, then {@code Update}.</li>
 *   <li>{@code metadata.deletionTimestamp}: {@code Terminate} with the {@link GracePeriod}; once the worker answers
 *       {@code Terminated}, the pod object is deleted with grace 0 and a {@code preconditions.uid} guard (the kubelet's
 *       status manager does this once the pod can be deleted); a failed delete is retried with back-off. Once the
 *       worker is done, the pod's log directory is removed.</li>
 *   <li>After a restart: a new worker adopts what its pod has in the runtime (found by the uid label). Once the API's
 *       first list and each declared static source's first set came, what the node holds of any other uid is removed
 *       ({@link OrphanedPods}).</li>
 *   <li>A pod no longer listed or a {@code DELETED} event (the object is gone: a forced delete) and a pod whose
 *       name now has another uid: {@code Terminate} with grace 0, no delete.</li>
 * </ul>
 * Static pods ({@link StaticPods}, from {@code agent/manifest}'s sources) run the same way, a worker per uid, without
 * ConfigMaps or Secrets; a uid a source no longer lists is stopped with its grace period. With an API server each
 * gets its mirror pod ({@link MirrorPods}: same name and spec, annotation {@code kubernetes.io/config.mirror}, owned
 * by the Node), kept while the static pod runs (recreated when deleted, replaced when its hash changed), deleted once
 * it stopped; the static pod's status is written to its mirror. Pods of the API with the mirror annotation are never
 * run (they belong to a static pod), as in the kubelet. Without an API server ({@link #standalone}) only static pods
 * run and nothing is written.
 * Not yet: a periodic resync re-reading ConfigMaps and Secrets (the kubelet's configmap/secret managers watch them),
 * a shorter grace period of a second delete while terminating, admission (max pods, resources).
 */
public final class PodManager extends AbstractBehavior<PodManager.Command> {

    /** The pod manager's protocol (all messages are its own or its reflector's). */
    public sealed interface Command {}

    /** A static source's whole set of pods now (the kubelet's {@code SET} update of one source). */
    public record StaticPods(StaticPodSet set) implements Command {}

    private record Listed(List<ObjectNode> pods) implements Command {}

    private record StaticStatus(String uid, ObjectNode status) implements Command {}

    private record Mirror(MirrorPods.Command command) implements Command {}

    private record Event(WatchEvent event) implements Command {}

    private record Resolved(String uid, long seq, PodInputs inputs) implements Command {}

    private record ResolveFailed(String uid, long seq, ApiError error) implements Command {}

    private record Resolve(String uid) implements Command {}

    private record WorkerTerminated(PodWorker.Terminated terminated) implements Command {}

    private record Deleted(String uid, Optional<ApiError> error) implements Command {}

    private record RetryDelete(String uid) implements Command {}

    private enum SweepOrphans implements Command { INSTANCE }

    private record OrphansFound(OrphanedPods.Found found) implements Command {}

    private record OrphanRemoved(String uid) implements Command {}

    private record OrphanStepFailed(String what, Throwable error) implements Command {}

    /** What is known of one pod uid. */
    private static final class PodEntry {
        final String uid;
        JsonNode pod;
        ActorRef<PodWorker.Command> worker;
        /** Which input read is the newest (a result of an older one is stale). */
        long resolving;
        Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);
        boolean terminating;
        /** Whether the object is still in the API once the worker is done (then it is deleted). */
        boolean deleteWhenDone;
        /** From a static source (a file or URL), not from the API. */
        boolean isStatic;

        PodEntry(String uid, JsonNode pod) {
            this.uid = uid;
            this.pod = pod;
        }
    }

    private static final Resource CONFIG_MAPS = new Resource("", "v1", "configmaps", true);
    private static final Resource SECRETS = new Resource("", "v1", "secrets", true);

    /** After a failed look for orphans (the runtime unreachable), the next one (the kubelet's housekeeping: 2 s). */
    static final Duration ORPHAN_RETRY = Duration.ofSeconds(2);

    /** Each watch asks the server to end it after this; the reflector resumes it (client-go: 5 to 10 min). */
    static final Duration WATCH_TIMEOUT = Duration.ofMinutes(5);

    /** The collection and selector of the pods bound to {@code nodeName}. */
    public static ListOptions boundTo(String nodeName) {
        return ListOptions.ALL.withFieldSelector("spec.nodeName=" + nodeName);
    }

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
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers ->
                new PodManager(ctx, timers, client, cri, node, status, clock, settings, scheduler, staticSources)));
    }

    /** Without an API server: only the static pods its sources send run, and no status is written anywhere. */
    public static Behavior<Command> standalone(CriRuntime cri, NodeContext node, Clock clock,
                                               PodWorkerSettings settings, Set<ManifestOrigin.Kind> staticSources) {
        return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new PodManager(ctx, timers, null, cri, node,
                ctx.getSystem().ignoreRef(), clock, settings, null, staticSources)));
    }

    /** Without an API server, sources not declared: nothing is removed as an orphan until a source sent its set. */
    public static Behavior<Command> standalone(CriRuntime cri, NodeContext node, Clock clock,
                                               PodWorkerSettings settings) {
        return standalone(cri, node, clock, settings, EnumSet.allOf(ManifestOrigin.Kind.class));
    }

    private final TimerScheduler<Command> timers;
    private final ApiClient client;
    private final CriRuntime cri;
    private final NodeContext node;
    private final ActorRef<StatusManager.Command> status;
    private final Clock clock;
    private final PodWorkerSettings settings;
    /** Where workers record events: nowhere in standalone mode. */
    private final io.kubepekko.agent.worker.EventSink events;
    /** Absent in standalone mode. */
    private final Reflector reflector;
    /** Absent in standalone mode. */
    private final MirrorPods mirrors;
    /** The static pod uids each source listed last. */
    private final Map<ManifestOrigin.Kind, Set<String>> staticUids = new HashMap<>();
    private final ActorRef<PodWorker.Terminated> terminatedAdapter;
    /** The node-wide relist (the kubelet's PLEG) that tells each worker when its pod changed in the runtime. */
    private final ActorRef<io.kubepekko.agent.pleg.PodLifecycleEvents.Command> lifecycle;
    private final Map<String, PodEntry> pods = new HashMap<>();
    /** {@code namespace/name} → uid of the pod of that name the manager runs. */
    private final Map<String, String> names = new HashMap<>();
    /**
     * Uids the manager is done with whose object may still show up (an event already in flight when it deleted the
     * object): not run again. One leaves when the API says its pod is gone (a {@code DELETED} event, a relist).
     */
    private final Set<String> finished = new HashSet<>();
    private long seq;
    /** The sources not heard from yet (the kubelet's {@code sourcesReady}): no orphan is removed before all were. */
    private final Set<Object> unseenSources = new HashSet<>();
    private boolean orphansSwept;

    private PodManager(ActorContext<Command> ctx, TimerScheduler<Command> timers, ApiClient client, CriRuntime cri,
                       NodeContext node, ActorRef<StatusManager.Command> status, Clock clock,
                       PodWorkerSettings settings, ScheduledExecutorService scheduler,
                       Set<ManifestOrigin.Kind> staticSources) {
        super(ctx);
        this.timers = timers;
        this.client = client;
        this.cri = cri;
        this.node = node;
        this.status = status;
        this.clock = clock;
        this.settings = settings;
        this.terminatedAdapter = ctx.messageAdapter(PodWorker.Terminated.class, WorkerTerminated::new);
        this.lifecycle = ctx.spawn(io.kubepekko.agent.pleg.PodLifecycleEvents.create(cri, settings.relistPeriod()),
                "pod-lifecycle-events");
        ActorRef<Command> self = ctx.getSelf();
        unseenSources.addAll(staticSources);
        this.events = client == null ? io.kubepekko.agent.worker.EventSink.NONE
                : io.kubepekko.agent.events.EventRecorder.sink(ctx.spawn(
                        io.kubepekko.agent.events.EventRecorder.create(client, node.nodeName(), clock), "events"));
        if (client == null) {
            this.reflector = null;
            this.mirrors = null;
            sourceSeen(null);
            return;
        }
        unseenSources.add(Resource.PODS);
        this.mirrors = new MirrorPods(ctx, client, node.nodeName(), ctx.messageAdapter(MirrorPods.Command.class, Mirror::new),
                status);
        this.reflector = new Reflector(client, Resource.PODS.collection(null), boundTo(node.nodeName()), WATCH_TIMEOUT,
                new Reflector.Handler() {
                    @Override
                    public void listed(List<ObjectNode> items, String resourceVersion) {
                        self.tell(new Listed(items));
                    }

                    @Override
                    public void event(WatchEvent event) {
                        self.tell(new Event(event));
                    }
                }, scheduler);
        reflector.start();
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListed)
                .onMessage(StaticPods.class, this::onStaticPods)
                .onMessage(StaticStatus.class, this::onStaticStatus)
                .onMessage(Mirror.class, m -> {
                    mirrors.on(m.command(), this::wantedMirror);
                    return this;
                })
                .onMessage(Event.class, this::onEvent)
                .onMessage(Resolve.class, r -> {
                    PodEntry e = pods.get(r.uid());
                    if (e != null && !e.terminating) {
                        resolve(e);
                    }
                    return this;
                })
                .onMessage(Resolved.class, this::onResolved)
                .onMessage(ResolveFailed.class, this::onResolveFailed)
                .onMessage(WorkerTerminated.class, this::onWorkerTerminated)
                .onMessage(Deleted.class, this::onDeleted)
                .onMessageEquals(SweepOrphans.INSTANCE, this::sweepOrphans)
                .onMessage(OrphansFound.class, this::onOrphansFound)
                .onMessage(OrphanRemoved.class, this::onOrphanRemoved)
                .onMessage(OrphanStepFailed.class, this::onOrphanStepFailed)
                .onMessage(RetryDelete.class, r -> {
                    PodEntry e = pods.get(r.uid());
                    if (e != null) {
                        deleteObject(e);
                    }
                    return this;
                })
                .onSignal(PostStop.class, s -> {
                    if (reflector != null) {
                        reflector.stop();
                    }
                    return this;
                })
                .build();
    }

    // ---------------------------------------------------------------- the source

    private Behavior<Command> onListed(Listed listed) {
        Set<String> present = new HashSet<>();
        mirrors.listed(listed.pods().stream().filter(StaticPodAnnotations::isMirror).toList(), this::wantedMirror);
        for (ObjectNode pod : listed.pods()) {
            if (mine(pod)) {
                present.add(PodChange.uid(pod));
                seen(pod);
            }
        }
        finished.retainAll(present);
        for (PodEntry e : new ArrayList<>(pods.values())) {
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
            finished.remove(PodChange.uid(e.object()));
            PodEntry entry = pods.get(PodChange.uid(e.object()));
            if (entry != null) {
                vanished(entry, "deleted from the API");
            }
        } else if (mine(e.object())) {
            seen(e.object());
        }
        return this;
    }

    /** The field selector already filters; a pod bound elsewhere is never run whatever the server sends. */
    private boolean mine(JsonNode pod) {
        return node.nodeName().equals(pod.path("spec").path("nodeName").asText(""))
                && !PodChange.uid(pod).isEmpty() && !StaticPodAnnotations.isMirror(pod);
    }

    private void seen(JsonNode pod) {
        String uid = PodChange.uid(pod);
        if (finished.contains(uid)) {
            return;
        }
        String key = PodChange.key(pod);
        String previous = names.put(key, uid);
        if (previous != null && !previous.equals(uid)) {
            PodEntry old = pods.get(previous);
            if (old != null) {
                vanished(old, "replaced by uid " + uid);
            }
        }
        PodEntry e = pods.get(uid);
        if (e == null) {
            e = new PodEntry(uid, pod);
            pods.put(uid, e);
            getContext().getLog().info("pod {} (uid {}) bound to this node", key, uid);
            if (PodChange.deleting(pod)) {
                // Seen only once deleting (e.g. after a restart): a worker still cleans up what the runtime has.
                spawn(e, PodInputs.NONE);
                terminate(e, GracePeriod.of(pod), true);
            } else {
                resolve(e);
            }
            return;
        }
        if (e.terminating) {
            return;
        }
        JsonNode before = e.pod;
        e.pod = pod;
        if (PodChange.deleting(pod)) {
            if (e.worker == null) {
                spawn(e, PodInputs.NONE);
            }
            terminate(e, GracePeriod.of(pod), true);
        } else if (PodChange.changed(before, pod)) {
            resolve(e);
        }
    }

    private void vanished(PodEntry e, String why) {
        getContext().getLog().info("pod {} (uid {}) {}: stopping it at once", PodChange.key(e.pod), e.uid, why);
        names.remove(PodChange.key(e.pod), e.uid);
        if (e.terminating) {
            e.deleteWhenDone = false;
            return;
        }
        if (e.worker == null) {
            forget(e); // never started: nothing in the runtime
            return;
        }
        terminate(e, Duration.ZERO, false);
    }

    // ---------------------------------------------------------------- static pods

    private Behavior<Command> onStaticPods(StaticPods m) {
        Set<String> now = new HashSet<>();
        for (ObjectNode pod : m.set().pods()) {
            String uid = PodChange.uid(pod);
            now.add(uid);
            if (pods.containsKey(uid)) {
                continue; // the same manifest read again (only config.seen differs)
            }
            String key = PodChange.key(pod);
            String previous = names.put(key, uid);
            PodEntry old = previous == null ? null : pods.get(previous);
            if (old != null && !old.terminating) {
                stopStatic(old, "replaced by uid " + uid);
            }
            PodEntry e = new PodEntry(uid, pod);
            e.isStatic = true;
            pods.put(uid, e);
            getContext().getLog().info("static pod {} (uid {}) from {}", key, uid, m.set().source().configSource());
            spawn(e, PodInputs.NONE);
            if (mirrors != null) {
                mirrors.reconcile(key, this::wantedMirror);
            }
        }
        Set<String> before = staticUids.put(m.set().source(), now);
        if (before != null) {
            for (String uid : before) {
                PodEntry e = pods.get(uid);
                if (!now.contains(uid) && e != null && !e.terminating) {
                    stopStatic(e, "no longer in its source");
                }
            }
        }
        sourceSeen(m.set().source());
        return this;
    }

    private void stopStatic(PodEntry e, String why) {
        getContext().getLog().info("static pod {} (uid {}) {}: stopping it", PodChange.key(e.pod), e.uid, why);
        names.remove(PodChange.key(e.pod), e.uid);
        terminate(e, GracePeriod.of(e.pod), false);
    }

    /** The static pod a mirror of {@code key} should mirror now: one of ours that runs and is not stopping. */
    private Optional<JsonNode> wantedMirror(String key) {
        String uid = names.get(key);
        PodEntry e = uid == null ? null : pods.get(uid);
        return e != null && e.isStatic && !e.terminating ? Optional.of(e.pod) : Optional.empty();
    }

    private Behavior<Command> onStaticStatus(StaticStatus s) {
        PodEntry e = pods.get(s.uid());
        if (e != null && mirrors != null) {
            mirrors.status(PodChange.key(e.pod), s.uid(), s.status());
        }
        return this;
    }

    // ---------------------------------------------------------------- inputs and workers

    private void resolve(PodEntry e) {
        long mine = ++seq;
        e.resolving = mine;
        JsonNode pod = e.pod;
        String ns = pod.path("metadata").path("namespace").asText("");
        PodReferences refs = PodReferences.of(pod);
        Map<String, CompletableFuture<Optional<ObjectNode>>> cms = new HashMap<>();
        Map<String, CompletableFuture<Optional<ObjectNode>>> secrets = new HashMap<>();
        refs.configMaps().forEach(n -> cms.put(n, optional(client.get(CONFIG_MAPS.object(ns, n)))));
        refs.secrets().forEach(n -> secrets.put(n, optional(client.get(SECRETS.object(ns, n)))));
        List<CompletableFuture<?>> all = new ArrayList<>(cms.values());
        all.addAll(secrets.values());
        CompletableFuture<PodInputs> inputs = CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).thenApply(v -> {
            PodInputs in = PodInputs.NONE;
            for (var c : cms.entrySet()) {
                Optional<ObjectNode> o = c.getValue().join();
                if (o.isPresent()) {
                    in = in.withConfigMap(c.getKey(), PodInputs.ConfigMapData.of(o.get()));
                }
            }
            for (var s : secrets.entrySet()) {
                Optional<ObjectNode> o = s.getValue().join();
                if (o.isPresent()) {
                    in = in.withSecret(s.getKey(), PodInputs.SecretData.of(o.get()));
                }
            }
            return in;
        });
        getContext().pipeToSelf(inputs, (in, t) -> t == null ? new Resolved(e.uid, mine, in)
                : new ResolveFailed(e.uid, mine, ApiError.of(t)));
    }

    /** A read whose 404 is an answer (the object does not exist), not a failure. */
    private static CompletableFuture<Optional<ObjectNode>> optional(CompletionStage<ObjectNode> get) {
        return get.handle((o, t) -> {
            if (t == null) {
                return Optional.of(o);
            }
            if (ApiError.of(t).isNotFound()) {
                return Optional.<ObjectNode>empty();
            }
            throw new java.util.concurrent.CompletionException(t);
        }).toCompletableFuture();
    }

    private Behavior<Command> onResolved(Resolved r) {
        PodEntry e = pods.get(r.uid());
        if (e == null || e.terminating || e.resolving != r.seq()) {
            return this;
        }
        e.backoff = e.backoff.succeeded();
        if (e.worker == null) {
            spawn(e, r.inputs());
        } else {
            e.worker.tell(new PodWorker.Update(e.pod, r.inputs()));
        }
        return this;
    }

    private Behavior<Command> onResolveFailed(ResolveFailed f) {
        PodEntry e = pods.get(f.uid());
        if (e == null || e.terminating || e.resolving != f.seq()) {
            return this;
        }
        e.backoff = e.backoff.failed();
        if (e.backoff.firstOfStreak()) {
            getContext().getLog().warn("pod {}: reading its ConfigMaps and Secrets failed, retrying with back-off: {}",
                    PodChange.key(e.pod), f.error());
        }
        timers.startSingleTimer("resolve-" + e.uid, new Resolve(e.uid), e.backoff.delay());
        return this;
    }

    private void spawn(PodEntry e, PodInputs inputs) {
        ActorRef<Command> self = getContext().getSelf();
        // A static pod's status goes to its mirror pod (known only here), not to a pod of its own uid.
        io.kubepekko.agent.worker.StatusSink sink = e.isStatic
                ? (namespace, name, uid, st) -> self.tell(new StaticStatus(uid, st))
                : StatusManager.sink(status);
        e.worker = getContext().spawn(PodWorker.create(e.pod, inputs, cri, node, sink, events, clock,
                settings, lifecycle), "pod-" + e.uid + "-" + (++seq)); // unique: a stopping worker may still hold its name
    }

    private void terminate(PodEntry e, Duration grace, boolean deleteWhenDone) {
        e.terminating = true;
        e.deleteWhenDone = deleteWhenDone;
        timers.cancel("resolve-" + e.uid);
        getContext().getLog().info("pod {} (uid {}): terminating with grace period {} s", PodChange.key(e.pod), e.uid,
                grace.toSeconds());
        e.worker.tell(new PodWorker.Terminate(grace, terminatedAdapter));
    }

    private Behavior<Command> onWorkerTerminated(WorkerTerminated t) {
        PodEntry e = pods.get(t.terminated().uid());
        if (e == null) {
            return this;
        }
        e.worker = null;
        removeLogs(e.pod);
        if (e.deleteWhenDone) {
            e.backoff = e.backoff.succeeded();
            deleteObject(e);
        } else {
            forget(e);
        }
        return this;
    }

    /**
     * The worker has torn the pod down (its sandbox is removed) and the pod is being deleted or is gone: its log
     * directory goes too, as the kubelet's {@code evictPodLogsDirectories} removes it once the pod's content may be.
     */
    private void removeLogs(JsonNode pod) {
        Path dir = SandboxConfigs.podLogDirectory(node, pod.path("metadata").path("namespace").asText(""),
                pod.path("metadata").path("name").asText(""), PodChange.uid(pod));
        org.slf4j.Logger log = getContext().getLog();
        CompletableFuture.runAsync(() -> {
            try {
                PodLogs.removeDirectory(dir);
            } catch (java.io.IOException ex) {
                log.warn("cannot remove the pod log directory {}: {}", dir, ex.toString());
            }
        }, getContext().getSystem().dispatchers().lookup(DispatcherSelector.blocking()));
    }

    // ---------------------------------------------------------------- orphans (an earlier run's pods)

    /** {@code source} (the API's pods, a static source's kind; null: none) was heard from. */
    private void sourceSeen(Object source) {
        unseenSources.remove(source);
        if (unseenSources.isEmpty() && !orphansSwept) {
            orphansSwept = true;
            getContext().getSelf().tell(SweepOrphans.INSTANCE);
        }
    }

    /**
     * Once every source has told its pods, what the node still holds of any other pod (an earlier run's pod deleted
     * while the agent was down) goes, as the kubelet's housekeeping does once its sources are ready. The pods the
     * manager runs are adopted by their workers, which find their sandboxes and containers by the uid label.
     */
    private Behavior<Command> sweepOrphans() {
        getContext().pipeToSelf(OrphanedPods.find(cri, node, blocking()), (found, t) -> t == null
                ? new OrphansFound(found) : new OrphanStepFailed("looking for orphaned pods", t));
        return this;
    }

    private Behavior<Command> onOrphansFound(OrphansFound m) {
        // Decided here, not when the read began: a pod added meanwhile is known by now, before its worker wrote anything.
        for (String uid : m.found().uids()) {
            if (!pods.containsKey(uid)) {
                getContext().getLog().info("pod uid {} is in no source: removing what the node holds of it", uid);
                getContext().pipeToSelf(OrphanedPods.remove(cri, m.found(), uid, blocking()),
                        (v, t) -> t == null ? new OrphanRemoved(uid) : new OrphanStepFailed("removing orphaned pod uid " + uid, t));
            }
        }
        return this;
    }

    private Behavior<Command> onOrphanRemoved(OrphanRemoved m) {
        getContext().getLog().info("orphaned pod uid {} removed", m.uid());
        return this;
    }

    /** Looked for again a little later: whatever is still there, and still nobody's, is found again. */
    private Behavior<Command> onOrphanStepFailed(OrphanStepFailed m) {
        getContext().getLog().warn("{} failed, looking again in {} s: {}", m.what(), ORPHAN_RETRY.toSeconds(), m.error().toString());
        timers.startSingleTimer("orphans", SweepOrphans.INSTANCE, ORPHAN_RETRY);
        return this;
    }

    private java.util.concurrent.Executor blocking() {
        return getContext().getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    }

    private void deleteObject(PodEntry e) {
        String ns = e.pod.path("metadata").path("namespace").asText("");
        String name = e.pod.path("metadata").path("name").asText("");
        getContext().pipeToSelf(client.delete(Resource.PODS.object(ns, name), DeleteOptions.immediate(e.uid)),
                (o, t) -> new Deleted(e.uid, t == null ? Optional.empty() : Optional.of(ApiError.of(t))));
    }

    private Behavior<Command> onDeleted(Deleted d) {
        PodEntry e = pods.get(d.uid());
        if (e == null) {
            return this;
        }
        // 404: already gone; 409: the name has another pod now (the uid precondition failed). Both end it.
        if (d.error().isEmpty() || d.error().get().isNotFound() || d.error().get().isConflict()) {
            getContext().getLog().info("pod {} (uid {}) deleted", PodChange.key(e.pod), e.uid);
            forget(e);
            return this;
        }
        e.backoff = e.backoff.failed();
        if (e.backoff.firstOfStreak()) {
            getContext().getLog().warn("pod {}: delete failed, retrying with back-off: {}", PodChange.key(e.pod),
                    d.error().get());
        }
        timers.startSingleTimer("delete-" + e.uid, new RetryDelete(e.uid), e.backoff.delay());
        return this;
    }

    private void forget(PodEntry e) {
        pods.remove(e.uid);
        if (e.isStatic) {
            names.remove(PodChange.key(e.pod), e.uid);
            if (mirrors != null) {
                mirrors.stopped(PodChange.key(e.pod), e.uid, this::wantedMirror);
            }
            return;
        }
        finished.add(e.uid);
        names.remove(PodChange.key(e.pod), e.uid);
        timers.cancel("resolve-" + e.uid);
        timers.cancel("delete-" + e.uid);
        status.tell(new StatusManager.Forget(e.uid));
    }
}
