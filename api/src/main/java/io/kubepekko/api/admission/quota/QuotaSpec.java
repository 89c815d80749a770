package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A ResourceQuota as quota reads it: its name, its hard limits (an amount that is no quantity is
 * left out, as validation refuses it), the resources its status reports a usage of, and its scopes,
 * {@code spec.scopes} and {@code spec.scopeSelector}'s expressions alike (kube's {@code
 * getScopeSelectorsFromQuota}).
 *
 * @param hard admission's limits are {@code status.hard}, which the controller copies from {@code
 *     spec.hard} (kube's admission reads the status); the controller's are {@code spec.hard}
 * @param usedKnown the resources {@code status.used} names: admission refuses a write a quota
 *     limits before the controller reported their usage (kube's {@code hasUsageStats})
 */
public record QuotaSpec(
        String namespace,
        String name,
        SortedMap<String, QuotaAmount> hard,
        Set<String> usedKnown,
        List<Scope> scopes) {

    /**
     * One scope requirement: a scope name, an operator ({@code In}, {@code NotIn}, {@code Exists},
     * {@code DoesNotExist}) and values.
     */
    public record Scope(String name, String operator, List<String> values) {}

    public QuotaSpec {
        hard = new TreeMap<>(hard);
        usedKnown = Set.copyOf(usedKnown);
        scopes = List.copyOf(scopes);
    }

    /**
     * The quota {@code resourceQuota} (a stored ResourceQuota) enforces in admission: its {@code
     * status.hard}, and the resources of its {@code status.used}.
     */
    public static QuotaSpec of(JsonNode resourceQuota) {
        JsonNode status = resourceQuota.path("status");
        Set<String> used = new HashSet<>();
        status.path("used").properties().forEach(e -> used.add(e.getKey()));
        return read(resourceQuota, status.path("hard"), used);
    }

    /**
     * The quota {@code resourceQuota} asks for, as the controller reads it: its {@code spec.hard},
     * every usage known (the controller is the one that reports it).
     */
    public static QuotaSpec desired(JsonNode resourceQuota) {
        JsonNode hard = resourceQuota.path("spec").path("hard");
        Set<String> all = new HashSet<>();
        hard.properties().forEach(e -> all.add(e.getKey()));
        return read(resourceQuota, hard, all);
    }

    /**
     * Every resource name {@code resourceQuota} limits in its {@code spec.hard} or its {@code
     * status.hard}: what the controller counts (the spec) and what admission enforces (the status,
     * which lags the spec until the controller writes it).
     */
    public static Set<String> limitedNames(JsonNode resourceQuota) {
        Set<String> names = new TreeSet<>();
        resourceQuota.path("spec").path("hard").fieldNames().forEachRemaining(names::add);
        resourceQuota.path("status").path("hard").fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static QuotaSpec read(JsonNode resourceQuota, JsonNode hardNode, Set<String> used) {
        JsonNode spec = resourceQuota.path("spec");
        SortedMap<String, QuotaAmount> hard = new TreeMap<>();
        hardNode.properties()
                .forEach(e -> QuotaAmount.of(e.getValue()).ifPresent(a -> hard.put(e.getKey(), a)));
        List<Scope> scopes = new ArrayList<>();
        for (JsonNode s : spec.path("scopes")) {
            scopes.add(new Scope(s.asText(), "Exists", List.of()));
        }
        for (JsonNode e : spec.path("scopeSelector").path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            e.path("values").forEach(v -> values.add(v.asText()));
            scopes.add(
                    new Scope(e.path("scopeName").asText(), e.path("operator").asText(), values));
        }
        JsonNode meta = resourceQuota.path("metadata");
        return new QuotaSpec(
                meta.path("namespace").asText(""),
                meta.path("name").asText(""),
                hard,
                used,
                scopes);
    }
}
