package io.kubepekko.actors.plane;

import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.entity.CollectionEntity;
import io.kubepekko.actors.sequencing.Revisions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingQuery;
import org.apache.pekko.cluster.sharding.typed.GetShardRegionState;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;

/**
 * How many entities of each shard region run on this node, asked of the regions themselves (each
 * answers from its shards' own bookkeeping), for the server's metrics.
 */
final class ShardedEntities {

    private static final List<EntityTypeKey<?>> REGIONS =
            List.of(CollectionEntity.TYPE_KEY, Revisions.TYPE_KEY, ValueAllocator.TYPE_KEY);

    private ShardedEntities() {}

    /**
     * The entities running on this node by region name ({@code Collection}, {@code Revisions},
     * {@code ValueAllocator}); a region that did not answer within {@code timeout} is left out.
     */
    static CompletionStage<Map<String, Integer>> count(ActorSystem<?> system, Duration timeout) {
        ClusterSharding sharding = ClusterSharding.get(system);
        List<CompletableFuture<Integer>> asked = new ArrayList<>(REGIONS.size());
        for (EntityTypeKey<?> key : REGIONS) {
            asked.add(
                    AskPattern.<ClusterShardingQuery, ShardRegion.CurrentShardRegionState>ask(
                                    sharding.shardState(),
                                    replyTo -> new GetShardRegionState(key, replyTo),
                                    timeout,
                                    system.scheduler())
                            .thenApply(ShardedEntities::entities)
                            .exceptionally(failed -> -1)
                            .toCompletableFuture());
        }
        return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
                .thenApply(
                        all -> {
                            Map<String, Integer> counts = new LinkedHashMap<>();
                            for (int i = 0; i < REGIONS.size(); i++) {
                                int n = asked.get(i).join();
                                if (n >= 0) {
                                    counts.put(REGIONS.get(i).name(), n);
                                }
                            }
                            return counts;
                        });
    }

    private static int entities(ShardRegion.CurrentShardRegionState state) {
        int n = 0;
        for (ShardRegion.ShardState shard : state.getShards()) {
            n += shard.getEntityIds().size();
        }
        return n;
    }
}
