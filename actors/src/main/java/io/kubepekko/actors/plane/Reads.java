package io.kubepekko.actors.plane;

import io.kubepekko.actors.Futures;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.entity.CommittedObjects;
import io.kubepekko.actors.failover.StrandedAsks;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.actors.watch.WatchCache;
import io.kubepekko.actors.watch.WatchCaches;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.CachedObject;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.api.watch.Selection;
import io.kubepekko.api.watch.Snapshot;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The reads behind {@link ControlPlane}: an object from its collection (or the collection's
 * committed objects on this node), lists and watches from this node's watch cache.
 */
final class Reads {

    private final ActorSystem<?> system;
    private final EntityShards shards;
    private final Duration askTimeout;
    private final ControlPlane.ReadSettings readSettings;
    private final WatchCaches caches;
    private final CommittedObjects committed;
    private final StrandedAsks stranded;

    Reads(
            ActorSystem<?> system,
            EntityShards shards,
            ControlPlane.ReadSettings readSettings,
            WatchCaches caches,
            CommittedObjects committed,
            StrandedAsks stranded) {
        this.system = system;
        this.shards = shards;
        this.askTimeout = readSettings.askTimeout();
        this.readSettings = readSettings;
        this.caches = caches;
        this.committed = committed;
        this.stranded = stranded;
    }

    CompletionStage<Optional<byte[]>> get(ResourceType type, String namespace, String name) {
        var objects = committed.of(EntityShards.collectionId(type, namespace));
        if (objects != null) {
            return CompletableFuture.completedFuture(Optional.ofNullable(objects.get(name)));
        }
        return stranded.read(
                        () ->
                                shards.collection(type, namespace)
                                        .<CollectionProtocol.GetReply>ask(
                                                r -> new CollectionProtocol.Get(name, r),
                                                askTimeout))
                .thenApply(reply -> Optional.ofNullable(reply.object()));
    }

    CompletionStage<Optional<byte[]>> get(
            ResourceType type, String namespace, String name, ReadOptions options) {
        if (options.mode() instanceof ReadOptions.Mode.MostRecent) {
            return get(type, namespace, name);
        }
        ObjectKey key = new ObjectKey(type.namespaced() ? namespace : "", name);
        return snapshot(type, CacheRead.of(options.mode(), 0), readSettings.cache().waitLimit())
                .thenApply(s -> s.get(key).map(CachedObject::json));
    }

    CompletionStage<ListChunk> list(ResourceType type, String namespace, ReadOptions options) {
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
                .thenApply(s -> ListChunk.of(s, ns, selection, options));
    }

    CompletionStage<Source<StreamEvent, NotUsed>> watch(
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
                                shards.revisions(type)
                                        .<RevisionsProtocol.Latest>ask(
                                                RevisionsProtocol.GetLatest::new, askTimeout))
                .thenApply(RevisionsProtocol.Latest::resourceVersion);
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
}
