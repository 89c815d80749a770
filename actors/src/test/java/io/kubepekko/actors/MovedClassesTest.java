package io.kubepekko.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.allocation.AllocatorEvent;
import io.kubepekko.actors.allocation.AllocatorState;
import io.kubepekko.actors.entity.CollectionEvent;
import io.kubepekko.actors.entity.CollectionSnapshotParts;
import io.kubepekko.actors.entity.CollectionState;
import io.kubepekko.actors.entity.ObjectChanged;
import io.kubepekko.actors.sequencing.RevisionsEvent;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.actors.sequencing.RevisionsState;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pcollections.HashTreePSet;
import org.pcollections.TreePMap;

/**
 * Journals and snapshot stores written before the entities moved into {@code entity}, {@code
 * sequencing} and {@code allocation}, or before their events and states moved into files of their
 * own, hold their events and states under the old class names (Pekko's Jackson serializer writes
 * the class name as the manifest). Each moved class is written here, then read back through {@link
 * SerializationExtension} with its old manifest, as a recovery reads an old row.
 */
class MovedClassesTest {

    private static ActorTestKit testKit;
    private static Serialization serialization;

    @BeforeAll
    static void start() {
        testKit = ActorTestKit.create();
        serialization = SerializationExtension.get(Adapter.toClassic(testKit.system()));
    }

    @AfterAll
    static void stop() {
        testKit.shutdownTestKit();
    }

    private static final byte[] OBJECT =
            "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}"
                    .getBytes(StandardCharsets.UTF_8);

    /**
     * A representative of each moved persisted class, by the name old journals and snapshots carry.
     */
    private static Map<String, Object> storedUnderOldNames() {
        ActorRef<RevisionsProtocol.Published> subscriber =
                testKit.<RevisionsProtocol.Published>createTestProbe().ref();
        RevisionsEvent.HandedOver handedOver =
                new RevisionsEvent.HandedOver("epoch-1", 1500, List.of(subscriber));
        ObjectChanged changed = new ObjectChanged(7, "a", null, OBJECT, false, 1_700_000_000_000L);
        CollectionState collection =
                new CollectionState(TreePMap.<String, byte[]>empty().plus("a", OBJECT), 7);
        RevisionsEvent.BlockReserved reserved = new RevisionsEvent.BlockReserved(2000);
        RevisionsEvent.CollectionAdded added = new RevisionsEvent.CollectionAdded("default");
        RevisionsState revisions =
                new RevisionsState(2000, HashTreePSet.singleton("default"), handedOver);
        AllocatorEvent.ValuesClaimed claimed =
                new AllocatorEvent.ValuesClaimed(
                        "services/default", "claim-1", List.of("ip/10.96.0.10"));
        AllocatorEvent.ValuesReleased released =
                new AllocatorEvent.ValuesReleased("services/default", List.of("ip/10.96.0.10"));
        AllocatorState allocator =
                new AllocatorState(
                        TreePMap.<String, AllocatorState.Owner>empty()
                                .plus(
                                        "ip/10.96.0.10",
                                        new AllocatorState.Owner("services/default", "claim-1")));
        Map<String, Object> stored = new LinkedHashMap<>();
        // Before the packages by concern.
        stored.put("io.kubepekko.actors.CollectionEntity$ObjectChanged", changed);
        stored.put("io.kubepekko.actors.CollectionEntity$State", collection);
        stored.put(
                "io.kubepekko.actors.CollectionSnapshotParts$Header",
                new CollectionSnapshotParts.Header(2, 7));
        stored.put(
                "io.kubepekko.actors.CollectionSnapshotParts$Part",
                new CollectionSnapshotParts.Part(Map.of("a", OBJECT)));
        stored.put("io.kubepekko.actors.Revisions$BlockReserved", reserved);
        stored.put("io.kubepekko.actors.Revisions$CollectionAdded", added);
        stored.put("io.kubepekko.actors.Revisions$HandedOver", handedOver);
        stored.put("io.kubepekko.actors.Revisions$State", revisions);
        stored.put("io.kubepekko.actors.ValueAllocator$ValuesClaimed", claimed);
        stored.put("io.kubepekko.actors.ValueAllocator$ValuesReleased", released);
        stored.put("io.kubepekko.actors.ValueAllocator$State", allocator);
        // Before the events and states had files of their own.
        stored.put("io.kubepekko.actors.entity.CollectionEntity$ObjectChanged", changed);
        stored.put("io.kubepekko.actors.entity.CollectionEntity$State", collection);
        stored.put("io.kubepekko.actors.sequencing.Revisions$BlockReserved", reserved);
        stored.put("io.kubepekko.actors.sequencing.Revisions$CollectionAdded", added);
        stored.put("io.kubepekko.actors.sequencing.Revisions$HandedOver", handedOver);
        stored.put("io.kubepekko.actors.sequencing.Revisions$State", revisions);
        stored.put("io.kubepekko.actors.allocation.ValueAllocator$ValuesClaimed", claimed);
        stored.put("io.kubepekko.actors.allocation.ValueAllocator$ValuesReleased", released);
        stored.put("io.kubepekko.actors.allocation.ValueAllocator$State", allocator);
        return stored;
    }

    @Test
    void eventsAndStatesWrittenUnderTheOldNamesAreReadAsTheMovedClasses() {
        storedUnderOldNames()
                .forEach(
                        (oldName, value) -> {
                            Serializer serializer = serialization.findSerializerFor(value);
                            byte[] bytes = serialization.serialize(value).get();
                            Object read =
                                    serialization
                                            .deserialize(bytes, serializer.identifier(), oldName)
                                            .get();
                            assertEquals(value.getClass(), read.getClass(), oldName);
                            assertArrayEquals(
                                    bytes,
                                    serialization.serialize(read).get(),
                                    oldName + " reads back to the same value");
                        });
    }

    @Test
    void newWritesCarryTheNewNameWithoutAVersion() {
        storedUnderOldNames()
                .values()
                .forEach(
                        value ->
                                assertEquals(
                                        value.getClass().getName(),
                                        Serializers.manifestFor(
                                                serialization.findSerializerFor(value), value)));
    }

    /**
     * The list covers every event, state and snapshot part of the moved entities, and the test
     * every entry.
     */
    @Test
    void everyStoredClassOfTheMovedEntitiesIsMapped() {
        Set<String> stored = new TreeSet<>();
        for (Class<?> events :
                List.of(CollectionEvent.class, RevisionsEvent.class, AllocatorEvent.class)) {
            for (Class<?> event : events.getPermittedSubclasses()) {
                stored.add(event.getName());
            }
        }
        for (Class<?> snapshot :
                List.of(
                        CollectionState.class,
                        RevisionsState.class,
                        AllocatorState.class,
                        CollectionSnapshotParts.Header.class,
                        CollectionSnapshotParts.Part.class)) {
            stored.add(snapshot.getName());
        }
        assertEquals(stored, new TreeSet<>(MovedClasses.RENAMED.values()));
        Pattern beforePackages = Pattern.compile("io\\.kubepekko\\.actors\\.[A-Z]\\w*\\$\\w+");
        for (String now : stored) {
            assertTrue(
                    MovedClasses.RENAMED.entrySet().stream()
                            .anyMatch(
                                    e ->
                                            e.getValue().equals(now)
                                                    && beforePackages
                                                            .matcher(e.getKey())
                                                            .matches()),
                    now + " is read under its name of before the packages by concern");
        }
        MovedClasses.RENAMED.forEach(
                (oldName, now) ->
                        assertThrows(
                                ClassNotFoundException.class,
                                () -> Class.forName(oldName),
                                oldName + " names no class now"));
        assertEquals(MovedClasses.RENAMED.keySet(), storedUnderOldNames().keySet());
    }
}
