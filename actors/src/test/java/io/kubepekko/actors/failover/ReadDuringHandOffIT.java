package io.kubepekko.actors.failover;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.persistence.CborSerializable;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ShardCoordinator;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityTypeKey;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.dispatch.Futures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import scala.collection.immutable.IndexedSeq;
import scala.concurrent.Future;

/**
 * Two cluster members in one JVM, one shard moved from the first to the second, and a read sent
 * where Pekko's hand-off loses it: the first member's region has begun the hand-off (it no longer
 * knows where the shard lives and buffers the read) and drops its buffer when the hand-off proper
 * comes ("Dropping [1] buffered messages to shard ... during hand off"). The first member's mailbox
 * holds the hand-off back ({@link HeldHandOffMailbox}) until the read is in that buffer, so the
 * loss happens every run, not one run in many.
 */
class ReadDuringHandOffIT {

    private static final String SYSTEM = "ReadDuringHandOffIT";
    private static final EntityTypeKey<Get> KEY =
            EntityTypeKey.create(Get.class, "ReadDuringHandOff");
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration REASK_AFTER = Duration.ofMillis(500);

    /** Asks the entity which member it runs on. */
    record Get(org.apache.pekko.actor.typed.ActorRef<String> replyTo) implements CborSerializable {}

    private final MovableShards shards = new MovableShards();
    private ActorTestKit first;
    private ActorTestKit second;

    @AfterEach
    void stop() {
        HeldHandOffMailbox.disarm();
        if (second != null) {
            second.shutdownTestKit();
        }
        if (first != null) {
            first.shutdownTestKit();
        }
    }

    @Test
    void aReadDroppedInAShardsHandOffIsAskedAgainAndAnsweredAtTheShardsNewHome() throws Exception {
        first = ActorTestKit.create(SYSTEM, holdingHandOffs().withFallback(member()));
        second = ActorTestKit.create(SYSTEM, member());
        Address firstAddress = Cluster.get(first.system()).selfMember().address();
        Address secondAddress = Cluster.get(second.system()).selfMember().address();
        Cluster.get(first.system()).manager().tell(Join.create(firstAddress));
        Cluster.get(second.system()).manager().tell(Join.create(firstAddress));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> bothUp(first.system()) && bothUp(second.system()));
        EntityRef<Get> fromFirst = startSharding(first.system()).entityRefFor(KEY, "x");
        EntityRef<Get> fromSecond = startSharding(second.system()).entityRefFor(KEY, "x");
        // The shard starts where it is first asked for; the second member's region is then
        // registered with the coordinator (on the first, the oldest) and knows the shard's home.
        assertEquals(firstAddress.toString(), answer(fromFirst.ask(Get::new, ASK_TIMEOUT)));
        assertEquals(firstAddress.toString(), answer(fromSecond.ask(Get::new, ASK_TIMEOUT)));

        CompletableFuture<HeldHandOffMailbox.Held> handOff = HeldHandOffMailbox.holdNext();
        shards.moveAllTo(secondAddress);
        // Every region has acknowledged BeginHandOff: the first no longer routes to the shard.
        HeldHandOffMailbox.Held held = handOff.get(30, TimeUnit.SECONDS);

        List<CompletableFuture<String>> asks = new CopyOnWriteArrayList<>();
        StrandedAsks reads =
                StrandedAsks.on(
                        first.system(), new StrandedAsks.ReAsking(REASK_AFTER, ASK_TIMEOUT));
        CompletableFuture<String> read =
                reads.read(
                        () -> {
                            CompletableFuture<String> ask =
                                    fromFirst.ask(Get::new, ASK_TIMEOUT).toCompletableFuture();
                            asks.add(ask);
                            return ask;
                        });
        // The region buffered the read (its home is being moved); the hand-off, behind it in the
        // mailbox, drops it.
        held.deliver();

        assertEquals(
                secondAddress.toString(),
                read.get(ASK_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS),
                "answered at the shard's new home, before the ask time-out");
        assertTrue(asks.size() >= 2, "asked again");
        assertFalse(asks.get(0).isDone(), "the first ask was dropped in the hand-off");
    }

    private ClusterSharding startSharding(ActorSystem<?> system) {
        String member = Cluster.get(system).selfMember().address().toString();
        ClusterSharding sharding = ClusterSharding.get(system);
        sharding.init(Entity.of(KEY, ctx -> answering(member)).withAllocationStrategy(shards));
        return sharding;
    }

    private static Behavior<Get> answering(String member) {
        return Behaviors.receiveMessage(
                get -> {
                    get.replyTo().tell(member);
                    return Behaviors.same();
                });
    }

    private static String answer(CompletionStage<String> ask) throws Exception {
        return ask.toCompletableFuture().get(ASK_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
    }

    private static boolean bothUp(ActorSystem<?> system) {
        int up = 0;
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                up++;
            }
        }
        return up == 2;
    }

    private static Config member() {
        return ConfigFactory.parseString(
                        """
                        pekko.loglevel = WARNING
                        pekko.actor.provider = cluster
                        pekko.remote.artery.canonical { hostname = "127.0.0.1", port = 0 }
                        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
                        # The move is asked for at the next check.
                        pekko.cluster.sharding.rebalance-interval = 100ms
                        pekko.cluster.sharding.retry-interval = 200ms
                        """)
                .withFallback(ConfigFactory.load());
    }

    private static Config holdingHandOffs() {
        return ConfigFactory.parseString(
                """
                pekko.actor.deployment {
                  "/sharding/ReadDuringHandOff" { mailbox = held-handoff-mailbox }
                }
                held-handoff-mailbox.mailbox-type = "io.kubepekko.actors.failover.HeldHandOffMailbox"
                """);
    }

    /**
     * Puts a shard where it is first asked for, and every shard on one member when told to (at the
     * coordinator's next rebalance check).
     */
    private static final class MovableShards
            extends ShardCoordinator.AbstractShardAllocationStrategy {
        private volatile Address home;
        private final AtomicBoolean move = new AtomicBoolean();

        void moveAllTo(Address member) {
            home = member;
            move.set(true);
        }

        @Override
        public Future<ActorRef> allocateShard(
                ActorRef requester, String shardId, Map<ActorRef, IndexedSeq<String>> current) {
            Address to = home;
            for (ActorRef region : current.keySet()) {
                if (region.path().address().equals(to)) {
                    return Futures.successful(region);
                }
            }
            return Futures.successful(requester);
        }

        @Override
        public Future<Set<String>> rebalance(
                Map<ActorRef, IndexedSeq<String>> current, Set<String> inProgress) {
            Set<String> moved = new HashSet<>();
            if (move.getAndSet(false)) {
                current.forEach(
                        (region, allocated) -> {
                            if (!region.path().address().equals(home)) {
                                for (int i = 0; i < allocated.size(); i++) {
                                    moved.add(allocated.apply(i));
                                }
                            }
                        });
            }
            return Futures.successful(moved);
        }
    }
}
