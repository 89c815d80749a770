package io.kubepekko.actors.sequencing;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.kubepekko.actors.sequencing.RevisionsEvent.BlockReserved;
import io.kubepekko.actors.sequencing.RevisionsEvent.CollectionAdded;
import io.kubepekko.actors.sequencing.RevisionsEvent.HandedOver;
import io.kubepekko.persistence.CborSerializable;
import java.util.Set;
import java.util.TreeSet;
import org.pcollections.HashTreePSet;
import org.pcollections.PSet;

/**
 * The durable state of {@link Revisions}: the highest reserved version, the namespaces that have
 * been written, and — only right after an orderly hand-over, until the next event — where the
 * stream stood (see {@link RevisionsEvent.HandedOver}).
 */
public record RevisionsState(long reservedUpTo, PSet<String> namespaces, HandedOver handedOver)
        implements CborSerializable {
    /**
     * A group-resource never written is at version 1, not 0: a list's resourceVersion "0" would
     * mean "any version" to a client that watches from it.
     */
    static final RevisionsState EMPTY = new RevisionsState(1, HashTreePSet.empty(), null);

    @JsonCreator
    static RevisionsState fromJson(
            @JsonProperty("reservedUpTo") long reservedUpTo,
            @JsonProperty("namespaces") Set<String> namespaces,
            @JsonProperty("handedOver") HandedOver handedOver) {
        return new RevisionsState(
                reservedUpTo,
                HashTreePSet.from(namespaces == null ? Set.of() : namespaces),
                handedOver);
    }

    @JsonProperty("namespaces")
    Set<String> namespacesForJson() {
        return new TreeSet<>(namespaces);
    }

    RevisionsState apply(RevisionsEvent event) {
        if (event instanceof BlockReserved b) {
            return new RevisionsState(b.upTo(), namespaces, null);
        }
        if (event instanceof HandedOver h) {
            return new RevisionsState(reservedUpTo, namespaces, h);
        }
        return new RevisionsState(
                reservedUpTo, namespaces.plus(((CollectionAdded) event).namespace()), null);
    }
}
