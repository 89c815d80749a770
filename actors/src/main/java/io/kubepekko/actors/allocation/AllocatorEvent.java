package io.kubepekko.actors.allocation;

import io.kubepekko.persistence.CborSerializable;
import java.util.List;

/** Events of {@link ValueAllocator}; facts, never renamed. */
public sealed interface AllocatorEvent extends CborSerializable {

    /**
     * {@code collection} claimed {@code keys} (by claim {@code claimId}, or adopted by a
     * reconciliation).
     */
    record ValuesClaimed(String collection, String claimId, List<String> keys)
            implements AllocatorEvent {}

    /** {@code keys} owned by {@code collection} are free again. */
    record ValuesReleased(String collection, List<String> keys) implements AllocatorEvent {}
}
