package io.kubepekko.persistence.cassandra;

import java.util.Optional;

/**
 * The two ports a local Cassandra listens on: {@code storage} (inter-node messaging) and {@code
 * cql} (clients). 0 stands for "a free one, picked at start".
 */
public record NodePorts(int storage, int cql) {
    /** Both ports free ones. */
    public static final NodePorts ANY = new NodePorts(0, 0);

    public NodePorts {
        if (storage < 0 || storage > 65535 || cql < 0 || cql > 65535) {
            throw new IllegalArgumentException("not a port: storage " + storage + ", CQL " + cql);
        }
        if (storage != 0 && storage == cql) {
            throw new IllegalArgumentException(
                    "the storage and CQL ports must differ: both are " + storage);
        }
    }

    /**
     * The ports of a start: each port {@code given} (non-zero) as given; else, when {@code reuse},
     * the one the data directory's {@code previous} run listened on, so clients that know it find
     * the node again; else 0.
     */
    static NodePorts choose(NodePorts given, Optional<NodePorts> previous, boolean reuse) {
        NodePorts before = reuse ? previous.orElse(ANY) : ANY;
        return new NodePorts(
                given.storage != 0 ? given.storage : before.storage,
                given.cql != 0 ? given.cql : before.cql);
    }
}
