package io.kubepekko.actors.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.Refusal;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.testsupport.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ValueAllocator} on the in-memory persistence test kit: claims are durable before they are
 * answered, restarts reconcile against the collections (a {@link TestProbe} answers for them), and
 * dry runs record nothing.
 */
class ValueAllocatorTest {

    private static final String IPS = ServiceNetwork.CLUSTER_IPS;
    private static final String PORTS = ServiceNetwork.NODE_PORTS;
    private static final String TEAM_A = "/services/team-a";
    private static final String TEAM_B = "/services/team-b";
    private static final AtomicInteger NAMES = new AtomicInteger();

    private static ActorTestKit kit;
    private static PersistenceTestKit journal;

    private String name;
    private TestProbe<CollectionProtocol.Command> collections;
    private TestProbe<AllocatorProtocol.Claimed> replies;

    @BeforeAll
    static void startSystem() {
        kit = ActorTestKit.create(EventSourcedBehaviorTestKit.config());
        journal = PersistenceTestKit.create(kit.system());
    }

    @AfterAll
    static void stopSystem() {
        kit.shutdownTestKit();
    }

    @BeforeEach
    void names() {
        name = "allocator-" + NAMES.incrementAndGet();
        collections = kit.createTestProbe();
        replies = kit.createTestProbe();
    }

    /** An allocator whose collections are the probe, reconciling against no sequencer. */
    private ActorRef<AllocatorProtocol.Command> spawn() {
        return kit.spawn(
                ValueAllocator.create(
                        name,
                        ServiceNetwork.defaultPools(),
                        new ValueAllocator.Directory(
                                List.<GroupResource>of(), gr -> null, c -> collections.ref()),
                        Clock.systemUTC(),
                        new Random(11)));
    }

    private ClaimResult claim(
            ActorRef<AllocatorProtocol.Command> allocator,
            String collection,
            String claimId,
            ValueRequest... requests) {
        allocator.tell(
                new AllocatorProtocol.Claim(
                        collection, claimId, List.of(List.of(requests)), false, replies.ref()));
        AllocatorProtocol.Claimed reply = replies.receiveMessage();
        assertEquals(claimId, reply.claimId());
        return reply.results().get(0);
    }

    /** Answers the allocator's question to one collection, as the collection would. */
    private void report(List<String> held, List<String> inFlight) {
        CollectionProtocol.ReportHoldings ask =
                assertInstanceOf(
                        CollectionProtocol.ReportHoldings.class, collections.receiveMessage());
        ask.replyTo().tell(new CollectionProtocol.Holdings(held, inFlight));
    }

    private ActorRef<AllocatorProtocol.Command> restart(
            ActorRef<AllocatorProtocol.Command> allocator) {
        kit.stop(allocator);
        return spawn();
    }

    /**
     * A journal failure restarts the allocator, and a restart cancels the actor's timers: the tick
     * that asks about claims nobody settled must run again afterwards.
     */
    @Test
    void claimsLeftUnsettledAreStillAskedAboutAfterAJournalFailure() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        ActorRef<AllocatorProtocol.Command> allocator =
                kit.spawn(
                        ValueAllocator.create(
                                name,
                                ServiceNetwork.defaultPools(),
                                new ValueAllocator.Directory(
                                        List.<GroupResource>of(),
                                        gr -> null,
                                        c -> collections.ref()),
                                clock,
                                new Random(11)));
        journal.failNextPersisted("ValueAllocator|" + name);
        allocator.tell(
                new AllocatorProtocol.Claim(
                        TEAM_B,
                        "lost",
                        List.of(List.of(ValueRequest.any(IPS))),
                        false,
                        replies.ref()));
        // A claim sent while the allocator restarts may go unanswered (its writer's own deadline
        // covers that).
        AllocatorProtocol.Claimed kept = null;
        for (int attempt = 0; kept == null && attempt < 20; attempt++) {
            allocator.tell(
                    new AllocatorProtocol.Claim(
                            TEAM_A,
                            "c" + attempt,
                            List.of(List.of(ValueRequest.any(IPS))),
                            false,
                            replies.ref()));
            try {
                AllocatorProtocol.Claimed reply = replies.receiveMessage(Duration.ofMillis(500));
                kept = reply.claimId().equals("lost") ? null : reply;
            } catch (AssertionError noAnswerYet) {
                // try again
            }
        }
        assertTrue(
                kept != null && kept.results().get(0).isGranted(),
                "a claim after the restart: " + kept);

        clock.advance(ValueAllocator.PENDING_DEADLINE.plusSeconds(1));
        CollectionProtocol.ReportHoldings ask =
                assertInstanceOf(
                        CollectionProtocol.ReportHoldings.class,
                        collections.receiveMessage(ValueAllocator.TICK.multipliedBy(2)),
                        "the unsettled claim's collection is asked at the next tick");
        assertTrue(ask.replyTo() != null);
    }

    @Test
    void grantsEachValueOnceAndPersistsItBeforeAnswering() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        ClaimResult first =
                claim(
                        allocator,
                        TEAM_A,
                        "c1",
                        ValueRequest.specific(IPS, "10.0.0.5"),
                        ValueRequest.any(PORTS));
        assertTrue(first.isGranted());
        journal.expectNextPersisted(
                "ValueAllocator|" + name,
                new AllocatorEvent.ValuesClaimed(
                        TEAM_A,
                        "c1",
                        List.of(IPS + "/10.0.0.5", PORTS + "/" + first.granted().get(1))));

        ClaimResult again = claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.5"));
        assertEquals(
                new Refusal(Refusal.Reason.TAKEN, "provided IP is already allocated"),
                again.refusal());
        ClaimResult port =
                claim(
                        allocator,
                        TEAM_B,
                        "c3",
                        ValueRequest.any(IPS),
                        ValueRequest.specific(PORTS, first.granted().get(1)));
        assertFalse(port.isGranted());
        assertEquals(
                1,
                port.refusedIndex(),
                "all or nothing: the IP of the refused write is not kept either");
        ClaimResult any = claim(allocator, TEAM_B, "c4", ValueRequest.any(IPS));
        assertNotEquals("10.0.0.5", any.granted().get(0));
    }

    @Test
    void aSettledValueIsReleasedWhenItsObjectStopsHoldingIt() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator.tell(new AllocatorProtocol.Settle(TEAM_A, "c1", List.of()));
        assertFalse(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator.tell(new AllocatorProtocol.Settle(TEAM_B, null, List.of(IPS + "/10.0.0.5")));
        assertFalse(
                claim(allocator, TEAM_B, "c3", ValueRequest.specific(IPS, "10.0.0.5")).isGranted(),
                "only its owner releases a value");
        allocator.tell(new AllocatorProtocol.Settle(TEAM_A, null, List.of(IPS + "/10.0.0.5")));
        assertTrue(
                claim(allocator, TEAM_B, "c4", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
    }

    @Test
    void anAbandonedClaimFreesItsValues() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(PORTS, "30007")).isGranted());
        allocator.tell(new AllocatorProtocol.Abandon(TEAM_A, "c1"));
        assertTrue(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(PORTS, "30007")).isGranted());
    }

    @Test
    void afterARestartValuesHeldByObjectsStayTaken() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator.tell(new AllocatorProtocol.Settle(TEAM_A, "c1", List.of()));
        allocator = restart(allocator);
        allocator.tell(
                new AllocatorProtocol.Claim(
                        TEAM_B,
                        "c2",
                        List.of(List.of(ValueRequest.specific(IPS, "10.0.0.5"))),
                        false,
                        replies.ref()));
        replies.expectNoMessage(Duration.ofMillis(200)); // claims wait for the first reconciliation
        report(List.of(IPS + "/10.0.0.5"), List.of());
        assertEquals(
                Refusal.Reason.TAKEN, replies.receiveMessage().results().get(0).refusal().reason());
    }

    @Test
    void afterARestartAValueNoObjectHoldsIsReleased() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator = restart(allocator); // the settlement was lost: the collection never stored it
        report(List.of(), List.of());
        assertTrue(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
    }

    @Test
    void afterARestartAClaimStillInFlightStaysTakenUntilAbandoned() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator = restart(allocator);
        report(List.of(), List.of("c1"));
        assertFalse(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator.tell(new AllocatorProtocol.Abandon(TEAM_A, "c1"));
        assertTrue(
                claim(allocator, TEAM_B, "c3", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
    }

    @Test
    void aReportOlderThanTheCollectionsLastChangeIsAskedForAgain() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator = restart(allocator);
        CollectionProtocol.ReportHoldings ask =
                assertInstanceOf(
                        CollectionProtocol.ReportHoldings.class, collections.receiveMessage());
        // The collection's batch is persisted and settled after it answered "in flight, nothing
        // held".
        allocator.tell(new AllocatorProtocol.Settle(TEAM_A, "c1", List.of()));
        ask.replyTo().tell(new CollectionProtocol.Holdings(List.of(), List.of("c1")));
        report(List.of(IPS + "/10.0.0.5"), List.of()); // asked again: now it holds the value
        assertFalse(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
    }

    @Test
    void valuesStoredBeforeTheAllocatorKnewThemAreAdopted() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(IPS, "10.0.0.5")).isGranted());
        allocator = restart(allocator);
        report(List.of(IPS + "/10.0.0.5", IPS + "/10.0.0.6"), List.of());
        assertFalse(
                claim(allocator, TEAM_B, "c2", ValueRequest.specific(IPS, "10.0.0.6")).isGranted());
    }

    @Test
    void aDryRunShowsKubernetesPlaceholdersAndRecordsNothing() {
        ActorRef<AllocatorProtocol.Command> allocator = spawn();
        assertTrue(
                claim(allocator, TEAM_A, "c1", ValueRequest.specific(PORTS, "30001")).isGranted());
        journal.expectNextPersistedClass(
                "ValueAllocator|" + name, AllocatorEvent.ValuesClaimed.class);
        allocator.tell(
                new AllocatorProtocol.Claim(
                        TEAM_B,
                        "d1",
                        List.of(
                                List.of(ValueRequest.any(IPS), ValueRequest.any(PORTS)),
                                List.of(ValueRequest.specific(PORTS, "30001"))),
                        true,
                        replies.ref()));
        AllocatorProtocol.Claimed dry = replies.receiveMessage();
        assertEquals(List.of("10.0.0.0", "32769"), dry.results().get(0).granted());
        assertEquals(Refusal.Reason.TAKEN, dry.results().get(1).refusal().reason());
        journal.expectNothingPersisted("ValueAllocator|" + name, Duration.ofMillis(200));
    }
}
