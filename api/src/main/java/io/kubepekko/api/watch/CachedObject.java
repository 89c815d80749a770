package io.kubepekko.api.watch;

import java.util.Map;

/**
 * One object as the watch cache holds it: its JSON exactly as stored (never re-serialized, so a
 * list response is a concatenation of ready bytes) plus the few values selectors need, extracted
 * once when the object entered the cache. About the size of the JSON, unlike a Jackson tree.
 *
 * <p>The byte array is shared, not copied: nobody may modify it. Equality is identity of the bytes,
 * which is all the cache needs.
 *
 * @param resourceVersion the version of the write that produced this state
 * @param labels {@code metadata.labels}
 * @param fields every field-selector label the kind supports and its value ({@link
 *     io.kubepekko.api.selector.FieldSelector#valueReader})
 */
public record CachedObject(
        ObjectKey key,
        long resourceVersion,
        byte[] json,
        Map<String, String> labels,
        Map<String, String> fields) {

    public CachedObject {
        labels = Map.copyOf(labels);
        fields = Map.copyOf(fields);
    }

    @Override
    public String toString() {
        return "CachedObject[" + key + "@" + resourceVersion + ", " + json.length + " bytes]";
    }
}
