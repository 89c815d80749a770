package io.kubepekko.actors.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A collection judges a user's write with its admission inside the write: with the object stored
 * when the write runs and the object the write leaves, so that nothing can change the object
 * between the judgment and the write.
 */
class CollectionAdmissionTest {

    private static final ResourceType CONFIG_MAPS =
            Registry.builtin().find(new GroupResource("", "configmaps")).orElseThrow();
    private static final UserInfo EVE = UserInfo.of("eve", List.of("system:authenticated"));
    private static final AtomicInteger COLLECTIONS = new AtomicInteger();

    private static ActorTestKit actorTestKit;

    /** What the admission was asked, in order. */
    private final List<AdmissionRequest> asked = new CopyOnWriteArrayList<>();

    /** Refuses eve any config map that would hold the key {@code secret}. */
    private final WriteAdmission noSecretsForEve =
            request -> {
                asked.add(request);
                ObjectNode obj = request.object();
                return request.user().name().equals("eve")
                                && obj != null
                                && obj.path("data").has("secret")
                        ? Optional.of(request.forbidden("eve may not hold secrets"))
                        : Optional.empty();
            };

    private final ObjectWrites writes =
            new ObjectWrites(
                    ObjectWrites.FieldPruner.NONE,
                    ObjectWrites.DEFAULT_MAX_OBJECT_BYTES,
                    noSecretsForEve);

    private CollectionId id;

    @BeforeAll
    static void startSystem() {
        actorTestKit = ActorTestKit.create(EventSourcedBehaviorTestKit.config());
    }

    @AfterAll
    static void stopSystem() {
        actorTestKit.shutdownTestKit();
    }

    @BeforeEach
    void freshCollection() {
        id = new CollectionId(CONFIG_MAPS.groupResource(), "adm-" + COLLECTIONS.incrementAndGet());
    }

    private static Environment environment() {
        AtomicInteger uids = new AtomicInteger();
        return new Environment(
                Clock.fixed(Instant.parse("2025-03-04T05:06:07Z"), ZoneOffset.UTC),
                () -> "uid-" + uids.incrementAndGet(),
                () -> "00001");
    }

    @Test
    void aUsersWriteIsJudgedWithItsUserAndARefusalStoresNothing() {
        ActorRef<RevisionsProtocol.Command> revisions =
                actorTestKit.spawn(
                        Revisions.create(
                                new GroupResource(
                                        "test.kubepekko.io", "revisions-" + id.namespace())));
        EventSourcedBehaviorTestKit<CollectionProtocol.Command, CollectionEvent, CollectionState>
                testKit =
                        EventSourcedBehaviorTestKit.create(
                                actorTestKit.system(),
                                CollectionEntity.create(
                                        id, CONFIG_MAPS, writes, environment(), revisions),
                                EventSourcedBehaviorTestKit.enabledSerializationSettings());

        var refused =
                testKit.<WriteResult>runCommand(
                        (ActorRef<WriteResult> r) ->
                                new CollectionProtocol.Write(
                                        create(configMap("a", "secret", "x")), EVE, r));
        ApiStatus status = assertInstanceOf(WriteResult.Refused.class, refused.reply()).status();
        assertEquals(403, status.code());
        assertEquals("configmaps \"a\" is forbidden: eve may not hold secrets", status.message());
        assertTrue(refused.events().isEmpty());
        assertEquals(EVE, asked.get(0).user(), "the user reached the admission");
        assertEquals(Operation.CREATE, asked.get(0).operation());

        var own =
                testKit.<WriteResult>runCommand(
                        (ActorRef<WriteResult> r) ->
                                new CollectionProtocol.Write(
                                        create(configMap("a", "secret", "x")), r));
        assertInstanceOf(WriteResult.Created.class, own.reply());
        assertEquals(1, asked.size(), "the server's own write is not asked");
        actorTestKit.stop(revisions);
    }

    /**
     * The race a dry run before the write loses: eve's patch is harmless on the object she read,
     * but a write queued before hers adds a secret. Her patch runs on the object that write left,
     * and is judged by that result.
     */
    @Test
    void aPatchIsJudgedByItsResultOnTheObjectStoredWhenItRuns() {
        TestProbe<RevisionsProtocol.Command> revisionsProbe = actorTestKit.createTestProbe();
        ActorRef<CollectionProtocol.Command> entity =
                actorTestKit.spawn(
                        CollectionEntity.create(
                                id,
                                CONFIG_MAPS,
                                writes,
                                environment(),
                                revisionsProbe.ref(),
                                new CommittedObjects(),
                                null,
                                StorageQuota.unlimited()));
        TestProbe<WriteResult> created = actorTestKit.createTestProbe();
        TestProbe<WriteResult> widened = actorTestKit.createTestProbe();
        TestProbe<WriteResult> labelled = actorTestKit.createTestProbe();
        entity.tell(new CollectionProtocol.Write(create(configMap("a", "k", "1")), created.ref()));
        ObjectNode secret = configMap("a", "k", "1");
        ((ObjectNode) secret.path("data")).put("secret", "x");
        entity.tell(
                new CollectionProtocol.Write(
                        new WriteOp.Update("a", secret, null, WriteOptions.DEFAULT),
                        widened.ref()));
        entity.tell(
                new CollectionProtocol.Write(
                        new WriteOp.Patch(
                                "a",
                                PatchType.MERGE_PATCH,
                                "{\"metadata\":{\"labels\":{\"by\":\"eve\"}}}"
                                        .getBytes(StandardCharsets.UTF_8),
                                null,
                                WriteOptions.DEFAULT),
                        EVE,
                        labelled.ref()));
        allocate(revisionsProbe, 2); // eve's patch, refused, needs none

        assertInstanceOf(WriteResult.Created.class, created.receiveMessage());
        assertInstanceOf(WriteResult.Updated.class, widened.receiveMessage());
        WriteResult refused = labelled.receiveMessage();
        assertEquals(403, assertInstanceOf(WriteResult.Refused.class, refused).status().code());
        AdmissionRequest judged = asked.get(asked.size() - 1);
        assertEquals(Operation.UPDATE, judged.operation());
        assertEquals("x", judged.oldObject().path("data").path("secret").asText());
        assertEquals("eve", ObjectMeta.labels(judged.object()).get("by"));
    }

    /** Answers allocations with consecutive versions until {@code total} are handed out. */
    private static void allocate(TestProbe<RevisionsProtocol.Command> probe, int total) {
        long next = 1;
        while (next <= total) {
            RevisionsProtocol.Command c = probe.receiveMessage();
            if (c instanceof RevisionsProtocol.Allocate allocate) {
                allocate.replyTo()
                        .tell(
                                new RevisionsProtocol.Allocated(
                                        next, allocate.requestId(), probe.ref()));
                next += allocate.count();
            }
        }
    }

    private static WriteOp create(ObjectNode obj) {
        return new WriteOp.Create(obj, WriteOptions.DEFAULT);
    }

    private static ObjectNode configMap(String name, String key, String value) {
        ObjectNode obj = Json.MAPPER.createObjectNode();
        obj.put("apiVersion", "v1");
        obj.put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name);
        obj.putObject("data").put(key, value);
        return obj;
    }
}
