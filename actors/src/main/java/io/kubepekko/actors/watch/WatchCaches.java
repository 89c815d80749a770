package io.kubepekko.actors.watch;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Futures;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.entity.CollectionEntity;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.failover.StrandedAsks;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.persistence.JournalReader;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.stream.Materializer;

/**
 * This node's watch caches: one {@link WatchCache} per registered group-resource, started with the
 * node, each loading from the group-resource's collections through Cluster Sharding.
 */
public final class WatchCaches {

    private record Entry(ActorRef<WatchCache.Command> cache, AtomicBoolean ready) {}

    /**
     * About how much JSON one page of a collection's load carries: well under Artery's frame size.
     */
    static final int PAGE_BYTES = 1024 * 1024;

    /**
     * How many collections this node's caches load at once, all caches together. Loading a
     * collection recovers its entity, which holds a snapshot part or a page of events in transient
     * heap besides the objects it keeps: 50 namespaces of 1 MB ConfigMaps recovering at once (300
     * MB of objects) filled a 512 MiB heap and timed out the journal's reads, where one by one they
     * fit.
     */
    static final int LOAD_PARALLELISM = 4;

    /**
     * Collection loads waiting for their turn, beyond which a cache's load fails and starts over.
     */
    static final int MAX_QUEUED_LOADS = 100_000;

    private final Map<GroupResource, Entry> caches;

    private WatchCaches(Map<GroupResource, Entry> caches) {
        this.caches = caches;
    }

    /** Spawns a cache for every stored kind of {@code registry}. */
    public static WatchCaches start(
            ActorSystem<?> system,
            Registry registry,
            WatchCache.Settings settings,
            Clock clock,
            Duration askTimeout,
            StrandedAsks reads,
            JournalReader journal,
            StorageQuota quota) {
        Materializer materializer = Materializer.matFromSystem(system);
        ClusterSharding sharding = ClusterSharding.get(system);
        AsyncLimiter loads = new AsyncLimiter(LOAD_PARALLELISM, MAX_QUEUED_LOADS, materializer);
        Map<GroupResource, Entry> caches = new LinkedHashMap<>();
        for (ResourceType type : registry.stored()) {
            if (caches.containsKey(type.groupResource())) {
                continue;
            }
            AtomicBoolean ready = new AtomicBoolean();
            Optional<WatchCache.History> history =
                    journal == null
                            ? Optional.empty()
                            : Optional.of(
                                    new JournalHistory(
                                            journal,
                                            type.groupResource().toString(),
                                            materializer));
            WatchCache.Sources sources =
                    new CollectionSources(sharding, type, askTimeout, reads, history, loads);
            ActorRef<WatchCache.Command> cache =
                    system.systemActorOf(
                            WatchCache.create(type, sources, settings, clock, ready, quota),
                            "watch-cache-"
                                    + type.groupResource()
                                            .toString()
                                            .replaceAll("[^A-Za-z0-9-]", "_"),
                            Props.empty());
            caches.put(type.groupResource(), new Entry(cache, ready));
        }
        stopBeforeShardingStops(system, caches);
        return new WatchCaches(caches);
    }

    /**
     * A stopping node stops its caches before its shard regions hand their entities over. A cache
     * that hears nothing from its Revisions (handed over by this node or one that left before)
     * subscribes again, and a region completes its graceful shutdown only once no message waits for
     * a shard's home: on the last member, whose region is the only one and is shutting down, none
     * comes until the phase times out. Nothing reads the caches by then: the server has stopped
     * serving.
     */
    private static void stopBeforeShardingStops(
            ActorSystem<?> system, Map<GroupResource, Entry> caches) {
        List<ActorRef<WatchCache.Command>> refs =
                caches.values().stream().map(Entry::cache).toList();
        CoordinatedShutdown.get(system)
                .addTask(
                        CoordinatedShutdown.PhaseServiceStop(),
                        "stop-watch-caches",
                        () -> {
                            org.apache.pekko.actor.ActorSystem classic = Adapter.toClassic(system);
                            refs.forEach(ref -> classic.stop(Adapter.toClassic(ref)));
                            return CompletableFuture.completedFuture(Done.getInstance());
                        });
    }

    public ActorRef<WatchCache.Command> cache(GroupResource groupResource) {
        Entry e = caches.get(groupResource);
        if (e == null) {
            throw new IllegalArgumentException("no watch cache for " + groupResource);
        }
        return e.cache();
    }

    /** The group-resources whose caches are not ready yet (empty once every cache serves). */
    public List<GroupResource> notReady() {
        List<GroupResource> out = new ArrayList<>();
        caches.forEach(
                (gr, e) -> {
                    if (!e.ready().get()) {
                        out.add(gr);
                    }
                });
        return out;
    }

    /** A health check: empty when every cache is ready, else which are not. */
    public Optional<String> readiness() {
        List<GroupResource> waiting = notReady();
        return waiting.isEmpty()
                ? Optional.empty()
                : Optional.of("watch caches not ready: " + waiting.size() + " of " + caches.size());
    }

    /**
     * Reads a group-resource's collections through sharding: the namespaces Revisions knows, then
     * each one's objects.
     */
    private record CollectionSources(
            ClusterSharding sharding,
            ResourceType type,
            Duration askTimeout,
            StrandedAsks reads,
            Optional<WatchCache.History> history,
            AsyncLimiter loads)
            implements WatchCache.Sources {

        @Override
        public RecipientRef<RevisionsProtocol.Command> revisions() {
            return sharding.entityRefFor(Revisions.TYPE_KEY, type.groupResource().toString());
        }

        @Override
        public CompletionStage<WatchCache.Contents> load() {
            // Reads: asked again when unanswered (a shard handed off meanwhile drops them).
            return reads.read(
                            () ->
                                    Futures.plain(
                                            sharding.entityRefFor(
                                                            Revisions.TYPE_KEY,
                                                            type.groupResource().toString())
                                                    .<RevisionsProtocol.Namespaces>ask(
                                                            RevisionsProtocol.GetNamespaces::new,
                                                            askTimeout)))
                    .thenCompose(
                            namespaces -> {
                                List<CompletableFuture<WatchCache.Contents>> parts =
                                        new ArrayList<>();
                                for (String ns : namespaces.namespaces()) {
                                    String id =
                                            new CollectionId(type.groupResource(), ns).entityId();
                                    parts.add(
                                            loads.submit(
                                                            () ->
                                                                    loadCollection(
                                                                            id,
                                                                            null,
                                                                            new ArrayList<>(),
                                                                            0))
                                                    .toCompletableFuture());
                                }
                                return CompletableFuture.allOf(
                                                parts.toArray(CompletableFuture[]::new))
                                        .thenApply(
                                                v -> {
                                                    List<byte[]> objects = new ArrayList<>();
                                                    long readVersion = 0;
                                                    for (CompletableFuture<WatchCache.Contents> p :
                                                            parts) {
                                                        WatchCache.Contents c = p.join();
                                                        objects.addAll(c.objects());
                                                        readVersion =
                                                                Math.max(
                                                                        readVersion,
                                                                        c.readVersion());
                                                    }
                                                    return new WatchCache.Contents(
                                                            objects, readVersion);
                                                });
                            });
        }

        /**
         * One collection's objects, page after page. Pages read at different times need not agree:
         * every change a page may have missed is above the version the cache loads from, so the
         * stream brings it (as it does for collections read at different times).
         */
        private CompletionStage<WatchCache.Contents> loadCollection(
                String id, String after, List<byte[]> objects, long readVersion) {
            return reads.read(
                            () ->
                                    Futures.plain(
                                            sharding.entityRefFor(CollectionEntity.TYPE_KEY, id)
                                                    .<CollectionProtocol.Items>ask(
                                                            r ->
                                                                    new CollectionProtocol
                                                                            .ListObjects(
                                                                            after, PAGE_BYTES, r),
                                                            askTimeout)))
                    .thenCompose(
                            page -> {
                                objects.addAll(page.items());
                                long read = Math.max(readVersion, page.lastVersion());
                                return page.next() == null
                                        ? CompletableFuture.completedFuture(
                                                new WatchCache.Contents(objects, read))
                                        : loadCollection(id, page.next(), objects, read);
                            });
        }
    }
}
