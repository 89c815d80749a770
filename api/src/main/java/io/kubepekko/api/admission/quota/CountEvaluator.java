package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import java.time.Instant;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's object count evaluator: each stored object counts one {@code count/<resource>[.<group>]},
 * and for the kinds quota counted before that syntax, one under the old name too ({@code
 * configmaps}, {@code secrets}, ...). Only creates are charged.
 */
final class CountEvaluator implements QuotaEvaluator {

    private final GroupResource resource;
    private final Set<String> names;

    /**
     * @param alias the old name counted too, or null
     */
    CountEvaluator(GroupResource resource, String alias) {
        this.resource = resource;
        this.names =
                alias == null
                        ? Set.of(QuotaEvaluator.countName(resource))
                        : Set.of(QuotaEvaluator.countName(resource), alias);
    }

    @Override
    public GroupResource resource() {
        return resource;
    }

    @Override
    public boolean handles(Operation operation, String subresource) {
        return operation == Operation.CREATE && subresource.isEmpty();
    }

    @Override
    public Set<String> matchingResources(Set<String> hard) {
        Set<String> matching = new TreeSet<>(hard);
        matching.retainAll(names);
        return matching;
    }

    @Override
    public SortedMap<String, QuotaAmount> usage(JsonNode object, Instant now) {
        SortedMap<String, QuotaAmount> usage = new TreeMap<>();
        names.forEach(n -> usage.put(n, QuotaAmount.ONE));
        return usage;
    }
}
