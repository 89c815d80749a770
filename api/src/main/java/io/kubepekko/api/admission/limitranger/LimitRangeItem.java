package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One item of a LimitRange's {@code spec.limits}, its quantities parsed once when the index takes
 * the LimitRange in: the type it limits ({@code Container}, {@code Pod}, {@code
 * PersistentVolumeClaim}) and, by resource name, its bounds and defaults. Resource names are kept
 * in order, so the messages come in a fixed order (kube ranges over Go maps).
 *
 * @param defaultLimit the {@code default} limits
 */
record LimitRangeItem(
        String type,
        SortedMap<String, Amount> max,
        SortedMap<String, Amount> min,
        SortedMap<String, Amount> defaultLimit,
        SortedMap<String, Amount> defaultRequest,
        SortedMap<String, Amount> maxLimitRequestRatio) {

    static final String CONTAINER = "Container";
    static final String POD = "Pod";
    static final String PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim";

    /** The items of the LimitRange {@code limitRange} (defaults already applied). */
    static List<LimitRangeItem> of(JsonNode limitRange) {
        JsonNode limits = limitRange.path("spec").path("limits");
        if (!limits.isArray()) {
            return List.of();
        }
        List<LimitRangeItem> items = new ArrayList<>();
        for (JsonNode limit : limits) {
            items.add(
                    new LimitRangeItem(
                            limit.path("type").asText(""),
                            amounts(limit.get("max")),
                            amounts(limit.get("min")),
                            amounts(limit.get("default")),
                            amounts(limit.get("defaultRequest")),
                            amounts(limit.get("maxLimitRequestRatio"))));
        }
        return List.copyOf(items);
    }

    /** A resource list's quantities by name; one that is no quantity is left out. */
    static SortedMap<String, Amount> amounts(JsonNode list) {
        SortedMap<String, Amount> out = new TreeMap<>();
        if (list != null && list.isObject()) {
            for (Map.Entry<String, JsonNode> e : list.properties()) {
                Amount.of(e.getValue()).ifPresent(a -> out.put(e.getKey(), a));
            }
        }
        return Collections.unmodifiableSortedMap(out);
    }
}
