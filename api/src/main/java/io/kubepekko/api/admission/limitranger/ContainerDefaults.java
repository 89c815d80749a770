package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * LimitRanger's defaults of one LimitRange applied to a pod ({@code PodMutateLimitFunc}): every
 * container, then every init container, gets the Container item's {@code default} limit and {@code
 * defaultRequest} of each resource it does not name, and the pod the annotation {@code
 * kubernetes.io/limit-ranger} listing what was set, in kube's words ({@code LimitRanger plugin set:
 * cpu, memory request for container app; cpu limit for container app}). A LimitRange that sets
 * nothing leaves the annotation as it is; one that sets something replaces it.
 */
final class ContainerDefaults {
    private ContainerDefaults() {}

    static final String ANNOTATION = "kubernetes.io/limit-ranger";

    /** {@code pod} itself when the LimitRange sets nothing, else a changed copy. */
    static ObjectNode apply(List<LimitRangeItem> items, ObjectNode pod) {
        SortedMap<String, Amount> requests = new TreeMap<>();
        SortedMap<String, Amount> limits = new TreeMap<>();
        for (LimitRangeItem item : items) {
            if (item.type().equals(LimitRangeItem.CONTAINER)) {
                requests.putAll(item.defaultRequest());
                limits.putAll(item.defaultLimit());
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return pod;
        }
        List<String> notes = new ArrayList<>();
        ObjectNode copy = null;
        for (String field : new String[] {"containers", "initContainers"}) {
            String label = field.equals("containers") ? "container" : "init container";
            JsonNode list = pod.path("spec").path(field);
            for (int i = 0; i < list.size(); i++) {
                JsonNode container = list.get(i);
                List<String> setRequests = missing(requests, container, "requests");
                List<String> setLimits = missing(limits, container, "limits");
                if (setRequests.isEmpty() && setLimits.isEmpty()) {
                    continue;
                }
                if (copy == null) {
                    copy = pod.deepCopy();
                }
                ObjectNode resources =
                        ((ObjectNode) copy.path("spec").path(field).get(i))
                                .withObjectProperty("resources");
                fill(resources, "limits", setLimits, limits);
                fill(resources, "requests", setRequests, requests);
                String name = container.path("name").asText("");
                if (!setRequests.isEmpty()) {
                    notes.add(
                            String.join(", ", setRequests) + " request for " + label + " " + name);
                }
                if (!setLimits.isEmpty()) {
                    notes.add(String.join(", ", setLimits) + " limit for " + label + " " + name);
                }
            }
        }
        if (copy == null) {
            return pod;
        }
        copy.withObjectProperty("metadata")
                .withObjectProperty("annotations")
                .put(ANNOTATION, "LimitRanger plugin set: " + String.join("; ", notes));
        return copy;
    }

    /** The resources of {@code defaults} the container's {@code which} list does not name. */
    private static List<String> missing(
            Map<String, Amount> defaults, JsonNode container, String which) {
        JsonNode named = container.path("resources").path(which);
        List<String> out = new ArrayList<>();
        for (String resource : defaults.keySet()) {
            if (!named.has(resource)) {
                out.add(resource);
            }
        }
        return out;
    }

    private static void fill(
            ObjectNode resources, String which, List<String> names, Map<String, Amount> values) {
        if (names.isEmpty()) {
            return;
        }
        ObjectNode list =
                resources.get(which) instanceof ObjectNode existing
                        ? existing
                        : resources.putObject(which);
        for (String name : names) {
            list.put(name, values.get(name).printed());
        }
    }
}
