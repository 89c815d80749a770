package io.kubepekko.api.watch;

import java.util.List;

/**
 * One list response cut from a snapshot: the items, the list's {@code metadata.resourceVersion}
 * (the snapshot's, on every page), the continue token when more items follow, and {@code
 * remainingItemCount} where Kubernetes reports it (paged, not the last page, no selector).
 *
 * @param items the items' stored JSON, in key order (shared arrays)
 * @param continueToken the encoded token for the next page, or {@code null} on the last page
 * @param remainingItemCount how many items follow, or {@code null} when not reported
 */
public record ListChunk(
        List<byte[]> items, long resourceVersion, String continueToken, Long remainingItemCount) {

    /**
     * Cuts the page {@code options} ask for out of {@code snapshot}.
     *
     * @param namespace the listed namespace, or {@code null} for all
     */
    public static ListChunk of(
            Snapshot snapshot, String namespace, Selection selection, ReadOptions options) {
        // kube-apiserver serves resourceVersion="0" from its cache whole, ignoring limit.
        int limit =
                options.mode() instanceof ReadOptions.Mode.Any
                        ? 0
                        : (int) Math.min(Integer.MAX_VALUE, options.limit());
        Page page =
                options.mode() instanceof ReadOptions.Mode.Continue c
                        ? snapshot.continueAt(namespace, selection, limit, c.token().startKey())
                        : snapshot.list(namespace, selection, limit, null);
        if (page.nextKey() == null) {
            return new ListChunk(page.items(), snapshot.resourceVersion(), null, null);
        }
        // Like kube-apiserver, the token's start is the last key with NUL appended: the least key
        // after it.
        String token =
                new ContinueToken(snapshot.resourceVersion(), page.nextKey() + '\0').encode();
        Long remaining = selection.isEverything() ? page.remainingItemCount() : null;
        return new ListChunk(page.items(), snapshot.resourceVersion(), token, remaining);
    }
}
