package io.kubepekko.actors.entity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.store.TypeMeta;
import java.util.Map;
import java.util.TreeMap;
import org.apache.pekko.persistence.typed.EventAdapter;
import org.apache.pekko.persistence.typed.EventSeq;
import org.apache.pekko.persistence.typed.SnapshotAdapter;
import org.pcollections.TreePMap;

/**
 * Reads a collection's journal and snapshots back with every object in the collection's apiVersion
 * and kind. Objects stored before every write path checked type meta may carry another (a merge
 * patch once stored {@code "kind":"Garbage"}); they are repaired as they are read back, so they are
 * never served as another kind, and noted, so that the entity can log each once and persist it
 * repaired (the next recovery then finds nothing). The repair is Pekko's read-side migration: an
 * event adapter for replayed events, a snapshot adapter for snapshots; events the entity persists
 * itself never pass through it.
 */
final class TypeMetaRepair {
    private final GroupVersionKind kind;

    /** Repaired objects by name, with the type meta they had, since the last {@link #drain()}. */
    private final Map<String, String> repaired = new TreeMap<>();

    TypeMetaRepair(GroupVersionKind kind) {
        this.kind = kind;
    }

    /** The objects repaired since the last call, with what they had; forgotten here. */
    Map<String, String> drain() {
        Map<String, String> out = Map.copyOf(repaired);
        repaired.clear();
        return out;
    }

    EventAdapter<CollectionEvent, CollectionEvent> events() {
        return new EventAdapter<>() {
            @Override
            public CollectionEvent toJournal(CollectionEvent event) {
                return event;
            }

            @Override
            public String manifest(CollectionEvent event) {
                return "";
            }

            @Override
            public EventSeq<CollectionEvent> fromJournal(CollectionEvent event, String manifest) {
                return EventSeq.single(event instanceof ObjectChanged c ? repair(c) : event);
            }
        };
    }

    SnapshotAdapter<CollectionState> snapshots() {
        return new SnapshotAdapter<>() {
            @Override
            public Object toJournal(CollectionState state) {
                return state;
            }

            @Override
            public CollectionState fromJournal(Object from) {
                CollectionState state = (CollectionState) from;
                TreePMap<String, byte[]> objects = state.objects();
                for (Map.Entry<String, byte[]> e : state.objects().entrySet()) {
                    byte[] fixed = TypeMeta.repairStored(kind, e.getValue());
                    if (fixed != e.getValue()) {
                        repaired.put(e.getKey(), typeMetaOf(e.getValue()));
                        objects = objects.plus(e.getKey(), fixed);
                    }
                }
                return objects == state.objects()
                        ? state
                        : new CollectionState(objects, state.lastVersion());
            }
        };
    }

    /**
     * A replayed change, its object repaired if it has another type meta; a later good one clears
     * the note.
     */
    private ObjectChanged repair(ObjectChanged c) {
        byte[] fixed = c.removed() ? c.after() : TypeMeta.repairStored(kind, c.after());
        if (fixed == c.after()) {
            repaired.remove(c.name());
            return c;
        }
        repaired.put(c.name(), typeMetaOf(c.after()));
        return new ObjectChanged(
                c.resourceVersion(), c.name(), c.before(), fixed, false, c.committedAt());
    }

    private static String typeMetaOf(byte[] json) {
        ObjectNode obj = Json.parseTrusted(json);
        return "apiVersion " + obj.path("apiVersion") + ", kind " + obj.path("kind");
    }
}
