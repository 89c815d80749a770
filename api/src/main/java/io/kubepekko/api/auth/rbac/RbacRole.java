package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.selector.LabelSelector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Role (namespaced) or ClusterRole (namespace empty), parsed once from its stored object.
 *
 * @param namespace the Role's namespace; empty for a ClusterRole
 * @param name the name
 * @param labels the labels, which aggregation selectors match
 * @param rules the rules
 * @param aggregated whether the ClusterRole has an {@code aggregationRule}: its rules are then
 *     computed from other ClusterRoles
 * @param aggregationSelectors the aggregation rule's {@code clusterRoleSelectors}
 */
public record RbacRole(
        String namespace,
        String name,
        Map<String, String> labels,
        List<PolicyRule> rules,
        boolean aggregated,
        List<LabelSelector> aggregationSelectors) {

    public RbacRole {
        namespace = namespace == null ? "" : namespace;
        labels = Map.copyOf(labels);
        rules = List.copyOf(rules);
        aggregationSelectors = List.copyOf(aggregationSelectors);
    }

    /** A ClusterRole with rules and no aggregation. */
    public static RbacRole cluster(String name, List<PolicyRule> rules) {
        return new RbacRole("", name, Map.of(), rules, false, List.of());
    }

    /** A Role with rules. */
    public static RbacRole namespaced(String namespace, String name, List<PolicyRule> rules) {
        return new RbacRole(namespace, name, Map.of(), rules, false, List.of());
    }

    /**
     * Reads a Role or ClusterRole object. A selector that does not parse selects nothing (kube's
     * validation rejects such roles on write, so only a hand-edited store has one).
     */
    public static RbacRole fromJson(JsonNode obj) {
        JsonNode meta = obj.path("metadata");
        List<LabelSelector> selectors = new ArrayList<>();
        for (JsonNode s : obj.path("aggregationRule").path("clusterRoleSelectors")) {
            try {
                selectors.add(LabelSelector.fromObject(s));
            } catch (RuntimeException e) {
                selectors.add(LabelSelector.nothing());
            }
        }
        return new RbacRole(
                meta.path("namespace").asText(""),
                meta.path("name").asText(""),
                labelsOf(meta.path("labels")),
                PolicyRule.listFromJson(obj.path("rules")),
                obj.path("aggregationRule").isObject(),
                selectors);
    }

    /** A ClusterRole whose rules are aggregated from the ClusterRoles the selectors match. */
    public static RbacRole aggregating(
            String name, Map<String, String> labels, List<LabelSelector> selectors) {
        return new RbacRole("", name, labels, List.of(), true, selectors);
    }

    /** The same role with other rules (aggregation's result). */
    public RbacRole withRules(List<PolicyRule> newRules) {
        return new RbacRole(namespace, name, labels, newRules, aggregated, aggregationSelectors);
    }

    private static Map<String, String> labelsOf(JsonNode labels) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isTextual()) {
                out.put(e.getKey(), e.getValue().asText());
            }
        }
        return out;
    }
}
