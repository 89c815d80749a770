package io.kubepekko.actors;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.actors.allocation.AllocatorEvent;
import io.kubepekko.actors.allocation.AllocatorState;
import io.kubepekko.actors.entity.CollectionSnapshotParts;
import io.kubepekko.actors.entity.CollectionState;
import io.kubepekko.actors.entity.ObjectChanged;
import io.kubepekko.actors.sequencing.RevisionsEvent;
import io.kubepekko.actors.sequencing.RevisionsState;
import java.util.Map;
import org.apache.pekko.serialization.jackson.JacksonMigration;

/**
 * Reads what journals and snapshot stores hold under the class names it was written with before it
 * moved: first when the entities moved into packages by concern, then when their events and states
 * moved out of the entities' files into files of their own. Pekko's Jackson serializer stores each
 * event's and snapshot's class name as its manifest; {@code pekko.serialization.jackson.migrations}
 * (this module's reference.conf) registers this migration under each old name. An old manifest
 * carries no version, which the serializer reads as version 1: below {@link #currentVersion()}, so
 * it asks {@link #transformClassName} for the class to read. The JSON itself is unchanged. New
 * writes carry the new names, to which no migration is bound, so their manifests have no version
 * suffix.
 */
public final class MovedClasses extends JacksonMigration {

    /**
     * Every class a journal or snapshot store holds that moved: each old name (as stored; never
     * change these) to the class now, so a class that moved twice has two entries. Events, the
     * entities' states (snapshots), and the parts of a snapshot saved in parts. Messages between
     * nodes are not listed: they are not stored.
     */
    public static final Map<String, String> RENAMED =
            Map.ofEntries(
                    moved(
                            "io.kubepekko.actors.CollectionEntity$ObjectChanged",
                            ObjectChanged.class),
                    moved("io.kubepekko.actors.CollectionEntity$State", CollectionState.class),
                    moved(
                            "io.kubepekko.actors.CollectionSnapshotParts$Header",
                            CollectionSnapshotParts.Header.class),
                    moved(
                            "io.kubepekko.actors.CollectionSnapshotParts$Part",
                            CollectionSnapshotParts.Part.class),
                    moved(
                            "io.kubepekko.actors.Revisions$BlockReserved",
                            RevisionsEvent.BlockReserved.class),
                    moved(
                            "io.kubepekko.actors.Revisions$CollectionAdded",
                            RevisionsEvent.CollectionAdded.class),
                    moved(
                            "io.kubepekko.actors.Revisions$HandedOver",
                            RevisionsEvent.HandedOver.class),
                    moved("io.kubepekko.actors.Revisions$State", RevisionsState.class),
                    moved(
                            "io.kubepekko.actors.ValueAllocator$ValuesClaimed",
                            AllocatorEvent.ValuesClaimed.class),
                    moved(
                            "io.kubepekko.actors.ValueAllocator$ValuesReleased",
                            AllocatorEvent.ValuesReleased.class),
                    moved("io.kubepekko.actors.ValueAllocator$State", AllocatorState.class),
                    // Second move: out of the entities' files into files of their own.
                    moved(
                            "io.kubepekko.actors.entity.CollectionEntity$ObjectChanged",
                            ObjectChanged.class),
                    moved(
                            "io.kubepekko.actors.entity.CollectionEntity$State",
                            CollectionState.class),
                    moved(
                            "io.kubepekko.actors.sequencing.Revisions$BlockReserved",
                            RevisionsEvent.BlockReserved.class),
                    moved(
                            "io.kubepekko.actors.sequencing.Revisions$CollectionAdded",
                            RevisionsEvent.CollectionAdded.class),
                    moved(
                            "io.kubepekko.actors.sequencing.Revisions$HandedOver",
                            RevisionsEvent.HandedOver.class),
                    moved("io.kubepekko.actors.sequencing.Revisions$State", RevisionsState.class),
                    moved(
                            "io.kubepekko.actors.allocation.ValueAllocator$ValuesClaimed",
                            AllocatorEvent.ValuesClaimed.class),
                    moved(
                            "io.kubepekko.actors.allocation.ValueAllocator$ValuesReleased",
                            AllocatorEvent.ValuesReleased.class),
                    moved(
                            "io.kubepekko.actors.allocation.ValueAllocator$State",
                            AllocatorState.class));

    private static Map.Entry<String, String> moved(String oldName, Class<?> now) {
        return Map.entry(oldName, now.getName());
    }

    @Override
    public int currentVersion() {
        return 2;
    }

    @Override
    public String transformClassName(int fromVersion, String className) {
        return RENAMED.getOrDefault(className, className);
    }

    @Override
    public JsonNode transform(int fromVersion, JsonNode json) {
        return json;
    }
}
