package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What an informer keeps current for an admission plugin (kube's informer lister): a relist
 * replaces every object, a watch event puts or removes one. Implementations are read inside writes
 * without waiting, so they publish what they hold as snapshots.
 */
public interface InformedIndex {

    /** A relist: what is listed now is all there is (also called with none when not served). */
    void replace(List<? extends JsonNode> objects);

    /** An object added or changed. */
    void put(JsonNode object);

    /** An object deleted. */
    void remove(JsonNode object);
}
