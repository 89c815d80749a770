package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A ResourceQuota as quota reads it: its name, its hard limits (from {@code spec.hard}; an amount
 * that is no quantity is left out, as validation refuses it) and its scopes, {@code spec.scopes}
 * and {@code spec.scopeSelector}'s expressions alike (kube's {@code getScopeSelectorsFromQuota}).
 */
public record QuotaSpec(
        String namespace, String name, SortedMap<String, QuotaAmount> hard, List<Scope> scopes) {

    /**
     * One scope requirement: a scope name, an operator ({@code In}, {@code NotIn}, {@code Exists},
     * {@code DoesNotExist}) and values.
     */
    public record Scope(String name, String operator, List<String> values) {}

    public QuotaSpec {
        hard = new TreeMap<>(hard);
        scopes = List.copyOf(scopes);
    }

    /** The quota {@code resourceQuota} (a stored ResourceQuota) sets. */
    public static QuotaSpec of(JsonNode resourceQuota) {
        JsonNode spec = resourceQuota.path("spec");
        SortedMap<String, QuotaAmount> hard = new TreeMap<>();
        spec.path("hard")
                .properties()
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
                meta.path("namespace").asText(""), meta.path("name").asText(""), hard, scopes);
    }
}
