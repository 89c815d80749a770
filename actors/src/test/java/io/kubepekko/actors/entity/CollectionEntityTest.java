package io.kubepekko.actors.entity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.ReplayedEvents;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Reason;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.LoggingTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.persistence.testkit.ProcessingPolicy;
import org.apache.pekko.persistence.testkit.ProcessingResult;
import org.apache.pekko.persistence.testkit.ProcessingSuccess;
import org.apache.pekko.persistence.testkit.SnapshotMeta;
import org.apache.pekko.persistence.testkit.SnapshotOperation;
import org.apache.pekko.persistence.testkit.StorageFailure;
import org.apache.pekko.persistence.testkit.WriteSnapshot;
import org.apache.pekko.persistence.testkit.javadsl.EventSourcedBehaviorTestKit;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePMap;

/**
 * {@link CollectionEntity} on the in-memory persistence test kit.
 *
 * <p>One write at a time runs through the {@link EventSourcedBehaviorTestKit} with serialization
 * checks on. It can drive the entity's internal round trip to {@link Revisions}: a write's reply is
 * sent only after its events are persisted, and the test kit waits for the reply before it reads
 * the new events and state. The entity asks a real {@link Revisions} spawned in the same system
 * (its own persistence id per test), so versions start at 1 and are deterministic.
 *
 * <p>Bursts — several writes sent before any reply — are what the test kit cannot express (it sends
 * one command and waits for its reply). For those the entity is spawned directly with an {@link
 * ActorTestKit}, its events read with the {@link PersistenceTestKit}, and a {@link TestProbe}
 * stands in for {@link Revisions}: the test answers each allocation itself, so every write of the
 * burst is queued before the first batch completes, whatever the scheduling.
 */
class CollectionEntityTest {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07Z");
    private static final ResourceType CONFIG_MAPS =
            Registry.builtin().find(new GroupResource("", "configmaps")).orElseThrow();
    private static final ObjectWrites WRITES = new ObjectWrites(ObjectWrites.FieldPruner.NONE);
    private static final AtomicInteger COLLECTIONS = new AtomicInteger();

    private static ActorTestKit actorTestKit;

    private String namespace;
    private String persistenceId;
    private CollectionId id;
    private ActorRef<RevisionsProtocol.Command> revisions;
    private CommittedObjects committed;
    private EventSourcedBehaviorTestKit<
                    CollectionProtocol.Command, CollectionEvent, CollectionState>
            testKit;

    @BeforeAll
    static void startSystem() {
        actorTestKit = ActorTestKit.create(EventSourcedBehaviorTestKit.config());
    }

    @AfterAll
    static void stopSystem() {
        actorTestKit.shutdownTestKit();
    }

    /**
     * A fresh collection and sequencer per test: their own persistence ids within the shared
     * system.
     */
    @BeforeEach
    void spawnEntity() {
        int n = COLLECTIONS.incrementAndGet();
        namespace = "team-" + n;
        id = new CollectionId(CONFIG_MAPS.groupResource(), namespace);
        persistenceId = PersistenceId.of("Collection", id.entityId()).id();
        revisions =
                actorTestKit.spawn(
                        Revisions.create(new GroupResource("test.kubepekko.io", "revisions" + n)));
        committed = new CommittedObjects();
        testKit =
                EventSourcedBehaviorTestKit.create(
                        actorTestKit.system(),
                        CollectionEntity.create(
                                id, CONFIG_MAPS, WRITES, fixedEnvironment(), revisions, committed),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings());
    }

    @AfterEach
    void stopRevisions() {
        actorTestKit.stop(revisions);
    }

    /**
     * A stopped clock, uids {@code uid-1, uid-2, …}, name suffixes {@code 00001, 00002, …}, and
     * random draws {@code draws} then 0 (so snapshots come exactly every 1000 events unless a test
     * says otherwise).
     */
    private static Environment fixedEnvironment(double... draws) {
        AtomicInteger uids = new AtomicInteger();
        AtomicInteger suffixes = new AtomicInteger();
        AtomicInteger drawn = new AtomicInteger();
        RandomGenerator random =
                new RandomGenerator() {
                    @Override
                    public long nextLong() {
                        throw new UnsupportedOperationException("this test draws doubles only");
                    }

                    @Override
                    public double nextDouble() {
                        int i = drawn.getAndIncrement();
                        return i < draws.length ? draws[i] : 0;
                    }
                };
        return new Environment(
                Clock.fixed(NOW, ZoneOffset.UTC),
                () -> "uid-" + uids.incrementAndGet(),
                () -> String.format("%05d", suffixes.incrementAndGet()),
                random);
    }

    // ---- single writes through the EventSourcedBehaviorTestKit ----

    @Test
    void createAnswers201WithSystemFieldsAndTheAllocatedVersion() {
        var result = write(create(configMap("settings", "mode", "fast")));

        WriteResult.Success written = result.replyOfType(WriteResult.Success.class);
        assertInstanceOf(WriteResult.Created.class, written);
        assertEquals(2, written.resourceVersion());
        ObjectNode body = Json.parseTrusted(written.body());
        assertEquals("settings", ObjectMeta.name(body));
        assertEquals(namespace, ObjectMeta.namespace(body));
        assertEquals("uid-1", ObjectMeta.uid(body));
        assertEquals(
                "2025-03-04T05:06:07Z", body.path("metadata").path("creationTimestamp").asText());
        assertEquals("2", ObjectMeta.resourceVersion(body));
        assertEquals("fast", body.path("data").path("mode").asText());
    }

    @Test
    void committedObjectsArePublishedBeforeTheReplyAndAgainAfterRecovery() {
        testKit.<CollectionProtocol.GetReply>runCommand(
                r -> new CollectionProtocol.Get("settings", r)); // recovered
        assertTrue(
                committed.of(id.entityId()).isEmpty(),
                "an empty collection publishes once recovered");
        var result = write(create(configMap("settings", "mode", "fast")));

        byte[] body = result.replyOfType(WriteResult.Success.class).body();
        assertArrayEquals(
                body, committed.of(id.entityId()).get("settings"), "readable without a message");
        testKit.restart();
        assertArrayEquals(
                body, committed.of(id.entityId()).get("settings"), "published again after replay");
    }

    @Test
    void aStoppedCollectionWithdrawsItsObjects() {
        CommittedObjects own = new CommittedObjects();
        CollectionId other = new CollectionId(CONFIG_MAPS.groupResource(), namespace + "-stopping");
        ActorRef<CollectionProtocol.Command> entity =
                actorTestKit.spawn(
                        CollectionEntity.create(
                                other, CONFIG_MAPS, WRITES, fixedEnvironment(), revisions, own));
        var probe = actorTestKit.<CollectionProtocol.GetReply>createTestProbe();
        entity.tell(new CollectionProtocol.Get("x", probe.ref()));
        probe.receiveMessage();
        assertTrue(own.of(other.entityId()) != null, "published once recovered");
        actorTestKit.stop(entity);
        assertNull(
                own.of(other.entityId()),
                "a stopped entity's objects are read through sharding again");
    }

    @Test
    void createPersistsTheObjectAsStored() {
        var result = write(create(configMap("settings", "mode", "fast")));

        byte[] body = result.replyOfType(WriteResult.Success.class).body();
        ObjectChanged event = onlyEvent(result);
        assertEquals(2, event.resourceVersion());
        assertEquals("settings", event.name());
        assertNull(event.before());
        assertArrayEquals(body, event.after());
        assertFalse(event.removed());
        assertArrayEquals(body, result.state().objects().get("settings"));
    }

    @Test
    void createOfAnExistingNameIsRefusedAlreadyExists() {
        write(create(configMap("settings", "mode", "fast")));
        CollectionState before = testKit.getState();

        var result = write(create(configMap("settings", "mode", "slow")));

        ApiStatus status = refusal(result);
        assertEquals(409, status.code());
        assertEquals(Reason.ALREADY_EXISTS, status.reason());
        assertEquals("configmaps \"settings\" already exists", status.message());
        assertTrue(result.hasNoEvents(), () -> "persisted " + result.events());
        assertEquals(objects(before), objects(result.state()));
    }

    @Test
    void updatePersistsTheObjectBeforeAndAfter() {
        byte[] stored = written(write(create(configMap("settings", "mode", "fast")))).body();

        var result = write(update(withResourceVersion(configMap("settings", "mode", "slow"), "2")));

        WriteResult.Success written = written(result);
        assertInstanceOf(WriteResult.Updated.class, written);
        assertEquals(3, written.resourceVersion());
        ObjectChanged event = onlyEvent(result);
        assertEquals(3, event.resourceVersion());
        assertArrayEquals(stored, event.before());
        assertArrayEquals(written.body(), event.after());
        assertFalse(event.removed());
        ObjectNode after = Json.parseTrusted(event.after());
        assertEquals("slow", after.path("data").path("mode").asText());
        assertEquals("3", ObjectMeta.resourceVersion(after));
        assertEquals("uid-1", ObjectMeta.uid(after), "an update keeps the uid");
    }

    @Test
    void updateWithAStaleResourceVersionIsRefusedConflict() {
        write(create(configMap("settings", "mode", "fast")));
        write(update(withResourceVersion(configMap("settings", "mode", "slow"), "2")));
        CollectionState before = testKit.getState();

        var result =
                write(update(withResourceVersion(configMap("settings", "mode", "fastest"), "2")));

        ApiStatus status = refusal(result);
        assertEquals(409, status.code());
        assertEquals(Reason.CONFLICT, status.reason());
        assertEquals(
                "Operation cannot be fulfilled on configmaps \"settings\": the object has been modified; "
                        + "please apply your changes to the latest version and try again",
                status.message());
        assertTrue(result.hasNoEvents(), () -> "persisted " + result.events());
        assertEquals(objects(before), objects(result.state()));
    }

    @Test
    void updateThatChangesNothingAnswersTheStoredObjectWithoutPersisting() {
        byte[] stored = written(write(create(configMap("settings", "mode", "fast")))).body();

        var result = write(update(configMap("settings", "mode", "fast")));

        WriteResult.Success written = written(result);
        assertInstanceOf(WriteResult.Unchanged.class, written);
        assertEquals(0, written.resourceVersion());
        assertEquals(Json.parseTrusted(stored), Json.parseTrusted(written.body()));
        assertTrue(result.hasNoEvents(), () -> "persisted " + result.events());
    }

    @Test
    void deletePersistsARemovalWithTheFinalStateAndForgetsTheObject() {
        byte[] stored = written(write(create(configMap("settings", "mode", "fast")))).body();

        var result =
                write(new WriteOp.Delete("settings", Preconditions.NONE, WriteOptions.DEFAULT));

        WriteResult.Success written = written(result);
        assertInstanceOf(WriteResult.Deleted.class, written);
        assertEquals(3, written.resourceVersion());
        ObjectNode status = Json.parseTrusted(written.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Success", status.path("status").asText());
        assertEquals("settings", status.path("details").path("name").asText());
        ObjectChanged event = onlyEvent(result);
        assertTrue(event.removed());
        assertEquals(3, event.resourceVersion());
        assertArrayEquals(stored, event.before());
        ObjectNode finalState = Json.parseTrusted(event.after());
        assertEquals(
                "3",
                ObjectMeta.resourceVersion(finalState),
                "a DELETED watch event carries the deletion's version");
        assertEquals("fast", finalState.path("data").path("mode").asText());
        assertFalse(result.state().objects().containsKey("settings"));
    }

    @Test
    void dryRunCreateAnswersButPersistsNothing() {
        var result =
                write(
                        new WriteOp.Create(
                                configMap("settings", "mode", "fast"),
                                new WriteOptions(true, null, FieldValidation.WARN)));

        WriteResult.Success written = written(result);
        assertInstanceOf(WriteResult.Created.class, written);
        assertEquals(0, written.resourceVersion());
        assertEquals("settings", ObjectMeta.name(Json.parseTrusted(written.body())));
        assertTrue(result.hasNoEvents(), () -> "persisted " + result.events());
        assertTrue(result.state().objects().isEmpty());
    }

    @Test
    void generatedNamesComeFromTheInjectedSuffixes() {
        ObjectNode obj = configMap(null, "mode", "fast");
        ObjectMeta.of(obj).put("generateName", "settings-");

        var result = write(create(obj));

        assertEquals("settings-00001", ObjectMeta.name(Json.parseTrusted(written(result).body())));
        assertEquals("settings-00001", onlyEvent(result).name());
    }

    @Test
    void restartRecoversTheObjects() {
        write(create(configMap("a", "k", "1")));
        write(create(configMap("b", "k", "1")));
        write(create(configMap("c", "k", "1")));
        write(update(configMap("b", "k", "2")));
        write(new WriteOp.Delete("c", Preconditions.NONE, WriteOptions.DEFAULT));
        Map<String, String> before = objects(testKit.getState());

        var restarted = testKit.restart();

        assertEquals(before, objects(restarted.state()));
        assertEquals(List.of("a", "b"), List.copyOf(before.keySet()));
        var get =
                testKit.<CollectionProtocol.GetReply>runCommand(
                        r -> new CollectionProtocol.Get("b", r));
        assertEquals("2", Json.parseTrusted(get.reply().object()).path("data").path("k").asText());
    }

    @Test
    void writesAfterARestartGetHigherVersions() {
        long before = written(write(create(configMap("a", "k", "1")))).resourceVersion();

        testKit.restart();
        long after = written(write(update(configMap("a", "k", "2")))).resourceVersion();

        assertTrue(after > before, after + " <= " + before);
    }

    /**
     * A thousand events since the last snapshot trigger one, counted across a restart: the entity
     * is stopped after 600 (as sharding's passivation does), and the snapshot still follows at
     * 1000.
     */
    @Test
    void snapshotsAfterAThousandEventsEvenAcrossARestart() {
        write(create(configMap("counter", "n", "0")));
        updateCounter(1, 599);
        testKit.restart();

        updateCounter(600, 999);

        awaitSnapshots(List.of(1000L));
    }

    /**
     * A collection that only grows snapshots too: the next snapshot is due after as many events as
     * the last one held objects (at least 1000), not as many as there are now, which a growing
     * collection never reaches (its failover replayed all of its history).
     */
    @Test
    void aCollectionThatOnlyGrowsSnapshotsAsItGrows() {
        for (int i = 0; i < 2000; i++) {
            write(create(configMap("c-" + i, "k", "v")));
        }

        awaitSnapshots(List.of(1000L, 2000L));
    }

    /**
     * Each snapshot comes later than the last by the objects (at least 1000) times a factor drawn
     * in [1, 2), drawn again after every snapshot: collections written in step do not snapshot
     * together.
     */
    @Test
    void snapshotsAreSpreadByADrawnFactorDrawnAgainAfterEach() {
        testKit =
                EventSourcedBehaviorTestKit.create(
                        actorTestKit.system(),
                        CollectionEntity.create(
                                id,
                                CONFIG_MAPS,
                                WRITES,
                                fixedEnvironment(0.5, 0.25),
                                revisions,
                                committed),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings());
        write(create(configMap("counter", "n", "0")));

        updateCounter(1, 1499);
        awaitSnapshots(List.of(1500L));
        updateCounter(1500, 2749);

        awaitSnapshots(List.of(1500L, 2750L));
    }

    /**
     * The collection goes on answering writes while its snapshot is being saved (Pekko's own
     * snapshots stash every command until the save is done; for a large collection that took
     * seconds).
     */
    @Test
    void writesAreAnsweredWhileASnapshotIsBeingSaved() throws InterruptedException {
        var snapshotStore = testKit.snapshotTestKit().orElseThrow();
        CountDownLatch saveStarted = new CountDownLatch(1);
        CountDownLatch finishSave = new CountDownLatch(1);
        snapshotStore.withPolicy(
                new ProcessingPolicy<SnapshotOperation>() {
                    @Override
                    public ProcessingResult tryProcess(String pid, SnapshotOperation operation) {
                        if (pid.equals(persistenceId) && operation instanceof WriteSnapshot) {
                            saveStarted.countDown();
                            try {
                                if (!finishSave.await(30, TimeUnit.SECONDS)) {
                                    return StorageFailure.create();
                                }
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        return ProcessingSuccess.getInstance();
                    }
                });
        try {
            write(create(configMap("counter", "n", "0")));
            updateCounter(1, 999);
            assertTrue(
                    saveStarted.await(10, TimeUnit.SECONDS), "the snapshot at 1000 was not saved");

            updateCounter(1000, 1010);

            assertEquals(
                    List.of(),
                    snapshotStore.persistedInStorage(persistenceId),
                    "the save is still held");
        } finally {
            finishSave.countDown();
            snapshotStore.resetPolicy();
        }
        awaitSnapshots(List.of(1000L));
        assertEquals(
                "1010",
                Json.parseTrusted(testKit.getState().objects().get("counter"))
                        .path("data")
                        .path("n")
                        .asText());
    }

    /** A failed save leaves the collection working; the next snapshot is due an interval later. */
    @Test
    void aFailedSnapshotSaveIsRetriedAnIntervalLater() {
        var snapshotStore = testKit.snapshotTestKit().orElseThrow();
        snapshotStore.failNextPersisted(persistenceId);
        try {
            write(create(configMap("counter", "n", "0")));
            updateCounter(1, 1999);
        } finally {
            snapshotStore.resetPolicy();
        }

        awaitSnapshots(List.of(2000L));
        assertEquals(
                "1999",
                Json.parseTrusted(testKit.getState().objects().get("counter"))
                        .path("data")
                        .path("n")
                        .asText());
    }

    @Test
    void restartRecoversFromTheSnapshotAndTheEventsAfterIt() {
        write(create(configMap("other", "k", "v")));
        write(create(configMap("counter", "n", "0")));
        updateCounter(1, 998);
        updateCounter(999, 1003);
        Map<String, String> before = objects(testKit.getState());
        awaitSnapshots(List.of(1000L));

        ReplayedEvents replayed =
                ReplayedEvents.recordOn(testKit.persistenceTestKit(), persistenceId);
        var restarted = testKit.restart();
        testKit.persistenceTestKit().resetPolicy();

        assertEquals(
                5, replayed.count(), "only the events after the snapshot at 1000 are replayed");
        assertEquals(before, objects(restarted.state()));
        assertEquals(
                "1003",
                Json.parseTrusted(restarted.state().objects().get("counter"))
                        .path("data")
                        .path("n")
                        .asText());
    }

    @Test
    void writeWhoseJournalWriteFailsIsRefusedAndTheEntityRecovers() {
        write(create(configMap("a", "k", "1")));
        testKit.persistenceTestKit().failNextPersisted(persistenceId);

        var failed = write(create(configMap("b", "k", "1")));

        ApiStatus status = refusal(failed);
        assertEquals(503, status.code());
        assertEquals(Reason.SERVICE_UNAVAILABLE, status.reason());
        assertTrue(failed.hasNoEvents(), () -> "persisted " + failed.events());
        var retried = write(create(configMap("b", "k", "1")));
        assertInstanceOf(WriteResult.Created.class, written(retried));
        assertEquals(List.of("a", "b"), List.copyOf(objects(retried.state()).keySet()));
    }

    // ---- the storage quota ----

    /**
     * The entity under test with {@code quota}; the caches' count is set by the test through the
     * quota.
     */
    private StorageQuota withQuota(long limit) {
        StorageQuota quota = StorageQuota.of(limit);
        testKit =
                EventSourcedBehaviorTestKit.create(
                        actorTestKit.system(),
                        CollectionEntity.create(
                                id,
                                CONFIG_MAPS,
                                WRITES,
                                fixedEnvironment(),
                                revisions,
                                committed,
                                null,
                                quota),
                        EventSourcedBehaviorTestKit.enabledSerializationSettings());
        return quota;
    }

    @Test
    void aWriteThatWouldGrowTheStoredObjectsPastTheQuotaIsRefusedWith507() {
        StorageQuota quota = withQuota(100_000);
        write(create(configMap("a", "v", "x".repeat(1000))));
        quota.record(
                CONFIG_MAPS.groupResource(),
                99_000); // what the caches count: a and everything else

        var create = write(create(configMap("b", "v", "x".repeat(1000))));
        ApiStatus refused = refusal(create);
        assertEquals(507, refused.code());
        assertTrue(
                refused.message()
                        .startsWith("database space exceeded: the stored objects would take "),
                refused.message());
        assertTrue(
                refused.message()
                        .contains("over the storage quota of 100000 bytes (--storage-quota-bytes)"),
                refused.message());
        assertTrue(create.hasNoEvents());
        var growing = write(update(configMap("a", "v", "x".repeat(3000))));
        assertEquals(507, refusal(growing).code(), "an update that grows the object by 2000 bytes");
        assertTrue(growing.hasNoEvents());
        assertTrue(quota.readiness().isPresent(), "the refusal raised the alarm");
    }

    @Test
    void shrinkingWritesDeletesAndDryRunsAreNeverRefusedForTheQuota() {
        StorageQuota quota = withQuota(100_000);
        write(create(configMap("a", "v", "x".repeat(1000))));
        write(create(configMap("b", "v", "x".repeat(1000))));
        quota.record(
                CONFIG_MAPS.groupResource(),
                100_500); // over it already (a smaller quota after a restart)

        assertInstanceOf(
                WriteResult.Updated.class,
                written(write(update(configMap("a", "v", "x".repeat(10))))));
        var dryRun =
                write(
                        new WriteOp.Create(
                                configMap("c", "v", "x".repeat(5000)),
                                new WriteOptions(true, null, FieldValidation.WARN)));
        assertInstanceOf(WriteResult.Created.class, written(dryRun));
        assertTrue(dryRun.hasNoEvents(), "a dry run is answered, never stored");
        assertInstanceOf(
                WriteResult.Deleted.class,
                written(write(new WriteOp.Delete("b", Preconditions.NONE, WriteOptions.DEFAULT))));
        assertEquals(List.of("a"), List.copyOf(objects(testKit.getState()).keySet()));
    }

    @Test
    void farBelowTheQuotaWritesAreAdmittedAndNearItTheyAreMeasured() {
        StorageQuota quota = withQuota(1_000_000); // a margin of an eighth: 125 kB
        assertInstanceOf(
                WriteResult.Created.class,
                written(write(create(configMap("a", "v", "x".repeat(200_000))))),
                "nothing counted yet: admitted unmeasured");
        quota.record(CONFIG_MAPS.groupResource(), 880_000);
        assertInstanceOf(
                WriteResult.Created.class,
                written(write(create(configMap("b", "v", "x".repeat(9_000))))),
                "measured: 9 kB fit in the 120 kB left");
        quota.record(CONFIG_MAPS.groupResource(), 995_000);
        assertEquals(507, refusal(write(create(configMap("c", "v", "x".repeat(9_000))))).code());
        assertTrue(quota.readiness().isPresent());
        quota.record(CONFIG_MAPS.groupResource(), 880_000);
        assertTrue(
                quota.readiness().isEmpty(), "the alarm clears once the refused write would fit");
    }

    /** Snapshots are saved in the background: waits (bounded) until exactly these are stored. */
    private void awaitSnapshots(List<Long> sequenceNrs) {
        actorTestKit
                .createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            var stored =
                                    testKit.snapshotTestKit()
                                            .orElseThrow()
                                            .persistedInStorage(persistenceId);
                            assertEquals(
                                    sequenceNrs,
                                    stored.stream().map(s -> s.first().sequenceNr()).toList());
                            return null;
                        });
    }

    private void updateCounter(int from, int to) {
        for (int n = from; n <= to; n++) {
            written(write(update(configMap("counter", "n", Integer.toString(n)))));
        }
    }

    // ---- recovered objects of another type (stored before every write path checked type meta)
    // ----

    @Test
    void recoveryRepairsAnObjectJournaledWithAnotherKindAndRewritesItOnce() {
        byte[] garbage =
                Json.bytes(
                        configMap("cm", "k", "v").put("kind", "Garbage").put("apiVersion", "v9"));
        awaitFirstRecovery();
        testKit.persistenceTestKit()
                .persistForRecovery(
                        persistenceId,
                        List.of(new ObjectChanged(7, "cm", null, garbage, false, 0)));

        var restarted =
                LoggingTestKit.warn(
                                "the stored object cm had apiVersion \"v9\", kind \"Garbage\" instead of "
                                        + "v1 ConfigMap")
                        .withOccurrences(1)
                        .expect(actorTestKit.system(), () -> testKit.restart());

        assertConfigMap(restarted.state().objects().get("cm"));
        assertConfigMap(
                testKit.<CollectionProtocol.GetReply>runCommand(
                                r -> new CollectionProtocol.Get("cm", r))
                        .reply()
                        .object());
        ObjectChanged rewrite = awaitEvents(2).get(1);
        assertConfigMap(rewrite.after());
        assertEquals("v", Json.parseTrusted(rewrite.after()).path("data").path("k").asText());
        assertEquals(
                Long.toString(rewrite.resourceVersion()),
                Json.parseTrusted(rewrite.after())
                        .path("metadata")
                        .path("resourceVersion")
                        .asText());

        LoggingTestKit.warn("the stored object")
                .withOccurrences(0)
                .expect(actorTestKit.system(), () -> testKit.restart());
        assertEquals(2, journaled().size(), "nothing left to repair after the rewrite");
    }

    @Test
    void recoveryRepairsAnObjectOfAnotherKindInTheSnapshot() {
        byte[] garbage = Json.bytes(configMap("cm", "k", "v").put("kind", "Pod"));
        var snapshot =
                new CollectionState(
                        TreePMap.<String, byte[]>empty()
                                .plus("cm", garbage)
                                .plus("ok", Json.bytes(configMap("ok", "k", "v"))),
                        7);
        awaitFirstRecovery();
        testKit.snapshotTestKit()
                .orElseThrow()
                .persistForRecovery(
                        persistenceId,
                        List.of(Pair.create(new SnapshotMeta(1, 0), (Object) snapshot)));

        var restarted =
                LoggingTestKit.warn("the stored object cm had")
                        .withOccurrences(1)
                        .expect(actorTestKit.system(), () -> testKit.restart());

        assertConfigMap(restarted.state().objects().get("cm"));
        assertArrayEquals(
                Json.bytes(configMap("ok", "k", "v")), restarted.state().objects().get("ok"));
        assertConfigMap(awaitEvents(1).get(0).after());
    }

    /**
     * Waits until the entity the test started has recovered (a command is answered only after
     * recovery): stored for recovery before that, the journal's content would be replayed by it
     * too, and logged twice (seen once on a loaded machine).
     */
    private void awaitFirstRecovery() {
        testKit.<CollectionProtocol.GetReply>runCommand(r -> new CollectionProtocol.Get("cm", r));
    }

    private static void assertConfigMap(byte[] json) {
        ObjectNode obj = Json.parseTrusted(json);
        assertEquals("v1", obj.path("apiVersion").asText());
        assertEquals("ConfigMap", obj.path("kind").asText());
    }

    private List<ObjectChanged> journaled() {
        return testKit.persistenceTestKit().persistedInStorage(persistenceId).stream()
                .map(e -> (ObjectChanged) e)
                .toList();
    }

    /** Waits (bounded) until the journal holds {@code count} events. */
    private List<ObjectChanged> awaitEvents(int count) {
        return actorTestKit
                .createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(10),
                        () -> {
                            List<ObjectChanged> events = journaled();
                            assertEquals(count, events.size());
                            return events;
                        });
    }

    // ---- bursts: several writes before any reply ----

    /**
     * The first write goes alone; the next four queue behind it and go together, the generated name
     * avoiding the one an earlier write of the same batch takes; the update of {@code a} and the
     * second create of {@code b} wait until the creates they depend on are committed.
     */
    @Test
    void burstOfWritesIsAnsweredWithIncreasingVersionsAndUniqueNames() {
        Burst burst = new Burst();
        var first = burst.send(create(configMap("first", "k", "1")));
        var a = burst.send(create(configMap("a", "k", "1")));
        var b = burst.send(create(configMap("b", "k", "1")));
        var explicitName = burst.send(create(configMap("a00001", "k", "1")));
        ObjectNode generated = configMap(null, "k", "1");
        ObjectMeta.of(generated).put("generateName", "a");
        var generatedName = burst.send(create(generated));
        var updateA = burst.send(update(configMap("a", "k", "2")));
        var duplicateB = burst.send(create(configMap("b", "k", "other")));

        List<Integer> batchSizes = burst.allocateUntil(6);

        List<WriteResult.Success> persisted =
                List.of(
                        written(first),
                        written(a),
                        written(b),
                        written(explicitName),
                        written(generatedName),
                        written(updateA));
        List<Long> versions = persisted.stream().map(WriteResult.Success::resourceVersion).toList();
        assertEquals(
                List.of(1L, 2L, 3L, 4L, 5L, 6L),
                versions,
                "versions follow the order the writes were sent in");
        assertEquals(
                List.of("Created", "Created", "Created", "Created", "Created", "Updated"),
                persisted.stream().map(w -> w.getClass().getSimpleName()).toList());
        assertEquals(Reason.ALREADY_EXISTS, refusal(duplicateB).reason());
        assertEquals(List.of(1, 4, 1), batchSizes);

        List<ObjectChanged> events = burst.events();
        assertEquals(versions, events.stream().map(ObjectChanged::resourceVersion).toList());
        assertEquals(
                List.of("first", "a", "b", "a00001", "a00002", "a"),
                events.stream().map(ObjectChanged::name).toList());
        for (int i = 0; i < persisted.size(); i++) {
            assertArrayEquals(
                    persisted.get(i).body(),
                    events.get(i).after(),
                    "event " + i + " stores what was answered");
        }
        assertArrayEquals(
                events.get(1).after(),
                events.get(5).before(),
                "the update's before is the object as its create stored it");
        assertEquals(
                "1",
                burst.get("b").path("data").path("k").asText(),
                "the duplicate create changed nothing");
        assertEquals("2", burst.get("a").path("data").path("k").asText());
    }

    /**
     * Near the quota the writes of a batch reserve what they add until the batch ends: the second
     * of two writes that each fit alone is refused, though the caches have counted neither.
     */
    @Test
    void nearTheQuotaEachWriteOfABatchCountsTheOnesBeforeIt() {
        StorageQuota quota = StorageQuota.of(100_000); // a margin of 12.5 kB
        quota.record(CONFIG_MAPS.groupResource(), 98_000);
        Burst burst = new Burst(quota);
        var first = burst.send(create(configMap("first", "v", "x".repeat(800))));
        var b = burst.send(create(configMap("b", "v", "x".repeat(800))));
        var c = burst.send(create(configMap("c", "v", "x".repeat(800))));

        assertEquals(List.of(1, 1), burst.allocateUntil(2));

        assertInstanceOf(WriteResult.Created.class, written(first));
        assertInstanceOf(WriteResult.Created.class, written(b));
        assertEquals(507, refusal(c).code(), "b is reserved until its batch ends");
    }

    @Test
    void noOpUpdateRightAfterACreateAnswersWithTheStoredObject() {
        Burst burst = new Burst();
        var first = burst.send(create(configMap("first", "k", "1")));
        var create = burst.send(create(configMap("a", "k", "1")));
        var noOp = burst.send(update(configMap("a", "k", "1")));

        burst.allocateUntil(2);

        assertEquals(1, written(first).resourceVersion());
        WriteResult.Success created = written(create);
        assertEquals(2, created.resourceVersion());
        WriteResult.Success unchanged = written(noOp);
        assertInstanceOf(WriteResult.Unchanged.class, unchanged);
        assertEquals(0, unchanged.resourceVersion());
        assertEquals(
                Json.parseTrusted(created.body()),
                Json.parseTrusted(unchanged.body()),
                "the answer shows the object as stored, resourceVersion included");
        assertEquals(2, burst.events().size());
    }

    @Test
    void listObjectsPagesInNameOrderByBytes() {
        for (String name : List.of("d", "a", "c", "b", "e")) {
            write(create(configMap(name, "k", "v")));
        }
        long size = testKit.getState().objects().get("a").length;

        List<List<String>> pages = new ArrayList<>();
        String after = null;
        do {
            String from = after;
            CollectionProtocol.Items page =
                    testKit.<CollectionProtocol.Items>runCommand(
                                    r ->
                                            new CollectionProtocol.ListObjects(
                                                    from, (int) (size * 2), r))
                            .reply();
            pages.add(
                    page.items().stream().map(b -> ObjectMeta.name(Json.parseTrusted(b))).toList());
            assertEquals(testKit.getState().lastVersion(), page.lastVersion());
            after = page.next();
        } while (after != null);

        assertEquals(List.of(List.of("a", "b"), List.of("c", "d"), List.of("e")), pages);
        CollectionProtocol.Items tiny =
                testKit.<CollectionProtocol.Items>runCommand(
                                r -> new CollectionProtocol.ListObjects(null, 1, r))
                        .reply();
        assertEquals(1, tiny.items().size(), "at least one object per page");
        assertEquals("a", tiny.next());
    }

    // ---- resolving an allocation whose report Revisions never got ----

    @Test
    void aRequestStillInFlightIsNotAnsweredThenItsVersionsMayBePersisted() {
        Burst burst = new Burst();
        var write = burst.send(create(configMap("a", "k", "1")));
        RevisionsProtocol.Allocate asked =
                (RevisionsProtocol.Allocate) burst.revisionsProbe.receiveMessage();
        TestProbe<RevisionsProtocol.Command> answers = actorTestKit.createTestProbe();

        burst.entity.tell(new CollectionProtocol.Resolve(7, 7, asked.requestId(), answers.ref()));
        answers.expectNoMessage(Duration.ofMillis(200));

        asked.replyTo()
                .tell(
                        new RevisionsProtocol.Allocated(
                                7, asked.requestId(), burst.revisionsProbe.ref()));
        assertEquals(7, written(write).resourceVersion());
        burst.entity.tell(new CollectionProtocol.Resolve(7, 7, asked.requestId(), answers.ref()));
        assertEquals(
                new RevisionsProtocol.Resolved(7, RevisionsProtocol.Resolution.UNKNOWN),
                answers.receiveMessage(),
                "the journal holds version 7, whose events this collection does not keep");
    }

    @Test
    void aRevisionsInstanceThatIsMovingIsAskedAgainThroughSharding() {
        Burst burst = new Burst();
        var first = burst.send(create(configMap("a", "k", "1")));
        burst.allocateUntil(1); // from now on the entity asks that instance directly
        assertEquals(1, written(first).resourceVersion());
        TestProbe<RevisionsProtocol.Command> moving = actorTestKit.createTestProbe();
        var second = burst.send(create(configMap("b", "k", "1")));
        RevisionsProtocol.Command m = burst.revisionsProbe.receiveMessage();
        while (!(m instanceof RevisionsProtocol.Allocate)) {
            m = burst.revisionsProbe.receiveMessage(); // the first write's commit report
        }
        RevisionsProtocol.Allocate direct = (RevisionsProtocol.Allocate) m;

        direct.replyTo()
                .tell(
                        new RevisionsProtocol.Allocated(
                                RevisionsProtocol.Allocated.MOVING,
                                direct.requestId(),
                                moving.ref()));
        RevisionsProtocol.Allocate again =
                (RevisionsProtocol.Allocate) burst.revisionsProbe.receiveMessage();
        assertEquals(
                direct.requestId(),
                again.requestId(),
                "the same request, through sharding (the probe)");
        again.replyTo()
                .tell(
                        new RevisionsProtocol.Allocated(
                                5, again.requestId(), burst.revisionsProbe.ref()));
        assertEquals(5, written(second).resourceVersion());

        // A second answer to the same request (the first instance allocated after all): abandoned.
        again.replyTo().tell(new RevisionsProtocol.Allocated(9, again.requestId(), moving.ref()));
        assertEquals(new RevisionsProtocol.Abandoned(9), moving.receiveMessage());
    }

    /**
     * An ask for versions can be lost with the node of the Revisions instance it went to (sent
     * directly, or through a region that had not yet learnt the shard's home was gone): seen in
     * bench/failover as writes to collections on surviving servers stalled for the whole allocation
     * time-out (10 s) after a kill. The batch asks again through sharding after a second, and gives
     * back the versions of a late second answer.
     */
    @Test
    void anAskForVersionsLostWithItsInstanceIsAskedAgainThroughShardingAfterASecond() {
        Burst burst = new Burst();
        var write = burst.send(create(configMap("a", "k", "1")));
        RevisionsProtocol.Allocate lost =
                (RevisionsProtocol.Allocate) burst.revisionsProbe.receiveMessage();

        RevisionsProtocol.Allocate again =
                (RevisionsProtocol.Allocate)
                        burst.revisionsProbe.receiveMessage(Duration.ofSeconds(5));
        assertEquals(lost.requestId(), again.requestId(), "the same batch, asked again");
        again.replyTo()
                .tell(
                        new RevisionsProtocol.Allocated(
                                3, again.requestId(), burst.revisionsProbe.ref()));
        assertEquals(3, written(write).resourceVersion());

        TestProbe<RevisionsProtocol.Command> late = actorTestKit.createTestProbe();
        lost.replyTo().tell(new RevisionsProtocol.Allocated(8, lost.requestId(), late.ref()));
        assertEquals(
                new RevisionsProtocol.Abandoned(8),
                late.receiveMessage(),
                "the late answer's versions given back");
    }

    /**
     * A journal write that fails may have been stored all the same (a write that timed out can
     * still land), so the collection does not report its versions abandoned: the sequencer would
     * publish past them and the watch caches would never see an object that storage holds. It
     * leaves them to the sequencer's question, which the restarted collection answers from its
     * journal.
     */
    @Test
    void aBatchWhoseJournalWriteFailedIsLeftToTheSequencersQuestionNotReportedAbandoned() {
        Burst burst = new Burst();
        var first = burst.send(create(configMap("a", "k", "1")));
        burst.allocateUntil(1);
        assertEquals(1, written(first).resourceVersion());
        burst.journal.failNextPersisted(
                PersistenceId.of("Collection", burst.burstId.entityId()).id());

        var failed = burst.send(create(configMap("b", "k", "1")));
        RevisionsProtocol.Command m = burst.revisionsProbe.receiveMessage();
        while (!(m instanceof RevisionsProtocol.Allocate)) {
            m = burst.revisionsProbe.receiveMessage(); // the first write's commit report
        }
        RevisionsProtocol.Allocate allocate = (RevisionsProtocol.Allocate) m;
        allocate.replyTo()
                .tell(
                        new RevisionsProtocol.Allocated(
                                2, allocate.requestId(), burst.revisionsProbe.ref()));
        assertEquals(503, refusal(failed).code());
        burst.revisionsProbe.expectNoMessage(Duration.ofMillis(300));

        TestProbe<RevisionsProtocol.Command> answers = actorTestKit.createTestProbe();
        burst.entity.tell(
                new CollectionProtocol.Resolve(2, 2, allocate.requestId(), answers.ref()));
        assertEquals(
                new RevisionsProtocol.Resolved(2, RevisionsProtocol.Resolution.NOT_PERSISTED),
                answers.receiveMessage(),
                "the restarted collection finds nothing at version 2 in its journal");
    }

    @Test
    void anAllocationAboveEverythingPersistedAndNotInFlightWasNeverPersisted() {
        Burst burst = new Burst();
        var write = burst.send(create(configMap("a", "k", "1")));
        burst.allocateUntil(1);
        assertEquals(1, written(write).resourceVersion());
        TestProbe<RevisionsProtocol.Command> answers = actorTestKit.createTestProbe();

        // An allocation whose answer never reached this collection (a request it gave up on).
        burst.entity.tell(new CollectionProtocol.Resolve(5, 6, 12345, answers.ref()));

        assertEquals(
                new RevisionsProtocol.Resolved(5, RevisionsProtocol.Resolution.NOT_PERSISTED),
                answers.receiveMessage());
    }

    @Test
    void aRestartedCollectionAnswersFromItsJournal() {
        var created = write(create(configMap("a", "k", "1")));
        long rv = written(created).resourceVersion();
        testKit.restart();
        TestProbe<RevisionsProtocol.Command> answers = actorTestKit.createTestProbe();

        testKit.runCommand(new CollectionProtocol.Resolve(rv, rv, 1, answers.ref()));
        assertEquals(
                new RevisionsProtocol.Resolved(rv, RevisionsProtocol.Resolution.UNKNOWN),
                answers.receiveMessage());
        testKit.runCommand(new CollectionProtocol.Resolve(rv + 1, rv + 1, 1, answers.ref()));
        assertEquals(
                new RevisionsProtocol.Resolved(rv + 1, RevisionsProtocol.Resolution.NOT_PERSISTED),
                answers.receiveMessage());
    }

    /**
     * An entity spawned directly, whose {@link Revisions} is a probe the test answers: writes sent
     * through {@link #send} all queue behind the first batch, which waits for its versions.
     */
    private final class Burst {
        /**
         * A collection of its own, so that it is not also the one the behaviour test kit drives.
         */
        private final CollectionId burstId =
                new CollectionId(CONFIG_MAPS.groupResource(), namespace + "-burst");

        private final TestProbe<RevisionsProtocol.Command> revisionsProbe =
                actorTestKit.createTestProbe();
        private final ActorRef<CollectionProtocol.Command> entity;
        private final PersistenceTestKit journal = PersistenceTestKit.create(actorTestKit.system());

        Burst() {
            this(StorageQuota.unlimited());
        }

        Burst(StorageQuota quota) {
            entity =
                    actorTestKit.spawn(
                            CollectionEntity.create(
                                    burstId,
                                    CONFIG_MAPS,
                                    WRITES,
                                    fixedEnvironment(),
                                    revisionsProbe.ref(),
                                    new CommittedObjects(),
                                    null,
                                    quota));
        }

        TestProbe<WriteResult> send(WriteOp op) {
            TestProbe<WriteResult> replyTo = actorTestKit.createTestProbe();
            entity.tell(new CollectionProtocol.Write(op, replyTo.ref()));
            return replyTo;
        }

        /**
         * Answers allocations with consecutive versions from 1 until {@code total} are handed out.
         */
        List<Integer> allocateUntil(int total) {
            List<Integer> sizes = new ArrayList<>();
            long next = 1;
            while (next <= total) {
                RevisionsProtocol.Command c = revisionsProbe.receiveMessage();
                if (c instanceof RevisionsProtocol.Allocate allocate) {
                    assertEquals(burstId.namespace(), allocate.namespace());
                    sizes.add(allocate.count());
                    allocate.replyTo()
                            .tell(
                                    new RevisionsProtocol.Allocated(
                                            next, allocate.requestId(), revisionsProbe.ref()));
                    next += allocate.count();
                } else {
                    assertTrue(
                            c instanceof RevisionsProtocol.Committed
                                    || c instanceof RevisionsProtocol.Abandoned,
                            c.toString());
                }
            }
            return sizes;
        }

        List<ObjectChanged> events() {
            return journal
                    .persistedInStorage(PersistenceId.of("Collection", burstId.entityId()).id())
                    .stream()
                    .map(ObjectChanged.class::cast)
                    .toList();
        }

        ObjectNode get(String name) {
            TestProbe<CollectionProtocol.GetReply> probe = actorTestKit.createTestProbe();
            entity.tell(new CollectionProtocol.Get(name, probe.ref()));
            return Json.parseTrusted(probe.receiveMessage().object());
        }
    }

    // ---- helpers ----

    private EventSourcedBehaviorTestKit.CommandResultWithReply<
                    CollectionProtocol.Command, CollectionEvent, CollectionState, WriteResult>
            write(WriteOp op) {
        return testKit.runCommand(replyTo -> new CollectionProtocol.Write(op, replyTo));
    }

    private static WriteOp create(ObjectNode obj) {
        return new WriteOp.Create(obj, WriteOptions.DEFAULT);
    }

    private static WriteOp update(ObjectNode obj) {
        return new WriteOp.Update(ObjectMeta.name(obj), obj, null, WriteOptions.DEFAULT);
    }

    private static ObjectNode configMap(String name, String key, String value) {
        ObjectNode obj = Json.MAPPER.createObjectNode();
        obj.put("apiVersion", "v1");
        obj.put("kind", "ConfigMap");
        ObjectNode meta = obj.putObject("metadata");
        if (name != null) {
            meta.put("name", name);
        }
        obj.putObject("data").put(key, value);
        return obj;
    }

    private static ObjectNode withResourceVersion(ObjectNode obj, String resourceVersion) {
        ObjectMeta.of(obj).put("resourceVersion", resourceVersion);
        return obj;
    }

    private static WriteResult.Success written(
            EventSourcedBehaviorTestKit.CommandResultWithReply<?, ?, ?, WriteResult> result) {
        return assertInstanceOf(
                WriteResult.Success.class, result.reply(), () -> "reply " + result.reply());
    }

    private static WriteResult.Success written(TestProbe<WriteResult> replyTo) {
        WriteResult reply = replyTo.receiveMessage();
        return assertInstanceOf(WriteResult.Success.class, reply, () -> "reply " + reply);
    }

    private static ApiStatus refusal(
            EventSourcedBehaviorTestKit.CommandResultWithReply<?, ?, ?, WriteResult> result) {
        return assertInstanceOf(
                        WriteResult.Refused.class, result.reply(), () -> "reply " + result.reply())
                .status();
    }

    private static ApiStatus refusal(TestProbe<WriteResult> replyTo) {
        WriteResult reply = replyTo.receiveMessage();
        return assertInstanceOf(WriteResult.Refused.class, reply, () -> "reply " + reply).status();
    }

    private static ObjectChanged onlyEvent(
            EventSourcedBehaviorTestKit.CommandResult<?, CollectionEvent, ?> result) {
        assertEquals(1, result.events().size(), () -> "events " + result.events());
        return assertInstanceOf(ObjectChanged.class, result.events().get(0));
    }

    /** The state's objects as JSON text by name: byte arrays compare by identity, text by value. */
    private static Map<String, String> objects(CollectionState state) {
        Map<String, String> out = new TreeMap<>();
        state.objects()
                .forEach((name, bytes) -> out.put(name, new String(bytes, StandardCharsets.UTF_8)));
        return out;
    }
}
