package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.selector.LabelSelector;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Cell values the workload printers share, read leniently from stored JSON: a missing or oddly
 * typed field gives the value Kubernetes shows for it once decoded and defaulted, never an
 * exception.
 */
final class WorkloadCells {
    private WorkloadCells() {}

    /** The names and the images of a pod template's containers, each comma-joined in order. */
    record Containers(String names, String images) {}

    static String name(JsonNode object) {
        return text(object.path("metadata").path("name"), "");
    }

    /** A scalar's text; {@code fallback} for a missing, null or structured node. */
    static String text(JsonNode node, String fallback) {
        if (node == null || node.isMissingNode() || node.isNull() || node.isContainerNode()) {
            return fallback;
        }
        return node.asText();
    }

    /** An int32 status counter; Go's zero value when unset. */
    static long count(JsonNode node) {
        return integer(node, 0);
    }

    /**
     * {@code spec.replicas} as the decoded object has it: Kubernetes defaults an unset one to 1.
     */
    static long replicas(JsonNode spec) {
        return integer(spec.path("replicas"), 1);
    }

    static long integer(JsonNode node, long fallback) {
        return node != null && node.isIntegralNumber() ? node.longValue() : fallback;
    }

    static boolean isSet(JsonNode node) {
        return node != null && !node.isMissingNode() && !node.isNull();
    }

    /** The cells of {@code -o wide}'s Containers and Images columns for a pod spec. */
    static Containers containers(JsonNode podSpec) {
        List<String> names = new ArrayList<>();
        List<String> images = new ArrayList<>();
        JsonNode list = podSpec.path("containers");
        if (list.isArray()) {
            for (JsonNode c : list) {
                names.add(text(c.path("name"), ""));
                images.add(text(c.path("image"), ""));
            }
        }
        return new Containers(String.join(",", names), String.join(",", images));
    }

    /**
     * A label map as Kubernetes' {@code labels.FormatLabels}: {@code k=v} pairs sorted as whole
     * strings (not by key, so {@code a-b=x} comes before {@code a=y}), {@code <none>} when empty.
     */
    static String labels(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return "<none>";
        }
        List<String> pairs = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            pairs.add(e.getKey() + "=" + text(e.getValue(), ""));
        }
        Collections.sort(pairs);
        return String.join(",", pairs);
    }

    /**
     * A {@code metav1.LabelSelector} as {@code metav1.FormatLabelSelector} prints it: the canonical
     * selector string ({@code app=x,tier in (a,b)}), {@code <none>} when it selects everything or
     * is absent, {@code <error>} when it does not convert.
     */
    static String labelSelector(JsonNode selector) {
        Optional<String> s = selectorString(selector);
        if (s.isEmpty()) {
            return "<error>";
        }
        return s.get().isEmpty() ? "<none>" : s.get();
    }

    /**
     * The canonical string of a {@code metav1.LabelSelector} (empty for an absent or empty one), or
     * nothing when it is invalid.
     */
    static Optional<String> selectorString(JsonNode selector) {
        try {
            return Optional.of(LabelSelector.fromObject(selector).toString());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A {@code *bool} as the printers show it: {@code True} or {@code False}. Kubernetes defaults
     * the fields printed this way, so an unset one reads as {@code fallback}.
     */
    static String bool(JsonNode node, boolean fallback) {
        boolean value = node != null && node.isBoolean() ? node.booleanValue() : fallback;
        return value ? "True" : "False";
    }

    /** An RFC 3339 timestamp; empty when unset or malformed. */
    static Optional<Instant> instant(JsonNode node) {
        if (node == null || !node.isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(node.textValue()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
