package io.kubepekko.actors.plane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.Futures;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.entity.CollectionEntity;
import io.kubepekko.actors.entity.CommittedObjects;
import io.kubepekko.actors.failover.RemovedMembers;
import io.kubepekko.actors.failover.StrandedAsks;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.watch.WatchCache;
import io.kubepekko.actors.watch.WatchCaches;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.namespace.NamespaceLifecycle;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.CachedObject;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.api.watch.Selection;
import io.kubepekko.api.watch.Snapshot;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import io.kubepekko.persistence.JournalReader;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The typed facade the HTTP layer calls: reads and writes of any registered kind, routed to the
 * collection entities and revision sequencers through Cluster Sharding. A write answers its {@link
 * WriteResult}, a refusal included; other failures complete the returned stage with an {@link
 * io.kubepekko.api.status.ApiException}.
 */
public final class ControlPlane {

    /** Objects of a list (JSON each) and the list's resourceVersion. */
    public record ObjectList(List<byte[]> items, long resourceVersion) {}

    /**
     * How reads are served.
     *
     * @param askTimeout how long a call waits for an actor's answer
     * @param cache the watch caches' behaviour
     * @param gates the server's feature gates
     */
    public record ReadSettings(
            Duration askTimeout, WatchCache.Settings cache, FeatureGates gates) {}

    private final ActorSystem<?> system;
    private final ClusterSharding sharding;
    private final Registry registry;
    private final ResourceType namespaces;
    private final Duration askTimeout;
    private final ReadSettings readSettings;
    private final WatchCaches caches;
    private final CommittedObjects committed;
    private final StrandedAsks stranded;
    private final LiveNamespaces liveNamespaces =
            new LiveNamespaces(Clock.systemUTC(), Duration.ofSeconds(2));

    private ControlPlane(
            ActorSystem<?> system,
            Registry registry,
            ReadSettings readSettings,
            WatchCaches caches,
            CommittedObjects committed,
            StrandedAsks stranded) {
        this.system = system;
        this.stranded = stranded;
        this.committed = committed;
        this.sharding = ClusterSharding.get(system);
        this.registry = registry;
        this.namespaces = registry.find(NamespaceLifecycle.NAMESPACES).orElseThrow();
        this.askTimeout = readSettings.askTimeout();
        this.readSettings = readSettings;
        this.caches = caches;
    }

    /**
     * Starts sharding of the entities and this node's watch caches, and returns the facade.
     *
     * @param journal reads the journal for watches older than the caches' windows; null: such
     *     watches answer 410
     * @param pools the cluster-wide value pools by name (Service cluster IPs and node ports), for
     *     the kinds that declare {@link io.kubepekko.api.alloc.ClusterValues}
     */
    public static ControlPlane start(
            ActorSystem<?> system,
            Registry registry,
            ObjectWrites writes,
            Environment environment,
            ReadSettings readSettings,
            JournalReader journal,
            Map<String, ValuePool> pools) {
        return start(
                system,
                registry,
                writes,
                environment,
                readSettings,
                journal,
                pools,
                StorageQuota.unlimited());
    }

    /**
     * As {@link #start(ActorSystem, Registry, ObjectWrites, Environment, ReadSettings,
     * JournalReader, Map)}, with writes admitted against {@code quota}, which this node's watch
     * caches count.
     */
    public static ControlPlane start(
            ActorSystem<?> system,
            Registry registry,
            ObjectWrites writes,
            Environment environment,
            ReadSettings readSettings,
            JournalReader journal,
            Map<String, ValuePool> pools,
            StorageQuota quota) {
        ClusterSharding sharding = ClusterSharding.get(system);
        Cluster cluster = Cluster.get(system);
        startAllocators(sharding, system, registry, environment, pools);
        // Revisions is never passivated: collections talk to it directly once they know it.
        sharding.init(
                Entity.of(
                                Revisions.TYPE_KEY,
                                ctx -> {
                                    GroupResource gr = GroupResource.parse(ctx.getEntityId());
                                    // Real time, not the environment's clock: overdue is about
                                    // messages really lost.
                                    return Revisions.create(
                                            gr,
                                            Clock.systemUTC(),
                                            namespace ->
                                                    sharding.entityRefFor(
                                                            CollectionEntity.TYPE_KEY,
                                                            new CollectionId(gr, namespace)
                                                                    .entityId()),
                                            address -> isMember(cluster, address));
                                })
                        // Moved (rebalance, a node leaving): hand over in order, so readers keep
                        // their stream.
                        .withStopMessage(Revisions.HandOver.INSTANCE)
                        .withSettings(
                                ClusterShardingSettings.create(system)
                                        .withNoPassivationStrategy()));
        CommittedObjects committed = new CommittedObjects();
        sharding.init(
                Entity.of(
                        CollectionEntity.TYPE_KEY,
                        ctx -> {
                            CollectionId id = CollectionId.parse(ctx.getEntityId());
                            KindDefinition kind =
                                    registry.definition(id.groupResource()).orElseThrow();
                            return CollectionEntity.create(
                                    id,
                                    kind.type(),
                                    writes,
                                    environment,
                                    sharding.entityRefFor(
                                            Revisions.TYPE_KEY, id.groupResource().toString()),
                                    committed,
                                    kind.clusterValues()
                                            .map(
                                                    v ->
                                                            sharding.entityRefFor(
                                                                    ValueAllocator.TYPE_KEY,
                                                                    v.allocator()))
                                            .orElse(null),
                                    quota);
                        }));
        WatchCaches caches =
                WatchCaches.start(
                        system,
                        registry,
                        readSettings.cache(),
                        environment.clock(),
                        readSettings.askTimeout(),
                        journal,
                        quota);
        return new ControlPlane(
                system, registry, readSettings, caches, committed, RemovedMembers.start(system));
    }

    /**
     * One {@link ValueAllocator} per allocator name the registry's kinds declare, never passivated
     * (like Revisions); each reconciles against the collections of the kinds that use it.
     */
    private static void startAllocators(
            ClusterSharding sharding,
            ActorSystem<?> system,
            Registry registry,
            Environment environment,
            Map<String, ValuePool> pools) {
        Map<String, List<GroupResource>> users = new TreeMap<>();
        for (KindDefinition kind : registry.definitions()) {
            kind.clusterValues()
                    .ifPresent(
                            values ->
                                    users.computeIfAbsent(
                                                    values.allocator(), a -> new ArrayList<>())
                                            .add(kind.type().groupResource()));
        }
        sharding.init(
                Entity.of(
                                ValueAllocator.TYPE_KEY,
                                ctx ->
                                        ValueAllocator.create(
                                                ctx.getEntityId(),
                                                pools,
                                                new ValueAllocator.Directory(
                                                        users.getOrDefault(
                                                                ctx.getEntityId(), List.of()),
                                                        gr ->
                                                                sharding.entityRefFor(
                                                                        Revisions.TYPE_KEY,
                                                                        gr.toString()),
                                                        collection ->
                                                                sharding.entityRefFor(
                                                                        CollectionEntity.TYPE_KEY,
                                                                        collection)),
                                                environment.clock(),
                                                environment.random()))
                        .withSettings(
                                ClusterShardingSettings.create(system)
                                        .withNoPassivationStrategy()));
    }

    /**
     * Whether this node can serve reads and watches, for {@code /readyz}: empty once every watch
     * cache has loaded, else what is still loading.
     */
    public Optional<String> readiness() {
        return caches.readiness();
    }

    /** The resources whose watch caches on this node have not loaded yet; empty when all have. */
    public List<GroupResource> loadingCaches() {
        return caches.notReady();
    }

    public FeatureGates featureGates() {
        return readSettings.gates();
    }

    public Registry registry() {
        return registry;
    }

    private EntityRef<CollectionEntity.Command> collection(ResourceType type, String namespace) {
        return sharding.entityRefFor(CollectionEntity.TYPE_KEY, collectionId(type, namespace));
    }

    private static String collectionId(ResourceType type, String namespace) {
        return new CollectionId(type.groupResource(), type.namespaced() ? namespace : "")
                .entityId();
    }

    private EntityRef<Revisions.Command> revisions(ResourceType type) {
        return sharding.entityRefFor(Revisions.TYPE_KEY, type.groupResource().toString());
    }

    /**
     * The object's JSON at its latest committed state, or empty: read without a message when the
     * collection's entity runs on this node (see {@link CommittedObjects}), else asked of it.
     */
    public CompletionStage<Optional<byte[]>> get(ResourceType type, String namespace, String name) {
        var objects = committed.of(collectionId(type, namespace));
        if (objects != null) {
            return CompletableFuture.completedFuture(Optional.ofNullable(objects.get(name)));
        }
        return stranded.read(
                        () ->
                                collection(type, namespace)
                                        .<CollectionEntity.GetReply>ask(
                                                r -> new CollectionEntity.Get(name, r), askTimeout))
                .thenApply(reply -> Optional.ofNullable(reply.object()));
    }

    /**
     * A read at the version {@code options} ask for: the latest committed state from the object's
     * collection ("Most Recent"), or this node's watch cache ("Any", "Not older than").
     */
    public CompletionStage<Optional<byte[]>> get(
            ResourceType type, String namespace, String name, ReadOptions options) {
        if (options.mode() instanceof ReadOptions.Mode.MostRecent) {
            return get(type, namespace, name);
        }
        ObjectKey key = new ObjectKey(type.namespaced() ? namespace : "", name);
        return snapshot(type, CacheRead.of(options.mode(), 0), readSettings.cache().waitLimit())
                .thenApply(s -> s.get(key).map(CachedObject::json));
    }

    /**
     * One list response from this node's watch cache, at the version and page {@code options} ask
     * for. A "Most Recent" list first learns the highest committed version and waits until the
     * cache reflects it, so it contains every write acknowledged before it began.
     *
     * @param namespace the namespace listed, or {@code null} for all
     */
    public CompletionStage<ListChunk> list(
            ResourceType type, String namespace, ReadOptions options) {
        Selection selection;
        try {
            selection = Selection.parse(type, options.labelSelector(), options.fieldSelector());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        String ns = type.namespaced() ? namespace : null;
        return latestCommittedIf(type, CacheRead.needsLatestCommitted(options.mode()))
                .thenCompose(
                        latest ->
                                snapshot(
                                        type,
                                        CacheRead.of(options.mode(), latest),
                                        waitFor(options.mode())))
                .thenApply(s -> ListChunk.of(s, ns, selection, options, readSettings.gates()));
    }

    /**
     * Starts a watch from this node's watch cache. Problems found before the stream starts (a bad
     * selector, a version the cache did not reach in time) fail the stage; a version older than the
     * retained history is the stream's one ERROR event, as in Kubernetes.
     */
    public CompletionStage<Source<StreamEvent, NotUsed>> watch(
            ResourceType type, String namespace, ReadOptions options) {
        return watch(type, namespace, options, Duration.ZERO);
    }

    /**
     * {@link #watch(ResourceType, String, ReadOptions)} for a stream the caller ends {@code
     * timeout} after it starts: a watcher that accepts bookmarks gets one shortly before then, so
     * it resumes from a fresh version.
     */
    public CompletionStage<Source<StreamEvent, NotUsed>> watch(
            ResourceType type, String namespace, ReadOptions options, Duration timeout) {
        WatchFilter filter;
        try {
            filter =
                    new WatchFilter(
                            type.namespaced() ? namespace : null,
                            Selection.parse(
                                    type, options.labelSelector(), options.fieldSelector()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        boolean consistent = options.mode() instanceof ReadOptions.Mode.MostRecent;
        return latestCommittedIf(type, consistent)
                .thenCompose(
                        latest ->
                                Futures.plain(
                                        AskPattern.<WatchCache.Command, WatchCache.WatchReply>ask(
                                                caches.cache(type.groupResource()),
                                                r ->
                                                        new WatchCache.Watch(
                                                                WatchStart.of(options, latest),
                                                                filter,
                                                                options.allowWatchBookmarks(),
                                                                options.initialEventsEndBookmark(),
                                                                waitFor(options.mode()),
                                                                timeout,
                                                                r),
                                                askTimeout,
                                                system.scheduler())))
                .thenApply(
                        reply -> {
                            if (reply instanceof WatchCache.WatchFailed f) {
                                throw f.status().exception();
                            }
                            return ((WatchCache.Watching) reply).events();
                        });
    }

    /**
     * Whether {@code address} belongs to a current member of the cluster (any status), this node
     * included.
     */
    private static boolean isMember(Cluster cluster, Address address) {
        for (Member m : cluster.state().getMembers()) {
            if (m.address().equals(address)) {
                return true;
            }
        }
        return address.equals(cluster.selfMember().address());
    }

    private Duration waitFor(ReadOptions.Mode mode) {
        return mode instanceof ReadOptions.Mode.MostRecent
                ? readSettings.cache().consistentWaitLimit()
                : readSettings.cache().waitLimit();
    }

    private CompletionStage<Long> latestCommittedIf(ResourceType type, boolean needed) {
        if (!needed) {
            return CompletableFuture.completedFuture(0L);
        }
        return stranded.read(
                        () ->
                                revisions(type)
                                        .<Revisions.Latest>ask(
                                                Revisions.GetLatest::new, askTimeout))
                .thenApply(Revisions.Latest::resourceVersion);
    }

    private CompletionStage<Snapshot> snapshot(ResourceType type, CacheRead read, Duration wait) {
        return Futures.plain(
                        AskPattern.<WatchCache.Command, WatchCache.ReadReply>ask(
                                caches.cache(type.groupResource()),
                                r -> new WatchCache.Read(read, wait, r),
                                askTimeout,
                                system.scheduler()))
                .thenApply(
                        reply -> {
                            if (reply instanceof WatchCache.ReadFailed f) {
                                throw f.status().exception();
                            }
                            return ((WatchCache.Snapshotted) reply).snapshot();
                        });
    }

    /**
     * Executes a write; creates of namespaced objects first check that their namespace exists and
     * is live. The answer is the collection's, unchanged; the stage fails only when no answer came
     * (a timeout, storage gone).
     */
    public CompletionStage<WriteResult> write(ResourceType type, String namespace, WriteOp op) {
        boolean namespaceWrite = type.groupResource().equals(namespaces.groupResource());
        String namespaceName = namespaceWrite ? op.targetName() : null;
        if (namespaceName != null) {
            liveNamespaces.forget(namespaceName);
        }
        CompletionStage<Optional<ApiStatus>> admitted =
                !type.namespaced()
                        ? ADMITTED
                        : switch (op.creation(type)) {
                            case YES ->
                                    admitNamespace(
                                            op.addressed(type), op.targetName(), namespace, true);
                            case ON_UPDATE ->
                                    admitNamespace(
                                            op.addressed(type), op.targetName(), namespace, false);
                            case WHEN_ABSENT ->
                                    get(type, namespace, op.targetName())
                                            .thenCompose(
                                                    found ->
                                                            found.isPresent()
                                                                    ? ADMITTED
                                                                    : admitNamespace(
                                                                            op.addressed(type),
                                                                            op.targetName(),
                                                                            namespace,
                                                                            true));
                            case NO -> ADMITTED;
                        };
        CompletionStage<WriteResult> result =
                admitted.thenCompose(
                        refusal ->
                                refusal.isPresent()
                                        ? CompletableFuture.completedFuture(
                                                new WriteResult.Refused(refusal.get()))
                                        : stranded.write(
                                                () ->
                                                        collection(type, namespace)
                                                                .<WriteResult>ask(
                                                                        r ->
                                                                                new CollectionEntity
                                                                                        .Write(
                                                                                        op, r),
                                                                        askTimeout)));
        if (namespaceName != null) {
            // Again once the write is done: an admission that read the namespace before it changed
            // may
            // have marked it live in between.
            result = result.whenComplete((r, e) -> liveNamespaces.forget(namespaceName));
        }
        return result;
    }

    private static final CompletionStage<Optional<ApiStatus>> ADMITTED =
            CompletableFuture.completedFuture(Optional.empty());

    /**
     * NamespaceLifecycle admission ({@link NamespaceLifecycle#admit}) of a write that may create
     * {@code name} of {@code type}: its refusal, or empty when the write may go on; {@code strict}:
     * the write certainly creates, so a missing namespace is 404.
     */
    private CompletionStage<Optional<ApiStatus>> admitNamespace(
            GroupResource resource, String name, String namespace, boolean strict) {
        if (liveNamespaces.isKnownLive(namespace)) {
            return ADMITTED;
        }
        return get(namespaces, "", namespace)
                .thenApply(
                        found -> {
                            NamespaceLifecycle.Admission admission =
                                    NamespaceLifecycle.admit(
                                            resource,
                                            name,
                                            namespace,
                                            found.map(Json::parseTrusted),
                                            strict);
                            if (admission instanceof NamespaceLifecycle.Admission.Refused refused) {
                                return Optional.of(refused.status());
                            }
                            if (admission instanceof NamespaceLifecycle.Admission.Live) {
                                liveNamespaces.markLive(namespace);
                            }
                            return Optional.<ApiStatus>empty();
                        });
    }

    /**
     * Deletes every selected object, one write each with the request's options (so each honours its
     * finalizers, grace period and propagation), and answers the objects as listed, as
     * kube-apiserver's store does. An object already gone is skipped; any other refusal fails the
     * whole request.
     */
    public CompletionStage<ObjectList> deleteCollection(
            ResourceType type, String namespace, ReadOptions selection, DeletionOptions deletion) {
        return list(type, namespace, selection.forDeleteCollection())
                .thenCompose(
                        listed -> {
                            List<CompletableFuture<Void>> deletes = new ArrayList<>();
                            for (byte[] item : listed.items()) {
                                ObjectNode obj = Json.parseTrusted(item);
                                WriteOp op = WriteOp.Delete.of(ObjectMeta.name(obj), deletion);
                                // Each delete's answer (the object again) is dropped when it
                                // arrives: the response is
                                // the listed items, and holding every answer until the last one
                                // would copy the collection.
                                deletes.add(
                                        write(type, ObjectMeta.namespace(obj), op)
                                                .toCompletableFuture()
                                                .thenApply(written -> unlessRefused(written, 404)));
                            }
                            return CompletableFuture.allOf(
                                            deletes.toArray(CompletableFuture[]::new))
                                    .thenApply(
                                            v ->
                                                    new ObjectList(
                                                            listed.items(),
                                                            listed.resourceVersion()));
                        });
    }

    /**
     * Nothing, when {@code result} succeeded or was refused with {@code tolerated} (a delete of a
     * collection that found an object gone, a bootstrap that found its namespace there); any other
     * refusal fails the whole request with its Status.
     */
    private static Void unlessRefused(WriteResult result, int tolerated) {
        if (result instanceof WriteResult.Refused refused && refused.status().code() != tolerated) {
            throw refused.status().exception();
        }
        return null;
    }

    /** Creates the system namespaces that do not exist yet. */
    public CompletionStage<Void> bootstrap() {
        List<CompletableFuture<?>> creates = new ArrayList<>();
        for (ObjectNode ns : NamespaceLifecycle.systemNamespaces()) {
            // 409: already there from an earlier start.
            creates.add(
                    write(namespaces, "", new WriteOp.Create(ns, WriteOptions.DEFAULT))
                            .toCompletableFuture()
                            .thenApply(written -> unlessRefused(written, 409)));
        }
        return CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new))
                .thenCompose(v -> RbacBootstrap.reconcile(this));
    }

    public ActorSystem<?> system() {
        return system;
    }
}
