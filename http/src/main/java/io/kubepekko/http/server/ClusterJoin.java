package io.kubepekko.http.server;

import com.typesafe.config.Config;
import io.kubepekko.actors.fencing.ClusterFormation;
import io.kubepekko.actors.fencing.GenerationWatch;
import io.kubepekko.persistence.fencing.FormationTable;
import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins a server on Cassandra to the cluster that owns its keyspace, or forms it ({@link
 * ClusterFormation}), then keeps beating and watching the generation ({@link GenerationWatch}).
 */
final class ClusterJoin {
    private static final Logger log = LoggerFactory.getLogger(ClusterJoin.class);

    private ClusterJoin() {}

    /**
     * The seed-node setting the cluster extension would act on by itself: servers on Cassandra join
     * here.
     */
    static final String SEED_NODES = "pekko.cluster.seed-nodes";

    static void join(ActorSystem<Void> system, List<String> seeds, Config config) throws Exception {
        Cluster cluster = Cluster.get(system);
        UniqueAddress unique = cluster.selfMember().uniqueAddress();
        String self = unique.address() + "#" + unique.longUid();
        FormationTable table = FormationTable.of(system);
        ClusterFormation.Store store =
                new ClusterFormation.Store() {
                    @Override
                    public CompletionStage<Map<String, Long>> beats() {
                        return table.beats();
                    }

                    @Override
                    public CompletionStage<Optional<Long>> generation() {
                        return table.generation();
                    }

                    @Override
                    public CompletionStage<Boolean> claim(
                            Optional<Long> expected, long next, String former) {
                        return table.claim(expected, next, former);
                    }
                };
        Duration observe = config.getDuration("kubepekko.cluster.formation.observe");
        ClusterFormation.Joined joined =
                ClusterFormation.join(
                        store,
                        self,
                        unique.address().toString(),
                        seeds,
                        observe,
                        Duration.ofSeconds(30),
                        d -> Thread.sleep(d.toMillis()),
                        through -> {
                            if (through.get(0).equals(unique.address().toString())) {
                                // It won the generation: nobody else forms now, so it need not ask
                                // the others first.
                                cluster.manager().tell(Join.create(unique.address()));
                            } else {
                                cluster.manager()
                                        .tell(
                                                new JoinSeedNodes(
                                                        through.stream()
                                                                .map(AddressFromURIString::parse)
                                                                .toList()));
                            }
                        });
        log.info(
                joined.formed()
                        ? "forming the cluster of this keyspace (generation {}): no member beat in {}"
                        : "joining the cluster of this keyspace (generation {}) through {}",
                joined.generation().map(String::valueOf).orElse("not recorded yet"),
                joined.formed() ? observe : joined.seeds());
        GenerationWatch.Store beats =
                new GenerationWatch.Store() {
                    @Override
                    public CompletionStage<Void> beat(String member, long generation, long beat) {
                        return table.beat(member, generation, beat);
                    }

                    @Override
                    public CompletionStage<Optional<Long>> generation() {
                        return table.generation();
                    }
                };
        WritePermit permit = WritePermit.ID.of(Adapter.toClassic(system));
        // Another cluster forms on this storage only after a starting server saw no beat move for
        // `observe`.
        permit.replacedNoSoonerThan(
                observe.minus(config.getDuration("kubepekko.cluster.write-lease.duration")));
        system.systemActorOf(
                GenerationWatch.create(
                        beats,
                        permit,
                        self,
                        joined.generation(),
                        config.getDuration("kubepekko.cluster.formation.beat-interval"),
                        config.getDuration("kubepekko.cluster.write-lease.duration"),
                        () ->
                                CoordinatedShutdown.get(Adapter.toClassic(system))
                                        .run(CoordinatedShutdown.unknownReason())),
                GenerationWatch.NAME,
                Props.empty());
    }
}
