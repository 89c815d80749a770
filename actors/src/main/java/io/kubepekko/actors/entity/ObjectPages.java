package io.kubepekko.actors.entity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * Pages of a collection's objects small enough to cross between nodes (see {@link
 * CollectionProtocol.ListObjects}).
 */
final class ObjectPages {

    private ObjectPages() {}

    /**
     * The objects named after {@code after} (from the first when null), in name order, up to about
     * {@code maxBytes} (at least one).
     */
    static CollectionProtocol.Items page(CollectionState state, String after, int maxBytes) {
        SortedMap<String, byte[]> from =
                after == null ? state.objects() : state.objects().tailMap(after, false);
        List<byte[]> out = new ArrayList<>();
        long bytes = 0;
        String last = null;
        for (Map.Entry<String, byte[]> e : from.entrySet()) {
            if (!out.isEmpty() && bytes + e.getValue().length > maxBytes) {
                return new CollectionProtocol.Items(out, state.lastVersion(), last);
            }
            out.add(e.getValue());
            bytes += e.getValue().length;
            last = e.getKey();
        }
        return new CollectionProtocol.Items(out, state.lastVersion(), null);
    }
}
