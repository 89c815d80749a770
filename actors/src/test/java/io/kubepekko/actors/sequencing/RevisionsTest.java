package io.kubepekko.actors.sequencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.ReplayedEvents;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.testsupport.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.apache.pekko.persistence.testkit.javadsl.SnapshotTestKit;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Revisions} through the {@link EventSourcedBehaviorTestKit}, with serialization checks on:
 * every command, reply, event and state goes through the Jackson CBOR binding of {@code
 * CborSerializable} that the persistence module's {@code reference.conf} declares (the test system
 * takes the reference configuration as fallback, so nothing is repeated here).
 */
class RevisionsTest {

    private static final AtomicInteger GROUP_RESOURCES = new AtomicInteger();

    private static ActorTestKit actorTestKit;

    private EventSourcedBehaviorTestKit<RevisionsProtocol.Command, RevisionsEvent, RevisionsState>
            testKit;
    private String persistenceId;

    @BeforeAll
    static void startSystem() {
        actorTestKit = ActorTestKit.create(EventSourcedBehaviorTestKit.config());
    }

    @AfterAll
    static void stopSystem() {
        actorTestKit.shutdownTestKit();
    }

    /**
     * Each test gets its own group-resource, hence its own persistence id, within the shared
     * system.
     */
    @BeforeEach
    void spawnRevisions() {
        GroupResource gr =
                new GroupResource(
                        "test.kubepekko.io", "things" + GROUP_RESOURCES.incrementAndGet());
        persistenceId = PersistenceId.of("Revisions", gr.toString()).id();
        testKit =
                EventSourcedBehaviorTestKit.create(
                        actorTestKit.system(),
                        Revisions.create(gr),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings());
    }

    private EventSourcedBehaviorTestKit.CommandResultWithReply<
                    RevisionsProtocol.Command,
                    RevisionsEvent,
                    RevisionsState,
                    RevisionsProtocol.Allocated>
            allocate(int count, String namespace) {
        return testKit.runCommand(
                replyTo -> new RevisionsProtocol.Allocate(count, namespace, 0, replyTo));
    }

    private long latest() {
        return testKit.<RevisionsProtocol.Latest>runCommand(RevisionsProtocol.GetLatest::new)
                .reply()
                .resourceVersion();
    }

    /**
     * The serialization checks below are meaningful only if our messages reach the CBOR binding.
     */
    @Test
    void protocolIsBoundToJacksonCbor() {
        Serialization serialization =
                SerializationExtension.get(Adapter.toClassic(actorTestKit.system()));
        for (Object message :
                List.of(
                        RevisionsState.EMPTY,
                        new RevisionsEvent.BlockReserved(1),
                        new RevisionsProtocol.Committed(1, List.of()),
                        new RevisionsProtocol.Abandoned(1),
                        new RevisionsProtocol.Latest(1),
                        new RevisionsProtocol.Published("e", 1, List.of()))) {
            assertEquals(
                    "JacksonCborSerializer",
                    serialization.findSerializerFor(message).getClass().getSimpleName(),
                    message.getClass().getName());
        }
    }

    @Test
    void allocateRepliesConsecutiveVersionsAfterTheGenesisVersion() {
        assertEquals(
                1,
                latest(),
                "a group-resource never written is at 1, never \"0\" (which means any)");
        assertEquals(2, allocate(3, "a").reply().first());
        assertEquals(5, allocate(2, "a").reply().first());
        assertEquals(7, allocate(1, "b").reply().first());
        assertEquals(8, allocate(1, "a").reply().first());
    }

    @Test
    void firstAllocationReservesABlockAndRecordsTheNamespace() {
        var result = allocate(2, "team-a");

        assertEquals(
                List.of(
                        new RevisionsEvent.BlockReserved(3 + Revisions.BLOCK),
                        new RevisionsEvent.CollectionAdded("team-a")),
                result.events());
        assertEquals(3 + Revisions.BLOCK, result.state().reservedUpTo());
        assertEquals(Set.of("team-a"), Set.copyOf(result.state().namespaces()));
    }

    @Test
    void allocationsInsideTheReservedBlockPersistNothing() {
        allocate(1, "team-a");

        // Versions 3..BLOCK+2 end exactly at the reserved bound.
        var inside = allocate((int) Revisions.BLOCK, "team-a");

        assertTrue(inside.hasNoEvents(), () -> "persisted " + inside.events());
        assertEquals(3, inside.reply().first());
        assertEquals(2 + Revisions.BLOCK, inside.state().reservedUpTo());
    }

    @Test
    void allocationBeyondTheReservedBlockReservesAnotherOne() {
        allocate(1, "team-a");
        allocate((int) Revisions.BLOCK, "team-a");

        var beyond = allocate(1, "team-a");

        assertEquals(Revisions.BLOCK + 3, beyond.reply().first());
        assertEquals(
                List.of(new RevisionsEvent.BlockReserved(2 * Revisions.BLOCK + 3)),
                beyond.events());
    }

    @Test
    void allocationForANewNamespaceRecordsOnlyTheNamespace() {
        allocate(1, "team-a");

        var other = allocate(1, "team-b");

        assertEquals(3, other.reply().first());
        assertEquals(List.of(new RevisionsEvent.CollectionAdded("team-b")), other.events());
        assertEquals(Set.of("team-a", "team-b"), Set.copyOf(other.state().namespaces()));
    }

    @Test
    void restartAllocatesAboveEverythingHandedOutBefore() {
        long highest = 0;
        for (int i = 0; i < 5; i++) {
            var r = allocate(3, "team-a");
            highest = r.reply().first() + 2;
        }
        long reservedUpTo = testKit.getState().reservedUpTo();

        var restarted = testKit.restart();
        var next = allocate(1, "team-a");

        assertEquals(reservedUpTo, restarted.state().reservedUpTo());
        assertTrue(
                next.reply().first() > highest,
                "next " + next.reply().first() + " <= handed out " + highest);
        assertTrue(
                next.reply().first() > reservedUpTo,
                "next " + next.reply().first() + " <= reserved " + reservedUpTo);
        assertEquals(
                List.of(new RevisionsEvent.BlockReserved(next.reply().first() + Revisions.BLOCK)),
                next.events());
    }

    @Test
    void restartRemembersTheNamespaces() {
        allocate(1, "team-b");
        allocate(1, "team-a");

        testKit.restart();
        var namespaces =
                testKit.<RevisionsProtocol.Namespaces>runCommand(
                        RevisionsProtocol.GetNamespaces::new);

        assertEquals(List.of("team-a", "team-b"), namespaces.reply().namespaces());
    }

    @Test
    void latestIsTheHighestVersionHandedOutEvenBeforeItIsCommitted() {
        long a = allocate(2, "team-a").reply().first();
        long b = allocate(1, "team-b").reply().first();
        long c = allocate(1, "team-a").reply().first();
        assertEquals(
                c,
                latest(),
                "a write acknowledged through any node got its version before this question:"
                        + " Most Recent reads wait for everything handed out, whatever reports are still on their way");

        assertTrue(
                testKit.runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))))
                        .hasNoEvents());
        testKit.runCommand(new RevisionsProtocol.Abandoned(a));
        assertEquals(c, latest());

        testKit.runCommand(new RevisionsProtocol.Committed(c, List.of(event(c))));
        assertEquals(c, latest());
        long d = allocate(1, "team-b").reply().first();
        assertEquals(d, latest());
    }

    @Test
    void subscribersReceiveCommittedEventsInVersionOrder() {
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        testKit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage();
        assertEquals(
                List.of(),
                ack.events(),
                "the acknowledgement names the epoch and the version released so far");
        long a = allocate(1, "team-a").reply().first();
        long b = allocate(1, "team-b").reply().first();
        assertEquals(a - 1, ack.upTo());
        testKit.runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));
        RevisionsProtocol.Published first = reader.receiveMessage();
        assertEquals(
                List.of(), first.events(), "nothing may go out before the lower version resolves");
        testKit.runCommand(new RevisionsProtocol.Committed(a, List.of(event(a))));
        RevisionsProtocol.Published second = reader.receiveMessage();
        assertEquals(
                List.of(a, b),
                second.events().stream().map(PublishedEvent::resourceVersion).toList());
        assertEquals(b, second.upTo());
    }

    @Test
    void quietSubscribersGetAHeartbeatEveryTick() {
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        testKit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage();
        testKit.runCommand(RevisionsProtocol.CheckOverdue.INSTANCE);
        RevisionsProtocol.Published heartbeat = reader.receiveMessage();
        assertEquals(ack.epoch(), heartbeat.epoch());
        assertEquals(ack.upTo(), heartbeat.upTo());
        assertEquals(List.of(), heartbeat.events());
    }

    @Test
    void aLateCommitOfAnEarlierIncarnationStartsANewEpoch() {
        long inherited = allocate(1, "team-a").reply().first();
        testKit.restart();
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        testKit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage();
        assertTrue(
                ack.upTo() >= inherited,
                "the new incarnation starts above everything it may have handed out");

        // The earlier incarnation's allocation is persisted now: it cannot be published in order.
        testKit.runCommand(new RevisionsProtocol.Committed(inherited, List.of(event(inherited))));
        RevisionsProtocol.Published next = reader.receiveMessage();
        assertNotEquals(ack.epoch(), next.epoch(), "readers must rebuild from the collections");
        assertEquals(List.of(), next.events());

        long fresh = allocate(1, "team-a").reply().first();
        testKit.runCommand(new RevisionsProtocol.Committed(fresh, List.of(event(fresh))));
        RevisionsProtocol.Published later = reader.receiveMessage();
        assertEquals(next.epoch(), later.epoch());
        assertEquals(
                List.of(fresh),
                later.events().stream().map(PublishedEvent::resourceVersion).toList());
    }

    // ---- overdue allocations (ordering protocol, point 3) ----

    /** A sequencer on a manual clock whose collections are probes, one per namespace. */
    private record Resolving(
            EventSourcedBehaviorTestKit<RevisionsProtocol.Command, RevisionsEvent, RevisionsState>
                    kit,
            ManualClock clock,
            Map<String, TestProbe<CollectionProtocol.Command>> collections,
            TestProbe<RevisionsProtocol.Published> reader) {

        long allocate(int count, String namespace, long requestId) {
            return kit.<RevisionsProtocol.Allocated>runCommand(
                            r -> new RevisionsProtocol.Allocate(count, namespace, requestId, r))
                    .reply()
                    .first();
        }

        /**
         * The next batch that is not a heartbeat of {@code epoch} (the real timer may add those at
         * any time).
         */
        RevisionsProtocol.Published next(String epoch) {
            while (true) {
                RevisionsProtocol.Published p = reader.receiveMessage();
                if (!p.events().isEmpty() || !p.epoch().equals(epoch)) {
                    return p;
                }
            }
        }
    }

    private Resolving resolving(String... namespaces) {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        Map<String, TestProbe<CollectionProtocol.Command>> probes = new HashMap<>();
        for (String ns : namespaces) {
            probes.put(ns, actorTestKit.createTestProbe());
        }
        GroupResource gr =
                new GroupResource(
                        "test.kubepekko.io", "resolving" + GROUP_RESOURCES.incrementAndGet());
        var kit =
                EventSourcedBehaviorTestKit
                        .<RevisionsProtocol.Command, RevisionsEvent, RevisionsState>create(
                                actorTestKit.system(),
                                Revisions.create(
                                        gr,
                                        clock,
                                        ns -> probes.containsKey(ns) ? probes.get(ns).ref() : null,
                                        address -> false),
                                EventSourcedBehaviorTestKit.enabledSerializationSettings());
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        kit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        return new Resolving(kit, clock, probes, reader);
    }

    @Test
    void anOverdueAllocationIsAskedOfTheCollectionHoldingIt() {
        Resolving r = resolving("team-a", "team-b");
        long a = r.allocate(2, "team-a", 7);
        r.allocate(1, "team-b", 8);
        r.kit().runCommand(new RevisionsProtocol.Committed(a + 2, List.of(event(a + 2))));

        r.kit().runCommand(RevisionsProtocol.CheckOverdue.INSTANCE);
        r.collections().get("team-a").expectNoMessage(Duration.ofMillis(100));

        r.clock().advance(Revisions.ASK_AFTER.plusSeconds(1));
        r.kit().runCommand(RevisionsProtocol.CheckOverdue.INSTANCE);
        CollectionProtocol.Resolve asked =
                (CollectionProtocol.Resolve) r.collections().get("team-a").receiveMessage();
        assertEquals(
                List.of(a, a + 1, 7L), List.of(asked.first(), asked.last(), asked.requestId()));
        r.collections().get("team-b").expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void anAllocationNeverPersistedIsReleasedInTheSameEpoch() {
        Resolving r = resolving("team-a", "team-b");
        String epoch = r.reader().receiveMessage().epoch();
        long a = r.allocate(1, "team-a", 1);
        long b = r.allocate(1, "team-b", 2);
        r.kit().runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));

        r.kit()
                .runCommand(
                        new RevisionsProtocol.Resolved(
                                a, RevisionsProtocol.Resolution.NOT_PERSISTED));

        RevisionsProtocol.Published out = r.next(epoch);
        assertEquals(epoch, out.epoch(), "nothing was lost: readers go on");
        assertEquals(
                List.of(b), out.events().stream().map(PublishedEvent::resourceVersion).toList());
        assertEquals(b, out.upTo());
    }

    @Test
    void anAllocationThatMayHaveBeenPersistedStartsANewEpoch() {
        Resolving r = resolving("team-a", "team-b");
        String epoch = r.reader().receiveMessage().epoch();
        long a = r.allocate(1, "team-a", 1);
        long b = r.allocate(1, "team-b", 2);
        r.kit().runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));

        r.kit().runCommand(new RevisionsProtocol.Resolved(a, RevisionsProtocol.Resolution.UNKNOWN));

        RevisionsProtocol.Published released = r.next(epoch);
        assertEquals(
                List.of(b),
                released.events().stream().map(PublishedEvent::resourceVersion).toList());
        RevisionsProtocol.Published rebuild = r.next(epoch);
        assertNotEquals(
                epoch, rebuild.epoch(), "the journal may hold version " + a + ": readers rebuild");
        assertEquals(b, rebuild.upTo());
    }

    @Test
    void anAllocationNobodyResolvesIsGivenUpWithANewEpochAndALateCommitStartsAnother() {
        Resolving r = resolving("team-a");
        String epoch = r.reader().receiveMessage().epoch();
        long a = r.allocate(1, "team-a", 1);
        long b = r.allocate(1, "team-a", 2);
        r.kit().runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));

        r.clock().advance(Revisions.RESOLVE_DEADLINE.plusSeconds(1));
        r.kit().runCommand(RevisionsProtocol.CheckOverdue.INSTANCE);

        RevisionsProtocol.Published released = r.next(epoch);
        assertEquals(
                List.of(b),
                released.events().stream().map(PublishedEvent::resourceVersion).toList());
        RevisionsProtocol.Published rebuild = r.next(epoch);
        assertNotEquals(epoch, rebuild.epoch());

        r.kit().runCommand(new RevisionsProtocol.Committed(a, List.of(event(a))));
        RevisionsProtocol.Published again = r.next(rebuild.epoch());
        assertNotEquals(
                rebuild.epoch(),
                again.epoch(),
                "version " + a + " was persisted after all: rebuild again");
        assertEquals(List.of(), again.events());

        long c = r.allocate(1, "team-a", 3);
        r.kit().runCommand(new RevisionsProtocol.Committed(c, List.of(event(c))));
        RevisionsProtocol.Published live = r.next(again.epoch());
        assertEquals(again.epoch(), live.epoch());
        assertEquals(
                List.of(c), live.events().stream().map(PublishedEvent::resourceVersion).toList());
    }

    @Test
    void anAnswerAfterTheReportChangesNothing() {
        Resolving r = resolving("team-a");
        String epoch = r.reader().receiveMessage().epoch();
        long a = r.allocate(1, "team-a", 1);
        r.kit().runCommand(new RevisionsProtocol.Committed(a, List.of(event(a))));
        assertEquals(
                List.of(a),
                r.next(epoch).events().stream().map(PublishedEvent::resourceVersion).toList());

        r.kit().runCommand(new RevisionsProtocol.Resolved(a, RevisionsProtocol.Resolution.UNKNOWN));
        long b = r.allocate(1, "team-a", 2);
        r.kit().runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));
        RevisionsProtocol.Published next = r.next(epoch);
        assertEquals(epoch, next.epoch(), "a stale answer must not force readers to rebuild");
        assertEquals(
                List.of(b), next.events().stream().map(PublishedEvent::resourceVersion).toList());
    }

    @Test
    void consecutiveBatchesChainSoThatALostOneIsNoticed() {
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        testKit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage();
        assertEquals(ack.upTo(), ack.after());
        long a = allocate(1, "team-a").reply().first();
        long b = allocate(1, "team-a").reply().first();
        testKit.runCommand(new RevisionsProtocol.Abandoned(a));
        testKit.runCommand(new RevisionsProtocol.Committed(b, List.of(event(b))));
        RevisionsProtocol.Published first = nextProgress(reader);
        RevisionsProtocol.Published second = nextProgress(reader);
        assertEquals(
                List.of(ack.upTo(), a),
                List.of(first.after(), first.upTo()),
                "the abandoned version alone");
        assertEquals(List.of(a, b), List.of(second.after(), second.upTo()));
    }

    // ---- orderly hand-over (sharding moves the entity) ----

    /**
     * Revisions spawned directly (it stops itself on hand-over, which the behaviour test kit cannot
     * follow), one incarnation after another on the same persistence id.
     */
    private final class Incarnations {
        final GroupResource gr =
                new GroupResource(
                        "test.kubepekko.io", "handover" + GROUP_RESOURCES.incrementAndGet());
        final PersistenceTestKit journal = PersistenceTestKit.create(actorTestKit.system());
        ActorRef<RevisionsProtocol.Command> current = actorTestKit.spawn(Revisions.create(gr));

        void next() {
            current = actorTestKit.spawn(Revisions.create(gr));
        }

        long allocate(int count) {
            TestProbe<RevisionsProtocol.Allocated> r = actorTestKit.createTestProbe();
            current.tell(new RevisionsProtocol.Allocate(count, "team-a", 0, r.ref()));
            return r.receiveMessage().first();
        }

        void awaitStopped() {
            actorTestKit.createTestProbe().expectTerminated(current);
        }

        List<Object> events() {
            return journal.persistedInStorage(PersistenceId.of("Revisions", gr.toString()).id());
        }
    }

    @Test
    void anOrderlyHandOverKeepsTheEpochAndItsReaders() {
        Incarnations r = new Incarnations();
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        r.current.tell(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage();
        long a = r.allocate(1);
        r.current.tell(new RevisionsProtocol.Committed(a, List.of(event(a))));
        assertEquals(
                List.of(a),
                nextProgress(reader).events().stream()
                        .map(PublishedEvent::resourceVersion)
                        .toList());

        r.current.tell(RevisionsProtocol.HandOver.INSTANCE);
        r.awaitStopped();
        RevisionsEvent.HandedOver recorded =
                assertInstanceOf(
                        RevisionsEvent.HandedOver.class, r.events().get(r.events().size() - 1));
        assertEquals(List.of(ack.epoch(), a), List.of(recorded.epoch(), recorded.sentUpTo()));
        assertEquals(List.of(reader.ref()), recorded.subscribers());

        r.next();
        RevisionsProtocol.Published resumed = nextProgress(reader);
        assertEquals(ack.epoch(), resumed.epoch(), "the successor carries on with the same stream");
        assertEquals(a, resumed.after(), "following on from the last batch its readers got");
        long b = r.allocate(1);
        assertTrue(b > resumed.upTo());
        r.current.tell(new RevisionsProtocol.Committed(b, List.of(event(b))));
        RevisionsProtocol.Published next = nextProgress(reader);
        assertEquals(
                List.of(ack.epoch(), resumed.upTo(), b),
                List.of(next.epoch(), next.after(), next.upTo()));
        assertEquals(
                List.of(b), next.events().stream().map(PublishedEvent::resourceVersion).toList());
    }

    @Test
    void aHandOverWaitsForWhatIsInFlightAndSendsNewRequestsToTheSuccessor() {
        Incarnations r = new Incarnations();
        long a = r.allocate(1);

        r.current.tell(RevisionsProtocol.HandOver.INSTANCE);
        assertEquals(
                RevisionsProtocol.Allocated.MOVING,
                r.allocate(1),
                "asked again through sharding, to the successor");
        assertTrue(
                r.events().stream().noneMatch(RevisionsEvent.HandedOver.class::isInstance),
                a + " is in flight");

        r.current.tell(new RevisionsProtocol.Committed(a, List.of(event(a))));
        r.awaitStopped();
        assertInstanceOf(RevisionsEvent.HandedOver.class, r.events().get(r.events().size() - 1));
    }

    @Test
    void aCrashAfterAHandOverIsANewEpochAgain() {
        Incarnations r = new Incarnations();
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        r.current.tell(new RevisionsProtocol.Subscribe(reader.ref()));
        String epoch = reader.receiveMessage().epoch();
        r.current.tell(RevisionsProtocol.HandOver.INSTANCE);
        r.awaitStopped();
        r.next();
        r.allocate(Math.toIntExact(Revisions.BLOCK + 1)); // a new block: the hand-over is history
        actorTestKit.stop(r.current); // not a hand-over: as if its node died
        r.next();

        TestProbe<RevisionsProtocol.Published> later = actorTestKit.createTestProbe();
        r.current.tell(new RevisionsProtocol.Subscribe(later.ref()));
        assertNotEquals(epoch, later.receiveMessage().epoch());
    }

    // ---- journal failures: Pekko restarts the entity's behaviour (and cancels the actor's timers)
    // ----

    @Test
    void aHandOverWhoseRecordFailsToPersistIsRecordedOnceTheJournalWorksAndTheSuccessorCarriesOn() {
        Incarnations r = new Incarnations();
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        r.current.tell(new RevisionsProtocol.Subscribe(reader.ref()));
        reader.receiveMessage();
        long a = r.allocate(1);
        r.current.tell(RevisionsProtocol.HandOver.INSTANCE);

        // Settled: it persists HandedOver, which the storage refuses (Cassandra went down
        // meanwhile).
        r.journal.failNextPersisted(PersistenceId.of("Revisions", r.gr.toString()).id());
        r.current.tell(new RevisionsProtocol.Committed(a, List.of(event(a))));

        // Nothing else is sent to it: it must try again by itself (else sharding's hand-off timeout
        // stops it
        // unrecorded, and its successor has no tick either, see below).
        actorTestKit.createTestProbe().expectTerminated(r.current, Duration.ofSeconds(15));
        RevisionsEvent.HandedOver recorded =
                assertInstanceOf(
                        RevisionsEvent.HandedOver.class, r.events().get(r.events().size() - 1));

        assertEquals(
                List.of(a),
                nextWithEvents(reader).events().stream()
                        .map(PublishedEvent::resourceVersion)
                        .toList());

        r.next();
        long b = r.allocate(1);
        r.current.tell(new RevisionsProtocol.Committed(b, List.of(event(b))));
        RevisionsProtocol.Published next = nextWithEvents(reader);
        assertEquals(
                List.of(b), next.events().stream().map(PublishedEvent::resourceVersion).toList());
        assertEquals(
                recorded.epoch(),
                next.epoch(),
                "the successor carries on with the stream the hand-over recorded");
    }

    @Test
    void aSequencerWhoseRecoveryFailedStillHeartbeatsAndGivesUpWhatNobodyResolves() {
        GroupResource gr =
                new GroupResource(
                        "test.kubepekko.io", "recovering" + GROUP_RESOURCES.incrementAndGet());
        String pid = PersistenceId.of("Revisions", gr.toString()).id();
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        TestProbe<CollectionProtocol.Command> collection = actorTestKit.createTestProbe();
        // The storage is down when sharding starts it: its first recovery fails (in the report, the
        // Cassandra
        // snapshot store's "Circuit Breaker is open"), and Pekko restarts it with back-off.
        SnapshotTestKit.create(actorTestKit.system()).failNextRead(pid);
        ActorRef<RevisionsProtocol.Command> revisions =
                actorTestKit.spawn(
                        Revisions.create(gr, clock, ns -> collection.ref(), address -> false));
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        revisions.tell(new RevisionsProtocol.Subscribe(reader.ref()));
        RevisionsProtocol.Published ack = reader.receiveMessage(Duration.ofSeconds(10));

        RevisionsProtocol.Published heartbeat = reader.receiveMessage(Duration.ofSeconds(5));
        assertEquals(
                List.of(ack.epoch(), ack.upTo()),
                List.of(heartbeat.epoch(), heartbeat.upTo()),
                "quiet readers hear it every second, or they subscribe again and again");

        // A write whose report is lost (its collection's journal write timed out with the storage
        // down).
        TestProbe<RevisionsProtocol.Allocated> writer = actorTestKit.createTestProbe();
        revisions.tell(new RevisionsProtocol.Allocate(1, "team-a", 1, writer.ref()));
        long lost = writer.receiveMessage().first();
        clock.advance(Revisions.ASK_AFTER.plusSeconds(1));
        CollectionProtocol.Resolve asked =
                (CollectionProtocol.Resolve)
                        collection
                                .fishForMessage(
                                        Duration.ofSeconds(5),
                                        m ->
                                                m instanceof CollectionProtocol.Resolve
                                                        ? FishingOutcomes.complete()
                                                        : FishingOutcomes.continueAndIgnore())
                                .get(0);
        assertEquals(lost, asked.first());

        clock.advance(Revisions.RESOLVE_DEADLINE);
        RevisionsProtocol.Published out =
                reader.fishForMessage(
                                Duration.ofSeconds(10),
                                p ->
                                        p.epoch().equals(ack.epoch())
                                                ? FishingOutcomes.continueAndIgnore()
                                                : FishingOutcomes.complete())
                        .get(0);
        assertEquals(
                lost,
                out.upTo(),
                "given up: the stream moves on past the lost version in a new epoch"
                        + " (readers rebuild from the collections), it never waits for it for good");
    }

    /** The next batch with events, skipping heartbeats. */
    private static RevisionsProtocol.Published nextWithEvents(
            TestProbe<RevisionsProtocol.Published> reader) {
        while (true) {
            RevisionsProtocol.Published p = reader.receiveMessage(Duration.ofSeconds(10));
            if (!p.events().isEmpty()) {
                return p;
            }
        }
    }

    /** The next batch that moves the stream on, skipping the real timer's heartbeats. */
    private static RevisionsProtocol.Published nextProgress(
            TestProbe<RevisionsProtocol.Published> reader) {
        while (true) {
            RevisionsProtocol.Published p = reader.receiveMessage();
            if (!p.events().isEmpty() || p.upTo() != p.after()) {
                return p;
            }
        }
    }

    @Test
    void aCommitReportedInPartsIsPublishedOnceComplete() {
        TestProbe<RevisionsProtocol.Published> reader = actorTestKit.createTestProbe();
        testKit.runCommand(new RevisionsProtocol.Subscribe(reader.ref()));
        reader.receiveMessage();
        long a = allocate(3, "team-a").reply().first();
        byte[] big = new byte[1000];
        List<PublishedEvent> events =
                List.of(
                        new PublishedEvent(a, "team-a", "x", WatchEvent.Type.ADDED, big, null),
                        new PublishedEvent(a + 1, "team-a", "y", WatchEvent.Type.ADDED, big, null),
                        new PublishedEvent(a + 2, "team-a", "z", WatchEvent.Type.ADDED, big, null));
        List<RevisionsProtocol.Committed> parts =
                RevisionsProtocol.Committed.parts(a, events, 1500);
        assertEquals(
                List.of(true, true, false),
                parts.stream().map(RevisionsProtocol.Committed::more).toList());

        testKit.runCommand(parts.get(0));
        testKit.runCommand(parts.get(1));
        assertEquals(
                a + 2,
                latest(),
                "handed out, though not completely reported: Most Recent reads wait for it");
        testKit.runCommand(parts.get(2));

        RevisionsProtocol.Published out = nextProgress(reader);
        assertEquals(
                List.of(a, a + 1, a + 2),
                out.events().stream().map(PublishedEvent::resourceVersion).toList());
    }

    @Test
    void aLargeReleaseIsSplitIntoChainedMessagesOfBoundedSize() {
        byte[] big = new byte[RevisionsProtocol.Published.CHUNK_BYTES / 3];
        List<PublishedEvent> released = new ArrayList<>();
        for (long rv = 11; rv <= 17; rv++) {
            released.add(
                    new PublishedEvent(rv, "team-a", "o" + rv, WatchEvent.Type.MODIFIED, big, big));
        }

        List<RevisionsProtocol.Published> chunks =
                RevisionsProtocol.Published.chunks("e", 10, 20, released);

        assertEquals(
                List.of(10L, 11L, 12L, 13L, 14L, 15L, 16L),
                chunks.stream().map(RevisionsProtocol.Published::after).toList());
        assertEquals(
                List.of(11L, 12L, 13L, 14L, 15L, 16L, 20L),
                chunks.stream().map(RevisionsProtocol.Published::upTo).toList(),
                "two thirds of a chunk each: one event per message; the last one reaches the batch's end");
        assertEquals(released, chunks.stream().flatMap(c -> c.events().stream()).toList());

        List<RevisionsProtocol.Published> small =
                RevisionsProtocol.Published.chunks("e", 10, 20, List.of(event(11), event(12)));
        assertEquals(1, small.size());
        assertEquals(List.of(10L, 20L), List.of(small.get(0).after(), small.get(0).upTo()));
    }

    private static PublishedEvent event(long rv) {
        return new PublishedEvent(
                rv, "team-a", "o" + rv, WatchEvent.Type.ADDED, new byte[] {'{', '}'}, null);
    }

    @Test
    void latestAfterRestartCoversEverythingThePreviousIncarnationMayHaveCommitted() {
        long first = allocate(5, "team-a").reply().first();
        testKit.runCommand(new RevisionsProtocol.Committed(first, List.of()));

        testKit.restart();

        assertEquals(testKit.getState().reservedUpTo(), latest());
    }

    @Test
    void namespacesAreListedSortedAndOnce() {
        for (String ns : List.of("zeta", "alpha", "", "mid", "alpha")) {
            allocate(1, ns);
        }

        var namespaces =
                testKit.<RevisionsProtocol.Namespaces>runCommand(
                        RevisionsProtocol.GetNamespaces::new);

        assertEquals(List.of("", "alpha", "mid", "zeta"), namespaces.reply().namespaces());
        assertTrue(namespaces.hasNoEvents());
    }

    @Test
    void recoversFromTheSnapshotAndTheEventsAfterIt() {
        for (int i = 0; i < 120; i++) {
            allocate(1, String.format("ns-%03d", i));
        }
        // One BlockReserved and 120 CollectionAdded: the snapshot is taken at 100, 21 events follow
        // it.
        RevisionsState before = testKit.getState();
        var snapshots = testKit.snapshotTestKit().orElseThrow().persistedInStorage(persistenceId);
        assertEquals(List.of(100L), snapshots.stream().map(s -> s.first().sequenceNr()).toList());

        ReplayedEvents replayed =
                ReplayedEvents.recordOn(testKit.persistenceTestKit(), persistenceId);
        var restarted = testKit.restart();

        assertEquals(21, replayed.count());
        assertEquals(before.reservedUpTo(), restarted.state().reservedUpTo());
        assertEquals(before.namespaces(), restarted.state().namespaces());
        assertEquals(120, restarted.state().namespaces().size());
    }
}
