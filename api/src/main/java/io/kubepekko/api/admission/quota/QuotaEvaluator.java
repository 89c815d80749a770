package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * kube's {@code quota.Evaluator} of one resource: which writes it charges, what an object uses,
 * which quota resources and scopes concern it, and what a quota requires the object to state.
 */
public interface QuotaEvaluator {

    /** The resource evaluated. */
    GroupResource resource();

    /** The identity fields every evaluator reads of an observed object. */
    Set<String> IDENTITY = Set.of("metadata.name", "metadata.namespace", "metadata.uid");

    /**
     * The dotted paths of a stored object its usage and scopes read (an informer parses only
     * these): by default its identity, which an object count needs.
     */
    default Set<String> readFields() {
        return IDENTITY;
    }

    /** Whether a write of the object ({@code subresource} empty) or a subresource is charged. */
    boolean handles(Operation operation, String subresource);

    /** What {@code object} uses at {@code now}. */
    SortedMap<String, QuotaAmount> usage(JsonNode object, Instant now);

    /** The names among {@code hard} this resource's objects use. */
    Set<String> matchingResources(Set<String> hard);

    /** Whether {@code object} is in {@code scope}; a resource without scopes is in none. */
    default boolean inScope(QuotaSpec.Scope scope, JsonNode object) {
        return false;
    }

    /**
     * kube's {@code Constraints}: why {@code object} cannot be charged for {@code required}, or
     * empty.
     */
    default Optional<String> constraints(Set<String> required, JsonNode object) {
        return Optional.empty();
    }

    /**
     * kube's {@code generic.Matches}: the quota limits a resource of this one's and {@code object}
     * is in each of its scopes.
     */
    default boolean matches(QuotaSpec quota, JsonNode object) {
        if (matchingResources(quota.hard().keySet()).isEmpty()) {
            return false;
        }
        for (QuotaSpec.Scope scope : quota.scopes()) {
            if (!inScope(scope, object)) {
                return false;
            }
        }
        return true;
    }

    /**
     * kube's object count name: {@code count/<resource>} in core, else {@code
     * count/<resource>.<group>}.
     */
    static String countName(GroupResource resource) {
        return "count/"
                + resource.resource()
                + (resource.group().isEmpty() ? "" : "." + resource.group());
    }

    /** Adds {@code amount} under {@code name}. */
    static void put(Map<String, QuotaAmount> usage, String name, QuotaAmount amount) {
        usage.merge(name, amount, QuotaAmount::plus);
    }
}
