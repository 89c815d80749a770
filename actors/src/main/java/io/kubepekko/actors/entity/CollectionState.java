package io.kubepekko.actors.entity;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.persistence.CborSerializable;
import io.kubepekko.persistence.SnapshotInParts;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.pcollections.TreePMap;

/**
 * The state of a {@link CollectionEntity}: the live objects of the collection by name, as stored
 * JSON bytes, and the version of the last change applied (a removal leaves no object behind to tell
 * it).
 */
public record CollectionState(TreePMap<String, byte[]> objects, long lastVersion)
        implements CborSerializable, SnapshotInParts {
    static final CollectionState EMPTY = new CollectionState(TreePMap.empty(), 0);

    @JsonCreator
    static CollectionState fromJson(
            @JsonProperty("objects") Map<String, byte[]> objects,
            @JsonProperty("lastVersion") long lastVersion) {
        return new CollectionState(
                TreePMap.from(objects == null ? Map.of() : objects), lastVersion);
    }

    @JsonProperty("objects")
    Map<String, byte[]> objectsForJson() {
        return new TreeMap<>(objects);
    }

    CollectionState apply(CollectionEvent event) {
        ObjectChanged c = (ObjectChanged) event;
        return new CollectionState(
                c.removed() ? objects.minus(c.name()) : objects.plus(c.name(), c.after()),
                Math.max(lastVersion, c.resourceVersion()));
    }

    /**
     * What became of versions from {@code first} on, as far as this state tells: a collection's
     * versions grow with every batch it persists, so none of them was persisted when the last
     * change is below {@code first}; otherwise the journal may hold them.
     */
    RevisionsProtocol.Resolution resolution(long first) {
        return lastVersion < first
                ? RevisionsProtocol.Resolution.NOT_PERSISTED
                : RevisionsProtocol.Resolution.UNKNOWN;
    }

    @Override
    public long sizeInBytes() {
        return CollectionSnapshotParts.size(objects);
    }

    @Override
    public Iterator<CollectionSnapshotParts.Part> parts(long maxBytes) {
        return CollectionSnapshotParts.parts(objects, maxBytes);
    }

    @Override
    public CollectionSnapshotParts.Header header(int count) {
        return new CollectionSnapshotParts.Header(count, lastVersion);
    }
}
