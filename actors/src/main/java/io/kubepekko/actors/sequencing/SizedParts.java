package io.kubepekko.actors.sequencing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A list cut, in order, into parts of about {@code maxBytes} each, so that a message between nodes
 * stays well under Artery's frame size. A part is never empty unless the list is, and a single item
 * larger than the limit is a part of its own: every item goes somewhere.
 */
final class SizedParts {
    private SizedParts() {}

    /** The parts in order; the list itself (not a copy) when it fits in one part. */
    static <T> List<List<T>> split(List<T> items, ToLongFunction<? super T> size, long maxBytes) {
        List<List<T>> out = new ArrayList<>(1);
        int start = 0;
        long bytes = 0;
        for (int i = 0; i < items.size(); i++) {
            long itemBytes = size.applyAsLong(items.get(i));
            if (i > start && bytes + itemBytes > maxBytes) {
                out.add(List.copyOf(items.subList(start, i)));
                start = i;
                bytes = 0;
            }
            bytes += itemBytes;
        }
        out.add(start == 0 ? items : List.copyOf(items.subList(start, items.size())));
        return out;
    }
}
