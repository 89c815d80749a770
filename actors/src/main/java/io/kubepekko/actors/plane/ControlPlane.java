package io.kubepekko.actors.plane;

import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.entity.CommittedObjects;
import io.kubepekko.actors.failover.RemovedMembers;
import io.kubepekko.actors.failover.StrandedAsks;
import io.kubepekko.actors.watch.WatchCache;
import io.kubepekko.actors.watch.WatchCaches;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.namespace.NamespaceLifecycle;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.persistence.JournalReader;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
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

    /** What a deletecollection did: deleted the listed objects, or was refused. */
    public sealed interface CollectionDeletion {
        /** Every listed object was deleted (or was already gone). */
        record Deleted(ObjectList listed) implements CollectionDeletion {}

        /** A delete was refused with {@code status}; it answers the request. */
        record Refused(ApiStatus status) implements CollectionDeletion {}
    }

    /**
     * How reads are served.
     *
     * @param askTimeout how long a call waits for an actor's answer
     * @param reaskAfter how long a read of an entity may stay unanswered before it is asked again
     *     (then after twice as long, and so on until {@code askTimeout}): see {@link StrandedAsks}
     * @param cache the watch caches' behaviour
     * @param gates the server's feature gates
     */
    public record ReadSettings(
            Duration askTimeout,
            Duration reaskAfter,
            WatchCache.Settings cache,
            FeatureGates gates) {}

    private final ActorSystem<?> system;
    private final Registry registry;
    private final ReadSettings readSettings;
    private final WatchCaches caches;
    private final Reads reads;
    private final Writes writes;
    private final Evictions evictions;

    private ControlPlane(
            ActorSystem<?> system,
            Registry registry,
            ReadSettings readSettings,
            WatchCaches caches,
            CommittedObjects committed,
            StrandedAsks stranded,
            Clock clock) {
        this.system = system;
        this.registry = registry;
        this.readSettings = readSettings;
        this.caches = caches;
        EntityShards shards = new EntityShards(ClusterSharding.get(system));
        this.reads = new Reads(system, shards, readSettings, caches, committed, stranded);
        this.writes =
                new Writes(
                        reads,
                        shards,
                        stranded,
                        readSettings.askTimeout(),
                        registry.find(NamespaceLifecycle.NAMESPACES).orElseThrow());
        this.evictions = new Evictions(this, clock);
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
        CommittedObjects committed =
                EntityShards.start(system, registry, writes, environment, pools, quota);
        StrandedAsks stranded =
                StrandedAsks.on(
                        system,
                        new StrandedAsks.ReAsking(
                                readSettings.reaskAfter(), readSettings.askTimeout()));
        RemovedMembers.start(system, stranded);
        WatchCaches caches =
                WatchCaches.start(
                        system,
                        registry,
                        readSettings.cache(),
                        environment.clock(),
                        readSettings.askTimeout(),
                        stranded,
                        journal,
                        quota);
        return new ControlPlane(
                system, registry, readSettings, caches, committed, stranded, environment.clock());
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

    /**
     * How many entities of each shard region (Collection, Revisions, ValueAllocator) run on this
     * node; a region that does not answer within the ask timeout is left out.
     */
    public CompletionStage<Map<String, Integer>> shardedEntities() {
        return ShardedEntities.count(system, readSettings.askTimeout());
    }

    public FeatureGates featureGates() {
        return readSettings.gates();
    }

    public Registry registry() {
        return registry;
    }

    /**
     * The object's JSON at its latest committed state, or empty: read without a message when the
     * collection's entity runs on this node (see {@link CommittedObjects}), else asked of it.
     */
    public CompletionStage<Optional<byte[]>> get(ResourceType type, String namespace, String name) {
        return reads.get(type, namespace, name);
    }

    /**
     * A read at the version {@code options} ask for: the latest committed state from the object's
     * collection ("Most Recent"), or this node's watch cache ("Any", "Not older than").
     */
    public CompletionStage<Optional<byte[]>> get(
            ResourceType type, String namespace, String name, ReadOptions options) {
        return reads.get(type, namespace, name, options);
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
        return reads.list(type, namespace, options);
    }

    /**
     * Starts a watch from this node's watch cache. Problems found before the stream starts (a bad
     * selector, a version the cache did not reach in time) fail the stage; a version older than the
     * retained history is the stream's one ERROR event, as in Kubernetes.
     */
    public CompletionStage<Source<StreamEvent, NotUsed>> watch(
            ResourceType type, String namespace, ReadOptions options) {
        return reads.watch(type, namespace, options, Duration.ZERO);
    }

    /**
     * {@link #watch(ResourceType, String, ReadOptions)} for a stream the caller ends {@code
     * timeout} after it starts: a watcher that accepts bookmarks gets one shortly before then, so
     * it resumes from a fresh version.
     */
    public CompletionStage<Source<StreamEvent, NotUsed>> watch(
            ResourceType type, String namespace, ReadOptions options, Duration timeout) {
        return reads.watch(type, namespace, options, timeout);
    }

    /**
     * kube's NamespaceLifecycle admission of a create through a subresource that stores nothing of
     * its own kind ({@code pods/eviction}, {@code serviceaccounts/token}): 404 when {@code
     * namespace} does not exist, kube's 403 with the {@code NamespaceTerminating} cause when it is
     * being deleted, else empty. Writes through {@link #write} are admitted so on their own.
     */
    public CompletionStage<Optional<ApiStatus>> admitCreateInNamespace(
            GroupResource resource, String name, String namespace) {
        return writes.admitNamespace(resource, name, namespace, true);
    }

    /**
     * Executes the server's own write (the bootstrap's: kube's loopback client in {@code
     * system:masters}; a controller's goes through {@link RequestAdmission} as its own user's),
     * which admission does not judge; creates of namespaced objects first check that their
     * namespace exists and is live. The answer is the collection's, unchanged; the stage fails only
     * when no answer came (a timeout, storage gone).
     */
    public CompletionStage<WriteResult> write(ResourceType type, String namespace, WriteOp op) {
        return writes.write(type, namespace, op, null);
    }

    /**
     * Executes {@code user}'s write as {@link #write(ResourceType, String, WriteOp)} does, judged
     * by the collection's admission ({@link io.kubepekko.api.admission.WriteAdmission}, given to
     * the {@link ObjectWrites} this plane started with) inside the write, with the stored object
     * and the one the write leaves.
     */
    public CompletionStage<WriteResult> write(
            ResourceType type, String namespace, WriteOp op, UserInfo user) {
        return writes.write(type, namespace, op, Objects.requireNonNull(user, "user"));
    }

    /**
     * Deletes every selected object, one write each with the request's options (so each honours its
     * finalizers, grace period and propagation), and answers the objects as listed, as
     * kube-apiserver's store does. An object already gone is skipped; any other refusal answers the
     * whole request (the deletes that were allowed stay done, as in kube). The server's own, not
     * admitted.
     */
    public CompletionStage<CollectionDeletion> deleteCollection(
            ResourceType type, String namespace, ReadOptions selection, DeletionOptions deletion) {
        return writes.deleteCollection(type, namespace, selection, deletion, null);
    }

    /** {@code user}'s delete of a collection: each delete is admitted as {@code user}'s. */
    public CompletionStage<CollectionDeletion> deleteCollection(
            ResourceType type,
            String namespace,
            ReadOptions selection,
            DeletionOptions deletion,
            UserInfo user) {
        return writes.deleteCollection(
                type, namespace, selection, deletion, Objects.requireNonNull(user, "user"));
    }

    /**
     * One delete of a collection: the item as listed (stored JSON) and its delete, answered as a
     * write is. What a user's deletecollection calls around each delete (its admission webhooks).
     */
    @FunctionalInterface
    public interface ItemDelete {
        CompletionStage<WriteResult> delete(byte[] item, WriteOp.Delete op);
    }

    /**
     * {@code user}'s delete of a collection as {@link #deleteCollection(ResourceType, String,
     * ReadOptions, DeletionOptions, UserInfo)}, each item's delete made through {@code around},
     * which is given the plain write to call (or not, when it refuses the item).
     */
    public CompletionStage<CollectionDeletion> deleteCollection(
            ResourceType type,
            String namespace,
            ReadOptions selection,
            DeletionOptions deletion,
            UserInfo user,
            ItemDelete around) {
        return writes.deleteCollection(
                type,
                namespace,
                selection,
                deletion,
                Objects.requireNonNull(user, "user"),
                Objects.requireNonNull(around, "around"));
    }

    /**
     * Evicts a pod ({@code POST pods/{name}/eviction}, already decoded and admitted), as
     * kube-apiserver's eviction storage does: deleted with {@code options} when no
     * PodDisruptionBudget guards it or its budget grants the disruption (written into the budget's
     * status first), answered {@link WriteResult.Created} with kube's {@code Status} of success;
     * refused with kube's 429 when the budget allows no disruption, 500 when several budgets guard
     * the pod, 404 when it is absent. The budget and pod writes are the server's own.
     *
     * @param options the eviction's {@code deleteOptions}, with the request's dry run propagated
     * @param fieldManager the manager of the pod's condition write
     */
    public CompletionStage<WriteResult> evict(
            String namespace, String pod, DeletionOptions options, String fieldManager) {
        return evictions.evict(namespace, pod, options, fieldManager);
    }

    /**
     * Creates the system namespaces and the system PriorityClasses that do not exist yet, then
     * reconciles the bootstrap RBAC policy.
     */
    public CompletionStage<Void> bootstrap() {
        return writes.bootstrap()
                .thenCompose(v -> PriorityClassBootstrap.create(this))
                .thenCompose(v -> RbacBootstrap.reconcile(this));
    }

    public ActorSystem<?> system() {
        return system;
    }
}
