package io.kubepekko.actors.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.persistence.EmbeddedSchema;
import io.kubepekko.persistence.StorageSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CollectionEntity} on the embedded profile's real storage (H2 through
 * pekko-persistence-jdbc and {@link io.kubepekko.persistence.PartedSnapshotStore}), where the
 * in-memory test kit of {@link CollectionEntityTest} cannot show how snapshots are stored.
 */
class CollectionEntityStorageTest {

    private static final ResourceType CONFIG_MAPS =
            Registry.builtin().find(new GroupResource("", "configmaps")).orElseThrow();
    private static final CollectionId ID = new CollectionId(CONFIG_MAPS.groupResource(), "big");
    private static final String PID = "Collection|" + ID.entityId();

    @TempDir Path dir;
    private ActorTestKit kit;
    private ActorRef<RevisionsProtocol.Command> revisions;

    private Config config() {
        return new StorageSettings.Embedded(dir)
                .toConfig()
                .withFallback(
                        ConfigFactory.parseString(
                                "kubepekko.snapshot-store.part-bytes = 64 KiB\n"
                                        + "pekko.actor.provider = local"))
                .withFallback(ConfigFactory.load())
                .resolve();
    }

    @BeforeEach
    void start() throws Exception {
        kit = ActorTestKit.create(config());
        EmbeddedSchema.createIfNotExists(kit.system())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        revisions = kit.spawn(Revisions.create(CONFIG_MAPS.groupResource()));
    }

    @AfterEach
    void stop() {
        kit.shutdownTestKit();
    }

    /**
     * Random draws of 0: a snapshot exactly when the events since the last reach the objects (at
     * least 1000).
     */
    private static Environment environment() {
        AtomicInteger uids = new AtomicInteger();
        RandomGenerator zero =
                new RandomGenerator() {
                    @Override
                    public long nextLong() {
                        return 0;
                    }

                    @Override
                    public double nextDouble() {
                        return 0;
                    }
                };
        return new Environment(
                Clock.systemUTC(), () -> "uid-" + uids.incrementAndGet(), () -> "00000", zero);
    }

    private ActorRef<CollectionProtocol.Command> spawnEntity() {
        return kit.spawn(
                CollectionEntity.create(
                        ID,
                        CONFIG_MAPS,
                        new ObjectWrites(ObjectWrites.FieldPruner.NONE),
                        environment(),
                        revisions,
                        new CommittedObjects()));
    }

    private static ObjectNode configMap(String name, String value) {
        ObjectNode obj = Json.MAPPER.createObjectNode();
        obj.put("apiVersion", "v1");
        obj.put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name);
        obj.putObject("data").put("v", value);
        return obj;
    }

    private Map<String, String> list(ActorRef<CollectionProtocol.Command> entity) {
        Map<String, String> out = new TreeMap<>();
        String after = null;
        do {
            TestProbe<CollectionProtocol.Items> probe = kit.createTestProbe();
            entity.tell(new CollectionProtocol.ListObjects(after, 1024 * 1024, probe.getRef()));
            CollectionProtocol.Items page = probe.receiveMessage(Duration.ofSeconds(30));
            for (byte[] item : page.items()) {
                out.put(
                        Json.parseTrusted(item).path("metadata").path("name").asText(),
                        new String(item, StandardCharsets.UTF_8));
            }
            after = page.next();
        } while (after != null);
        return out;
    }

    private List<String> snapshotIds() throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c =
                        DriverManager.getConnection(
                                config().getString("kubepekko.storage.embedded.url"), "sa", "");
                PreparedStatement s =
                        c.prepareStatement(
                                "SELECT \"persistence_id\" FROM \"snapshot\" ORDER BY 1");
                ResultSet r = s.executeQuery()) {
            while (r.next()) {
                out.add(r.getString(1));
            }
        }
        return out;
    }

    /**
     * A snapshot larger than a part is stored as parts and recovered whole: with every event of the
     * journal marked deleted (replay skips them), the collection's objects can only come from the
     * snapshot.
     */
    @Test
    void recoversFromASnapshotSavedInParts() throws Exception {
        ActorRef<CollectionProtocol.Command> entity = spawnEntity();
        TestProbe<WriteResult> replies = kit.createTestProbe();
        String value = "x".repeat(300);
        for (int i = 0; i < 1000; i++) {
            entity.tell(
                    new CollectionProtocol.Write(
                            new WriteOp.Create(
                                    configMap(String.format("cm-%04d", i), value),
                                    WriteOptions.DEFAULT),
                            replies.getRef()));
        }
        for (int i = 0; i < 1000; i++) {
            assertInstanceOf(
                    WriteResult.Success.class, replies.receiveMessage(Duration.ofSeconds(30)));
        }
        Map<String, String> before = list(entity);
        assertEquals(1000, before.size());
        // about 400 kB of objects in parts of 64 KiB
        kit.createTestProbe()
                .awaitAssert(
                        Duration.ofSeconds(30),
                        () -> {
                            List<String> ids = snapshotIds();
                            assertTrue(
                                    ids.contains(PID) && ids.contains(PID + "#snapshot-part-5"),
                                    () -> "snapshots " + ids);
                            return null;
                        });
        kit.stop(entity);

        try (Connection c =
                        DriverManager.getConnection(
                                config().getString("kubepekko.storage.embedded.url"), "sa", "");
                PreparedStatement s =
                        c.prepareStatement(
                                "UPDATE \"event_journal\" SET \"deleted\" = TRUE WHERE \"persistence_id\" = ?")) {
            s.setString(1, PID);
            assertEquals(1000, s.executeUpdate());
        }

        assertEquals(before, list(spawnEntity()));
    }
}
