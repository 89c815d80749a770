package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One rule of a Role or ClusterRole ({@code rbac/v1 PolicyRule}), parsed once from its JSON. A rule
 * grants its verbs either on resources (API groups × resources, optionally only the named objects)
 * or on non-resource URLs. Matching is kube's {@code RuleAllows}.
 *
 * @param verbs the verbs, {@code *} for all
 * @param apiGroups the API groups, {@code ""} for core, {@code *} for all
 * @param resources the resources: {@code pods}, {@code pods/log}, <code>&#42;/scale</code>, {@code
 *     *}
 * @param resourceNames the object names; empty: any object
 * @param nonResourceURLs paths, exact or ending with {@code *} as a prefix match
 */
public record PolicyRule(
        List<String> verbs,
        List<String> apiGroups,
        List<String> resources,
        List<String> resourceNames,
        List<String> nonResourceURLs) {

    /** kube's wildcard for verbs, groups, resources and non-resource URLs. */
    public static final String ALL = "*";

    public PolicyRule {
        verbs = List.copyOf(verbs);
        apiGroups = List.copyOf(apiGroups);
        resources = List.copyOf(resources);
        resourceNames = List.copyOf(resourceNames);
        nonResourceURLs = List.copyOf(nonResourceURLs);
    }

    /** A resource rule. */
    public static PolicyRule resources(
            List<String> verbs,
            List<String> apiGroups,
            List<String> resources,
            List<String> resourceNames) {
        return new PolicyRule(verbs, apiGroups, resources, resourceNames, List.of());
    }

    /** A non-resource rule. */
    public static PolicyRule nonResource(List<String> verbs, List<String> urls) {
        return new PolicyRule(verbs, List.of(), List.of(), List.of(), urls);
    }

    /** Reads a {@code PolicyRule} object; missing or non-string entries are ignored. */
    public static PolicyRule fromJson(JsonNode rule) {
        return new PolicyRule(
                strings(rule.path("verbs")),
                strings(rule.path("apiGroups")),
                strings(rule.path("resources")),
                strings(rule.path("resourceNames")),
                strings(rule.path("nonResourceURLs")));
    }

    /** The rules of a Role's or ClusterRole's {@code rules} array. */
    public static List<PolicyRule> listFromJson(JsonNode rules) {
        List<PolicyRule> out = new ArrayList<>();
        for (JsonNode r : rules) {
            if (r.isObject()) {
                out.add(fromJson(r));
            }
        }
        return List.copyOf(out);
    }

    /** The rule as an rbac/v1 object, fields omitted when empty (as kube serializes it). */
    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        put(n, "verbs", verbs);
        put(n, "apiGroups", apiGroups);
        put(n, "resources", resources);
        put(n, "resourceNames", resourceNames);
        put(n, "nonResourceURLs", nonResourceURLs);
        return n;
    }

    /** kube's {@code RuleAllows}: whether this rule grants the request. */
    public boolean allows(AuthorizationAttributes a) {
        if (!verbMatches(a.verb())) {
            return false;
        }
        if (!a.resourceRequest()) {
            return nonResourceURLMatches(a.path());
        }
        String sub = a.subresource();
        String combined = sub.isEmpty() ? a.resource() : a.resource() + "/" + sub;
        return apiGroupMatches(a.apiGroup())
                && resourceMatches(combined, sub)
                && resourceNameMatches(a.name());
    }

    boolean verbMatches(String verb) {
        for (String v : verbs) {
            if (v.equals(ALL) || v.equals(verb)) {
                return true;
            }
        }
        return false;
    }

    boolean apiGroupMatches(String group) {
        for (String g : apiGroups) {
            if (g.equals(ALL) || g.equals(group)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code *} matches everything, including subresources; <code>&#42;/sub</code> matches that
     * subresource of any resource; otherwise the rule's entry must equal {@code resource/sub}.
     */
    boolean resourceMatches(String combined, String subresource) {
        for (String r : resources) {
            if (r.equals(ALL) || r.equals(combined)) {
                return true;
            }
            if (!subresource.isEmpty()
                    && r.length() == subresource.length() + 2
                    && r.startsWith("*/")
                    && r.endsWith(subresource)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A rule with resource names constrains only requests that carry a name: a list or a create
     * without a name has the empty name, which no rule's list holds, so it does not match.
     */
    boolean resourceNameMatches(String name) {
        return resourceNames.isEmpty() || resourceNames.contains(name);
    }

    boolean nonResourceURLMatches(String path) {
        for (String u : nonResourceURLs) {
            if (u.equals(ALL) || u.equals(path) || prefixCovers(u, path)) {
                return true;
            }
        }
        return false;
    }

    /** {@code /apis/*} covers {@code /apis/} and everything under it (every trailing star). */
    static boolean prefixCovers(String pattern, String path) {
        if (!pattern.endsWith("*")) {
            return false;
        }
        int end = pattern.length();
        while (end > 0 && pattern.charAt(end - 1) == '*') {
            end--;
        }
        return path.startsWith(pattern.substring(0, end));
    }

    /**
     * kube's {@code CompactString}, used in escalation messages: {@code {APIGroups:["apps"],
     * Resources:["deployments"], Verbs:["get" "list"]}}.
     */
    public String compactString() {
        List<String> parts = new ArrayList<>(5);
        part(parts, "APIGroups", apiGroups);
        part(parts, "Resources", resources);
        part(parts, "NonResourceURLs", nonResourceURLs);
        part(parts, "ResourceNames", resourceNames);
        part(parts, "Verbs", verbs);
        return "{" + String.join(", ", parts) + "}";
    }

    private static void part(List<String> parts, String label, List<String> values) {
        if (!values.isEmpty()) {
            parts.add(
                    label
                            + ":"
                            + values.stream()
                                    .map(FieldError::quote)
                                    .collect(Collectors.joining(" ", "[", "]")));
        }
    }

    private static void put(ObjectNode n, String field, List<String> values) {
        if (!values.isEmpty()) {
            ArrayNode a = n.putArray(field);
            values.forEach(a::add);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode v : array) {
            if (v.isTextual()) {
                out.add(v.asText());
            }
        }
        return out;
    }
}
