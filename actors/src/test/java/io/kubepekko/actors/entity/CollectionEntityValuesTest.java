package io.kubepekko.actors.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.allocation.AllocatorProtocol;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.Refusal;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link CollectionEntity} of a kind that holds cluster-wide values (Services), with a {@link
 * TestProbe} standing in for the {@link ValueAllocator}: what a batch claims, how grants and
 * refusals reach the writers, and that the claim is settled before anyone is answered.
 */
class CollectionEntityValuesTest {

    private static final ResourceType SERVICES =
            Registry.builtin().find(new GroupResource("", "services")).orElseThrow();
    private static final AtomicInteger N = new AtomicInteger();
    private static final String IP = ServiceNetwork.CLUSTER_IPS + "/10.0.0.7";

    private static ActorTestKit kit;
    private static PersistenceTestKit journal;

    private ActorRef<RevisionsProtocol.Command> revisions;
    private ActorRef<CollectionProtocol.Command> entity;
    private TestProbe<AllocatorProtocol.Command> allocator;
    private TestProbe<WriteResult> writer;
    private CollectionId id;

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
    void spawn() {
        int n = N.incrementAndGet();
        id = new CollectionId(SERVICES.groupResource(), "team-" + n);
        revisions =
                kit.spawn(Revisions.create(new GroupResource("test.kubepekko.io", "values" + n)));
        allocator = kit.createTestProbe();
        writer = kit.createTestProbe();
        entity =
                kit.spawn(
                        CollectionEntity.create(
                                id,
                                SERVICES,
                                new ObjectWrites(ObjectWrites.FieldPruner.NONE),
                                new Environment(
                                        Clock.systemUTC(),
                                        () -> "uid-" + N.incrementAndGet(),
                                        () -> "x"),
                                revisions,
                                new CommittedObjects(),
                                allocator.ref()));
    }

    @AfterEach
    void stop() {
        kit.stop(entity);
        kit.stop(revisions);
    }

    private String persistenceId() {
        return PersistenceId.of("Collection", id.entityId()).id();
    }

    private static ObjectNode service(String name) {
        return Json.parseTrusted(
                ("{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                                + name
                                + "'},'spec':{'ports':[{'port':80}]}}")
                        .replace('\'', '"')
                        .getBytes());
    }

    private void write(WriteOp op) {
        entity.tell(new CollectionProtocol.Write(op, writer.ref()));
    }

    private AllocatorProtocol.Claim expectClaim() {
        return assertInstanceOf(AllocatorProtocol.Claim.class, allocator.receiveMessage());
    }

    private WriteResult.Success createGranted(String name) {
        write(new WriteOp.Create(service(name), WriteOptions.DEFAULT));
        AllocatorProtocol.Claim claim = expectClaim();
        claim.replyTo()
                .tell(
                        new AllocatorProtocol.Claimed(
                                claim.claimId(),
                                List.of(ClaimResult.granted(List.of("10.0.0.7"))),
                                null));
        allocator.expectMessage(
                new AllocatorProtocol.Settle(id.entityId(), claim.claimId(), List.of()));
        return assertInstanceOf(WriteResult.Success.class, writer.receiveMessage());
    }

    @Test
    void aCreateClaimsItsValuesStoresTheGrantAndSettlesBeforeAnswering() {
        write(new WriteOp.Create(service("web"), WriteOptions.DEFAULT));
        AllocatorProtocol.Claim claim = expectClaim();
        assertEquals(id.entityId(), claim.collection());
        assertEquals(
                List.of(List.of(ValueRequest.any(ServiceNetwork.CLUSTER_IPS))), claim.writes());
        writer.expectNoMessage(Duration.ofMillis(100));
        claim.replyTo()
                .tell(
                        new AllocatorProtocol.Claimed(
                                claim.claimId(),
                                List.of(ClaimResult.granted(List.of("10.0.0.7"))),
                                null));
        WriteResult.Success written =
                assertInstanceOf(WriteResult.Success.class, writer.receiveMessage());
        allocator.expectMessage(
                new AllocatorProtocol.Settle(id.entityId(), claim.claimId(), List.of()));
        ObjectNode body = Json.parseTrusted(written.body());
        assertEquals("10.0.0.7", body.at("/spec/clusterIP").asText());
        assertEquals("[\"IPv4\"]", body.at("/spec/ipFamilies").toString());
        ObjectChanged event =
                journal.expectNextPersistedClass(persistenceId(), ObjectChanged.class);
        assertEquals("10.0.0.7", Json.parseTrusted(event.after()).at("/spec/clusterIP").asText());
    }

    @Test
    void aRefusedClaimAnswersKubernetesErrorAndStoresNothing() {
        write(new WriteOp.Create(service("web"), WriteOptions.DEFAULT));
        AllocatorProtocol.Claim claim = expectClaim();
        claim.replyTo()
                .tell(
                        new AllocatorProtocol.Claimed(
                                claim.claimId(),
                                List.of(
                                        ClaimResult.refused(
                                                0,
                                                new Refusal(Refusal.Reason.FULL, "range is full"))),
                                null));
        WriteResult.Refused refused =
                assertInstanceOf(WriteResult.Refused.class, writer.receiveMessage());
        assertEquals(500, refused.status().code());
        assertEquals(
                "Internal error occurred: failed to allocate a serviceIP: range is full",
                refused.status().message());
        journal.expectNothingPersisted(persistenceId(), Duration.ofMillis(200));
        allocator.expectNoMessage(Duration.ofMillis(100)); // nothing granted, nothing to settle
    }

    @Test
    void deleteReleasesTheValuesOnceTheRemovalIsPersisted() {
        createGranted("web");
        write(new WriteOp.Delete("web", null, WriteOptions.DEFAULT));
        allocator.expectMessage(new AllocatorProtocol.Settle(id.entityId(), null, List.of(IP)));
        assertInstanceOf(WriteResult.Success.class, writer.receiveMessage());
    }

    @Test
    void aStatusWriteClaimsNothing() {
        ObjectNode stored = Json.parseTrusted(createGranted("web").body());
        ObjectNode status = stored.deepCopy();
        ((ObjectNode) status.get("status"))
                .putObject("loadBalancer")
                .putArray("ingress")
                .addObject()
                .put("ip", "1.2.3.4");
        write(new WriteOp.Update("web", status, "status", WriteOptions.DEFAULT));
        assertInstanceOf(WriteResult.Success.class, writer.receiveMessage());
        allocator.expectNoMessage(Duration.ofMillis(100));
    }

    @Test
    void holdingsNameTheStoredValuesAndTheClaimInFlight() {
        createGranted("web");
        write(new WriteOp.Create(service("api"), WriteOptions.DEFAULT));
        AllocatorProtocol.Claim inFlight = expectClaim();
        TestProbe<CollectionProtocol.Holdings> holdings = kit.createTestProbe();
        entity.tell(new CollectionProtocol.ReportHoldings(holdings.ref()));
        assertEquals(
                new CollectionProtocol.Holdings(List.of(IP), List.of(inFlight.claimId())),
                holdings.receiveMessage());
    }

    @Test
    void aClaimAnsweredTooLateIsAbandoned() {
        write(new WriteOp.Create(service("web"), WriteOptions.DEFAULT));
        AllocatorProtocol.Claim claim = expectClaim();
        entity.tell(new CollectionProtocol.ClaimTimedOut(claim.claimId()));
        assertEquals(
                503,
                assertInstanceOf(WriteResult.Refused.class, writer.receiveMessage())
                        .status()
                        .code());
        allocator.expectMessage(new AllocatorProtocol.Abandon(id.entityId(), claim.claimId()));
        claim.replyTo()
                .tell(
                        new AllocatorProtocol.Claimed(
                                claim.claimId(),
                                List.of(ClaimResult.granted(List.of("10.0.0.7"))),
                                null));
        allocator.expectMessage(new AllocatorProtocol.Abandon(id.entityId(), claim.claimId()));
    }

    @Test
    void aDryRunIsEvaluatedNotClaimedAndStoresNothing() {
        write(
                new WriteOp.Create(
                        service("web"), new WriteOptions(true, null, FieldValidation.WARN)));
        AllocatorProtocol.Claim claim = expectClaim();
        assertTrue(claim.dryRun());
        claim.replyTo()
                .tell(
                        new AllocatorProtocol.Claimed(
                                claim.claimId(),
                                List.of(ClaimResult.granted(List.of("10.0.0.0"))),
                                null));
        WriteResult.Success written =
                assertInstanceOf(WriteResult.Success.class, writer.receiveMessage());
        assertEquals("10.0.0.0", Json.parseTrusted(written.body()).at("/spec/clusterIP").asText());
        journal.expectNothingPersisted(persistenceId(), Duration.ofMillis(200));
        allocator.expectNoMessage(Duration.ofMillis(100));
    }
}
