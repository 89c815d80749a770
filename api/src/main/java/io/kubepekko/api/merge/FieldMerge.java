package io.kubepekko.api.merge;

import java.util.List;

/**
 * How one field merges, as Kubernetes declares it on the Go type: the strategic-merge-patch tags
 * ({@code patchStrategy}, {@code patchMergeKey}) and the server-side-apply markers ({@code
 * listType}, {@code listMapKey}, {@code mapType}, {@code structType}). Absent values are null (or
 * empty).
 */
public record FieldMerge(
        String patchStrategy,
        String patchMergeKey,
        String listType,
        List<String> listMapKeys,
        String mapType,
        String structType) {

    /** A field without any marker: lists are replaced whole by a patch, maps and structs merge. */
    public static final FieldMerge NONE = new FieldMerge(null, null, null, List.of(), null, null);

    /** Whether a strategic merge patch merges this list (instead of replacing it). */
    public boolean mergesList() {
        return patchStrategy != null && List.of(patchStrategy.split(",")).contains("merge");
    }

    /** Whether a strategic merge patch may carry {@code $retainKeys} for this field. */
    public boolean retainsKeys() {
        return patchStrategy != null && List.of(patchStrategy.split(",")).contains("retainKeys");
    }

    /** Whether a patch replaces this field whole. */
    public boolean replaces() {
        return "replace".equals(patchStrategy);
    }
}
