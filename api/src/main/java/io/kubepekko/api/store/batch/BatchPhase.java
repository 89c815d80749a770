package io.kubepekko.api.store.batch;

import java.util.List;

/**
 * Where a collection's batch of writes is, between taking its writes off the queue and answering
 * them. At most one batch is in flight; its writes are opaque here ({@code W}).
 *
 * @param <W> what the collection keeps of one write of the batch
 */
public sealed interface BatchPhase<W>
        permits BatchPhase.Idle, BatchPhase.Claiming, BatchPhase.Allocating, BatchPhase.Persisting {

    /** No batch in flight. */
    record Idle<W>() implements BatchPhase<W> {}

    /**
     * The batch waits for the allocator's answer to its claim {@code claimId} of cluster-wide
     * values.
     */
    record Claiming<W>(long batchId, List<W> writes, String claimId) implements BatchPhase<W> {
        public Claiming {
            writes = List.copyOf(writes);
        }
    }

    /**
     * The batch waits for its resourceVersions. {@code claimId} is its settled-later claim, or null
     * when it claimed nothing; {@code askedDirectly} whether the pending ask went to the last known
     * Revisions instance rather than through sharding (it may die with that instance).
     */
    record Allocating<W>(long batchId, List<W> writes, String claimId, boolean askedDirectly)
            implements BatchPhase<W> {
        public Allocating {
            writes = List.copyOf(writes);
        }
    }

    /** The batch got versions {@code first..} and its events are being written to the journal. */
    record Persisting<W>(long batchId, List<W> writes, String claimId, long first)
            implements BatchPhase<W> {
        public Persisting {
            writes = List.copyOf(writes);
        }
    }
}
