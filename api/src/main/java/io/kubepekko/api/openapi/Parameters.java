package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters kube-apiserver lists on its operations, by name. Query parameters are written on
 * each operation (sorted by name, as Kubernetes sorts them), never only on the path item: kubectl's
 * field-validation check reads the patch operation's own parameter list.
 */
final class Parameters {
    private Parameters() {}

    /** Parameters of a list or watch. */
    static final List<String> LIST =
            List.of(
                    "allowWatchBookmarks",
                    "continue",
                    "fieldSelector",
                    "labelSelector",
                    "limit",
                    "resourceVersion",
                    "resourceVersionMatch",
                    "sendInitialEvents",
                    "timeoutSeconds",
                    "watch");

    static final List<String> CREATE = List.of("dryRun", "fieldManager", "fieldValidation");
    static final List<String> UPDATE = CREATE;
    static final List<String> PATCH = List.of("dryRun", "fieldManager", "fieldValidation", "force");
    static final List<String> DELETE = List.of("dryRun", "gracePeriodSeconds", "propagationPolicy");
    static final List<String> DELETE_COLLECTION =
            List.of(
                    "continue",
                    "dryRun",
                    "fieldSelector",
                    "gracePeriodSeconds",
                    "labelSelector",
                    "limit",
                    "propagationPolicy",
                    "resourceVersion",
                    "resourceVersionMatch",
                    "sendInitialEvents",
                    "timeoutSeconds");

    private record Query(String type, String description) {}

    private static final Map<String, Query> QUERY =
            new TreeMap<>(
                    Map.ofEntries(
                            Map.entry(
                                    "pretty",
                                    new Query("string", "Set to 'true' to indent the response.")),
                            Map.entry(
                                    "allowWatchBookmarks",
                                    new Query(
                                            "boolean",
                                            "Ask a watch for BOOKMARK events, which carry only a resourceVersion.")),
                            Map.entry(
                                    "continue",
                                    new Query(
                                            "string",
                                            "The continue token of the previous chunk of a paginated list.")),
                            Map.entry(
                                    "fieldSelector",
                                    new Query(
                                            "string",
                                            "Only objects whose fields match this selector.")),
                            Map.entry(
                                    "labelSelector",
                                    new Query(
                                            "string",
                                            "Only objects whose labels match this selector.")),
                            Map.entry(
                                    "limit",
                                    new Query(
                                            "integer",
                                            "The most items to return; a continue token is returned when more remain.")),
                            Map.entry(
                                    "resourceVersion",
                                    new Query(
                                            "string",
                                            "Which state of the data a list or watch starts from; see resourceVersionMatch.")),
                            Map.entry(
                                    "resourceVersionMatch",
                                    new Query(
                                            "string",
                                            "How resourceVersion is compared: Exact or NotOlderThan.")),
                            Map.entry(
                                    "sendInitialEvents",
                                    new Query(
                                            "boolean",
                                            "With watch=true, start with ADDED events for the current state, ended by a bookmark "
                                                    + "annotated k8s.io/initial-events-end.")),
                            Map.entry(
                                    "timeoutSeconds",
                                    new Query("integer", "Time limit of a list or watch call.")),
                            Map.entry(
                                    "watch",
                                    new Query(
                                            "boolean",
                                            "Stream changes instead of returning a list.")),
                            Map.entry(
                                    "dryRun",
                                    new Query(
                                            "string",
                                            "'All' processes the request fully without persisting it.")),
                            Map.entry(
                                    "fieldManager",
                                    new Query(
                                            "string",
                                            "Name of the actor making the change, recorded in managedFields; required for apply.")),
                            Map.entry(
                                    "fieldValidation",
                                    new Query(
                                            "string",
                                            "How the server treats unknown or duplicate fields: Ignore, Warn or Strict.")),
                            Map.entry(
                                    "force",
                                    new Query(
                                            "boolean",
                                            "Apply only: take ownership of fields other managers own instead of reporting a conflict.")),
                            Map.entry(
                                    "gracePeriodSeconds",
                                    new Query(
                                            "integer",
                                            "Seconds before the object is deleted; 0 deletes immediately.")),
                            Map.entry(
                                    "propagationPolicy",
                                    new Query(
                                            "string",
                                            "What happens to dependents: Orphan, Background or Foreground."))));

    /** A query parameter by name; unknown names are a programming error. */
    static ObjectNode query(String name) {
        Query q = QUERY.get(name);
        if (q == null) {
            throw new IllegalArgumentException("no query parameter " + name);
        }
        ObjectNode p = Json.MAPPER.createObjectNode();
        p.put("name", name);
        p.put("in", "query");
        p.put("description", q.description());
        p.putObject("schema").put("type", q.type());
        return p;
    }

    /** The named query parameters, sorted by name. */
    static ArrayNode queries(List<String> names) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        names.stream().sorted().forEach(n -> out.add(query(n)));
        return out;
    }

    /** A required string path parameter ({@code name} or {@code namespace}). */
    static ObjectNode path(String name, String description) {
        ObjectNode p = Json.MAPPER.createObjectNode();
        p.put("name", name);
        p.put("in", "path");
        p.put("description", description);
        p.put("required", true);
        p.putObject("schema").put("type", "string");
        return p;
    }

    static ObjectNode name(String kind) {
        return path("name", "name of the " + kind);
    }

    static ObjectNode namespace() {
        return path("namespace", "the namespace holding the object");
    }
}
