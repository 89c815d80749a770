package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.TopLevelFields;
import io.kubepekko.api.registry.VersionConversion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * events.k8s.io/v1 Events and their stored form, core/v1 Events (kube's {@code
 * Convert_v1_Event_To_core_Event} and back, through the internal Event both versions share). The
 * two are the same fields under other names: {@code regarding} is {@code involvedObject}, {@code
 * note} is {@code message}, {@code reportingController} is {@code reportingComponent}, and the
 * fields events.k8s.io deprecated keep their values as {@code deprecatedSource}, {@code
 * deprecatedFirstTimestamp}, {@code deprecatedLastTimestamp} and {@code deprecatedCount}. Renaming
 * is therefore lossless both ways; every other field keeps its name and value.
 *
 * <p>Fields come out in the order of the target version's Go struct (the order kube-apiserver
 * writes them), fields neither version knows after them.
 */
public final class EventsV1Conversion implements VersionConversion {

    public static final EventsV1Conversion INSTANCE = new EventsV1Conversion();

    /** events.k8s.io/v1 name to core/v1 name, for the fields that differ. */
    private static final Map<String, String> TO_CORE =
            Map.of(
                    "regarding", "involvedObject",
                    "note", "message",
                    "reportingController", "reportingComponent",
                    "deprecatedSource", "source",
                    "deprecatedFirstTimestamp", "firstTimestamp",
                    "deprecatedLastTimestamp", "lastTimestamp",
                    "deprecatedCount", "count");

    private static final Map<String, String> TO_EVENTS = inverse(TO_CORE);

    /** core/v1 Event's fields in its Go struct's order. */
    private static final List<String> CORE_ORDER =
            List.of(
                    "kind",
                    "apiVersion",
                    "metadata",
                    "involvedObject",
                    "reason",
                    "message",
                    "source",
                    "firstTimestamp",
                    "lastTimestamp",
                    "count",
                    "type",
                    "eventTime",
                    "series",
                    "action",
                    "related",
                    "reportingComponent",
                    "reportingInstance");

    /** events.k8s.io/v1 Event's fields in its Go struct's order. */
    private static final List<String> EVENTS_ORDER =
            List.of(
                    "kind",
                    "apiVersion",
                    "metadata",
                    "eventTime",
                    "series",
                    "reportingController",
                    "reportingInstance",
                    "action",
                    "reason",
                    "regarding",
                    "related",
                    "note",
                    "type",
                    "deprecatedSource",
                    "deprecatedFirstTimestamp",
                    "deprecatedLastTimestamp",
                    "deprecatedCount");

    /** The renaming from core/v1 to events.k8s.io/v1, done on stored bytes. */
    private static final TopLevelFields TO_EVENTS_BYTES =
            TopLevelFields.renaming(TO_EVENTS, EVENTS_ORDER);

    /**
     * kube's field label conversion for events.k8s.io/v1 Events: the labels it accepts, mapped to
     * the core/v1 labels its selectable fields are kept under.
     */
    private static final Map<String, String> FIELD_LABELS =
            Map.of(
                    "regarding.kind", "involvedObject.kind",
                    "regarding.namespace", "involvedObject.namespace",
                    "regarding.name", "involvedObject.name",
                    "regarding.uid", "involvedObject.uid",
                    "regarding.apiVersion", "involvedObject.apiVersion",
                    "regarding.resourceVersion", "involvedObject.resourceVersion",
                    "regarding.fieldPath", "involvedObject.fieldPath",
                    "reportingController", "reportingComponent");

    private EventsV1Conversion() {}

    @Override
    public ObjectNode toStorage(ObjectNode served) {
        return renamed(served, TO_CORE, CORE_ORDER);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        return renamed(stored, TO_EVENTS, EVENTS_ORDER);
    }

    /** Renaming only: done on the bytes, values copied as they are stored. */
    @Override
    public byte[] fromStorageJson(byte[] stored, GroupVersionKind served) {
        return TO_EVENTS_BYTES.rewrite(stored, served.kind(), served.apiVersion());
    }

    @Override
    public Map<String, String> fieldLabels() {
        return FIELD_LABELS;
    }

    /**
     * A new object with {@code from}'s top-level fields renamed by {@code names} (the others as
     * they are), in {@code order}, then any field {@code order} does not name. Values are shared,
     * not copied.
     */
    private static ObjectNode renamed(
            ObjectNode from, Map<String, String> names, List<String> order) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : from.properties()) {
            fields.put(names.getOrDefault(e.getKey(), e.getKey()), e.getValue());
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        for (String name : order) {
            JsonNode value = fields.remove(name);
            if (value != null) {
                out.set(name, value);
            }
        }
        fields.forEach(out::set);
        return out;
    }

    private static Map<String, String> inverse(Map<String, String> map) {
        Map<String, String> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(v, k));
        return Map.copyOf(out);
    }
}
