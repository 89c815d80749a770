package io.kubepekko.persistence;

import java.util.Iterator;

/**
 * A snapshot that {@link PartedSnapshotStore} may save, and load back, as several smaller
 * snapshots, so that no single array ever holds all of it: neither the serializer's output, nor the
 * database driver's copy, nor one Cassandra request (Cassandra 5.0 refuses CQL messages over 12.8
 * MiB; mutations are limited to half a commit log segment, 16 MiB by default).
 *
 * <p>A snapshot larger than the store's part size is saved as its {@link #parts parts}, each under
 * a persistence id of its own, and then its {@link #header header} under the actor's persistence id
 * and sequence number: a snapshot is there once its header is. Loading the header loads its parts
 * and {@link Header#assemble assembles} them. A smaller snapshot is saved as itself, as any other.
 */
public interface SnapshotInParts {

    /** About how many bytes the snapshot holds: whether it is split, and into how many parts. */
    long sizeInBytes();

    /**
     * The parts in order, each a serializable value of about {@code maxBytes} (a part holds at
     * least one item, however large), made as they are iterated: the store saves one before asking
     * for the next.
     */
    Iterator<?> parts(long maxBytes);

    /**
     * What is saved under the actor's own persistence id once the snapshot's {@code count} parts
     * are saved.
     */
    Header header(int count);

    /** The first record of a snapshot saved in parts (serializable, as any snapshot). */
    interface Header {
        /** How many parts the snapshot has. */
        int parts();

        /** An empty assembly: the store adds the parts to it in order, then takes its result. */
        Assembly assemble();
    }

    /** A snapshot being rebuilt from its parts. */
    interface Assembly {
        void add(Object part);

        /** The snapshot, once every part has been added. */
        Object result();
    }
}
