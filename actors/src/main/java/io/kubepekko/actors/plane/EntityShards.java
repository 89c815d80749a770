package io.kubepekko.actors.plane;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.entity.CollectionEntity;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.entity.CommittedObjects;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.ObjectWrites;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * Where the entities live: starts Cluster Sharding of the sequencers ({@link Revisions}), the
 * collections ({@link CollectionEntity}) and the value allocators ({@link ValueAllocator}), and
 * reaches a kind's collection and sequencer.
 */
final class EntityShards {

    private final ClusterSharding sharding;

    EntityShards(ClusterSharding sharding) {
        this.sharding = sharding;
    }

    /**
     * Starts sharding of the entities on this node.
     *
     * @return where the collections running on this node publish their committed objects
     */
    static CommittedObjects start(
            ActorSystem<?> system,
            Registry registry,
            ObjectWrites writes,
            Environment environment,
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
                        .withStopMessage(RevisionsProtocol.HandOver.INSTANCE)
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
        return committed;
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

    EntityRef<CollectionProtocol.Command> collection(ResourceType type, String namespace) {
        return sharding.entityRefFor(CollectionEntity.TYPE_KEY, collectionId(type, namespace));
    }

    static String collectionId(ResourceType type, String namespace) {
        return new CollectionId(type.groupResource(), type.namespaced() ? namespace : "")
                .entityId();
    }

    EntityRef<RevisionsProtocol.Command> revisions(ResourceType type) {
        return sharding.entityRefFor(Revisions.TYPE_KEY, type.groupResource().toString());
    }
}
