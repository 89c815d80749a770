package io.kubepekko.actors.entity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.persistence.SnapshotInParts;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePMap;

/** A collection's state cut into snapshot parts, and assembled again. */
class CollectionSnapshotPartsTest {

    private static final int OBJECTS = 1000;
    private static final int OBJECT_BYTES = 100;
    private static final long PART_BYTES = 1000;

    private static TreePMap<String, byte[]> objects() {
        TreePMap<String, byte[]> objects = TreePMap.empty();
        for (int i = 0; i < OBJECTS; i++) {
            objects =
                    objects.plus(
                            String.format("cm-%04d", i),
                            "x".repeat(OBJECT_BYTES).getBytes(StandardCharsets.UTF_8));
        }
        return objects;
    }

    /** {@code objects} as a map that counts the entries read from it. */
    private static final class Counted extends AbstractMap<String, byte[]> {
        private final Map<String, byte[]> objects;
        int read;

        Counted(Map<String, byte[]> objects) {
            this.objects = objects;
        }

        @Override
        public Set<Entry<String, byte[]>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, byte[]>> iterator() {
                    Iterator<Entry<String, byte[]>> entries = objects.entrySet().iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return entries.hasNext();
                        }

                        @Override
                        public Entry<String, byte[]> next() {
                            read++;
                            return entries.next();
                        }
                    };
                }

                @Override
                public int size() {
                    return objects.size();
                }
            };
        }
    }

    /**
     * A snapshot's save holds one part at a time only if the parts are cut as the store asks for
     * them: a copy of the whole collection made up front is what parts are there to avoid.
     */
    @Test
    void partsAreCutAsTheStoreAsksForThem() {
        Counted objects = new Counted(objects());
        Iterator<CollectionSnapshotParts.Part> parts =
                CollectionSnapshotParts.parts(objects, PART_BYTES);
        assertEquals(0, objects.read);

        CollectionSnapshotParts.Part first = parts.next();

        assertEquals(first.objects().size(), objects.read);
        assertTrue(objects.read < OBJECTS / 10, "read " + objects.read + " objects for one part");
    }

    @Test
    void eachPartHoldsAboutThePartSizeAndTheyAssembleToTheState() {
        CollectionState state = new CollectionState(objects(), 4242);
        SnapshotInParts.Assembly assembly = state.header(0).assemble();
        int count = 0;
        for (Iterator<CollectionSnapshotParts.Part> parts = state.parts(PART_BYTES);
                parts.hasNext(); ) {
            CollectionSnapshotParts.Part part = parts.next();
            long bytes = CollectionSnapshotParts.size(part.objects());
            assertTrue(
                    bytes < PART_BYTES + OBJECT_BYTES + 10,
                    "part " + count + " holds " + bytes + " bytes");
            assembly.add(part);
            count++;
        }

        assertTrue(
                count >= state.sizeInBytes() / (PART_BYTES + OBJECT_BYTES + 10), count + " parts");
        CollectionState assembled = (CollectionState) assembly.result();
        assertEquals(4242, assembled.lastVersion());
        assertEquals(state.objects().keySet(), assembled.objects().keySet());
    }
}
