package io.kubepekko.api.codec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * What a list carries besides its items: its type and its {@code metadata} (never a {@code
 * selfLink}: kube has not set one since RemoveSelfLink went GA).
 *
 * @param continueToken the token of the next page, or null
 * @param remainingItemCount how many items follow, or null when not reported
 */
public record ListHead(
        String apiVersion,
        String kind,
        long resourceVersion,
        String continueToken,
        Long remainingItemCount) {

    /** The list's {@code metadata} (a ListMeta). */
    public ObjectNode metadata() {
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        meta.put("resourceVersion", Long.toString(resourceVersion));
        if (continueToken != null) {
            meta.put("continue", continueToken);
        }
        if (remainingItemCount != null) {
            meta.put("remainingItemCount", remainingItemCount);
        }
        return meta;
    }

    /** The list's fields before {@code items}, in the order they are written. */
    ObjectNode fields() {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("kind", kind);
        list.put("apiVersion", apiVersion);
        list.set("metadata", metadata());
        return list;
    }

    /** The list's compact JSON up to the opening bracket of {@code items}. */
    public byte[] json() {
        StringBuilder b =
                new StringBuilder(128)
                        .append("{\"kind\":\"")
                        .append(kind)
                        .append("\",\"apiVersion\":\"")
                        .append(apiVersion)
                        .append("\",\"metadata\":{");
        b.append("\"resourceVersion\":\"").append(resourceVersion).append('"');
        if (continueToken != null) {
            b.append(",\"continue\":\"").append(continueToken).append('"');
        }
        if (remainingItemCount != null) {
            b.append(",\"remainingItemCount\":").append(remainingItemCount);
        }
        return b.append("},\"items\":[").toString().getBytes(StandardCharsets.UTF_8);
    }
}
