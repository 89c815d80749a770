package io.kubepekko.api.watch;

import java.util.List;

/**
 * One chunk of a list.
 *
 * @param items the matching objects' JSON, in key order (shared arrays: do not modify)
 * @param nextKey the cursor to continue after this page ({@link ObjectKey#toString()} of its last
 *     item), or {@code null} when nothing matching follows
 * @param remainingItemCount how many matching items follow this page. Exact even with selectors,
 *     but Kubernetes leaves {@code metadata.remainingItemCount} unset when a label or field
 *     selector was given, so callers omit it then
 */
public record Page(List<byte[]> items, String nextKey, long remainingItemCount) {

    public Page {
        items = List.copyOf(items);
    }
}
