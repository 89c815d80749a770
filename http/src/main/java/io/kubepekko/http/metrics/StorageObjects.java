package io.kubepekko.http.metrics;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The data of kube-apiserver's gauge {@code apiserver_storage_objects}: how many objects each
 * stored resource holds, counted from this node's watch caches when /metrics is scraped (a resource
 * whose cache cannot answer counts -1). kube polls etcd for its counts once a minute; a cache
 * answers a count without touching the journal, so a scrape counts afresh and a client sees its own
 * writes at once.
 */
public final class StorageObjects implements ObjectCounts {

    /**
     * A page of one object from anywhere in the cache: its {@code remainingItemCount} is the rest.
     */
    private static final ReadOptions ONE =
            new ReadOptions(
                    ReadOptions.Verb.LIST,
                    new ReadOptions.Mode.NotOlderThan(0),
                    1,
                    false,
                    false,
                    null,
                    null,
                    null);

    private final ControlPlane controlPlane;
    private final List<ResourceType> stored;

    public StorageObjects(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
        Map<String, ResourceType> distinct = new LinkedHashMap<>();
        for (ResourceType type : controlPlane.registry().stored()) {
            distinct.putIfAbsent(type.groupResource().toString(), type);
        }
        this.stored = List.copyOf(distinct.values());
    }

    /** Counts every stored resource in this node's caches. */
    @Override
    public CompletionStage<Map<String, Long>> count() {
        List<CompletableFuture<Long>> asked = new ArrayList<>(stored.size());
        for (ResourceType type : stored) {
            asked.add(
                    controlPlane
                            .list(type, null, ONE)
                            .thenApply(StorageObjects::count)
                            .exceptionally(failed -> -1L)
                            .toCompletableFuture());
        }
        return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
                .thenApply(
                        all -> {
                            Map<String, Long> counts = new LinkedHashMap<>();
                            for (int i = 0; i < stored.size(); i++) {
                                counts.put(
                                        stored.get(i).groupResource().toString(),
                                        asked.get(i).join());
                            }
                            return counts;
                        });
    }

    private static long count(ListChunk page) {
        Long rest = page.remainingItemCount();
        return page.items().size() + (rest == null ? 0 : rest);
    }
}
