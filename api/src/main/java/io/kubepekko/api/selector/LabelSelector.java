package io.kubepekko.api.selector;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/** Label selector (placeholder until the selector work lands). */
public final class LabelSelector {
    private final Map<String, String> equals;

    private LabelSelector(Map<String, String> equals) {
        this.equals = equals;
    }

    public static LabelSelector parse(String s) {
        Map<String, String> m = new TreeMap<>();
        if (s != null && !s.isBlank()) {
            for (String part : s.split(",")) {
                String[] kv = part.split("==?", 2);
                m.put(kv[0].trim(), kv.length > 1 ? kv[1].trim() : "");
            }
        }
        return new LabelSelector(m);
    }

    public static LabelSelector fromObject(JsonNode selector) {
        Map<String, String> m = new TreeMap<>();
        selector.path("matchLabels").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asText()));
        return new LabelSelector(m);
    }

    public boolean isEmpty() {
        return equals.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        return equals.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",");
        equals.forEach((k, v) -> j.add(k + "=" + v));
        return j.toString();
    }
}
