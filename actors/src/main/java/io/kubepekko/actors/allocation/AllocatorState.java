package io.kubepekko.actors.allocation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.allocation.AllocatorEvent.ValuesClaimed;
import io.kubepekko.actors.allocation.AllocatorEvent.ValuesReleased;
import io.kubepekko.api.alloc.Claims;
import io.kubepekko.persistence.CborSerializable;
import java.util.Map;
import java.util.TreeMap;
import org.pcollections.TreePMap;

/**
 * The state of a {@link ValueAllocator}: every value that is claimed or held, as its {@link
 * Claims#key}, and its owner.
 */
public record AllocatorState(TreePMap<String, AllocatorState.Owner> owners)
        implements CborSerializable {

    /**
     * Who holds a value: the collection (entity id) and the claim that took it, which a collection
     * names while the claim's batch is in flight.
     */
    public record Owner(String collection, String claim) implements CborSerializable {}

    static final AllocatorState EMPTY = new AllocatorState(TreePMap.empty());

    @JsonCreator
    static AllocatorState fromJson(@JsonProperty("owners") Map<String, Owner> owners) {
        return new AllocatorState(TreePMap.from(owners == null ? Map.of() : owners));
    }

    @JsonProperty("owners")
    Map<String, Owner> ownersForJson() {
        return new TreeMap<>(owners);
    }

    AllocatorState apply(AllocatorEvent event) {
        if (event instanceof ValuesClaimed c) {
            return new AllocatorState(Ownership.claimed(owners, c));
        }
        ValuesReleased r = (ValuesReleased) event;
        return new AllocatorState(Ownership.released(owners, r.collection(), r.keys()));
    }
}
