package io.kubepekko.actors.entity;

import io.kubepekko.persistence.CborSerializable;
import io.kubepekko.persistence.SnapshotInParts;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.pcollections.TreePMap;

/**
 * A collection's state as a snapshot saved in parts ({@link
 * io.kubepekko.persistence.PartedSnapshotStore}): its objects in name order, a {@link Part} of
 * about a given size at a time, after a {@link Header} that says how many parts there are and the
 * state's last version; read back by assembling the parts.
 */
public final class CollectionSnapshotParts {
    private CollectionSnapshotParts() {}

    /**
     * The record a snapshot saved in parts starts with: how many {@link Part}s follow, and the last
     * version.
     */
    public record Header(int parts, long lastVersion)
            implements CborSerializable, SnapshotInParts.Header {
        @Override
        public SnapshotInParts.Assembly assemble() {
            return new SnapshotInParts.Assembly() {
                private TreePMap<String, byte[]> objects = TreePMap.empty();

                @Override
                public void add(Object part) {
                    objects = objects.plusAll(((Part) part).objects());
                }

                @Override
                public Object result() {
                    return new CollectionState(objects, lastVersion);
                }
            };
        }
    }

    /** Some of a collection's objects by name. */
    public record Part(Map<String, byte[]> objects) implements CborSerializable {}

    /** The bytes a state's objects take (names and JSON). */
    static long size(Map<String, byte[]> objects) {
        long bytes = 0;
        for (Map.Entry<String, byte[]> e : objects.entrySet()) {
            bytes += e.getKey().length() + e.getValue().length;
        }
        return bytes;
    }

    /**
     * The objects in name order, a part of about {@code maxBytes} at a time (at least one object
     * each).
     */
    static Iterator<Part> parts(Map<String, byte[]> objects, long maxBytes) {
        Iterator<Map.Entry<String, byte[]>> entries = objects.entrySet().iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return entries.hasNext();
            }

            @Override
            public Part next() {
                Map<String, byte[]> part = new TreeMap<>();
                long bytes = 0;
                while (entries.hasNext() && (part.isEmpty() || bytes < maxBytes)) {
                    Map.Entry<String, byte[]> e = entries.next();
                    part.put(e.getKey(), e.getValue());
                    bytes += e.getKey().length() + e.getValue().length;
                }
                if (part.isEmpty()) {
                    throw new NoSuchElementException();
                }
                return new Part(part);
            }
        };
    }
}
