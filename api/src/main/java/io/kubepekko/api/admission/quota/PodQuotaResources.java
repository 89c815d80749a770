package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A pod's requests or limits as quota charges them (kube's {@code resourcehelper.PodRequests} and
 * {@code PodLimits}): the containers and sidecars summed or, if larger, the most an init container
 * needs with the sidecars started before it; pod-level {@code spec.resources} for cpu and memory
 * replace the sum; then the pod's {@code overhead} is added.
 */
final class PodQuotaResources {
    private PodQuotaResources() {}

    private static final Set<String> POD_LEVEL = Set.of("cpu", "memory");

    static SortedMap<String, QuotaAmount> requests(JsonNode podSpec) {
        return aggregate(podSpec, "requests");
    }

    static SortedMap<String, QuotaAmount> limits(JsonNode podSpec) {
        return aggregate(podSpec, "limits");
    }

    /** The quantities of a resource list; one that is none is left out. */
    static SortedMap<String, QuotaAmount> amounts(JsonNode list) {
        SortedMap<String, QuotaAmount> amounts = new TreeMap<>();
        if (list != null) {
            list.properties()
                    .forEach(
                            e ->
                                    QuotaAmount.of(e.getValue())
                                            .ifPresent(a -> amounts.put(e.getKey(), a)));
        }
        return amounts;
    }

    private static SortedMap<String, QuotaAmount> aggregate(JsonNode podSpec, String which) {
        SortedMap<String, QuotaAmount> total = new TreeMap<>();
        for (JsonNode c : podSpec.path("containers")) {
            add(total, of(c, which));
        }
        SortedMap<String, QuotaAmount> sidecars = new TreeMap<>();
        SortedMap<String, QuotaAmount> init = new TreeMap<>();
        for (JsonNode c : podSpec.path("initContainers")) {
            Map<String, QuotaAmount> needs = of(c, which);
            if ("Always".equals(c.path("restartPolicy").asText(""))) {
                add(total, needs);
                add(sidecars, needs);
                needs = sidecars;
            } else {
                SortedMap<String, QuotaAmount> withSidecars = new TreeMap<>(needs);
                add(withSidecars, sidecars);
                needs = withSidecars;
            }
            max(init, needs);
        }
        max(total, init);
        amounts(podSpec.path("resources").get(which))
                .forEach(
                        (name, amount) -> {
                            if (POD_LEVEL.contains(name)) {
                                total.put(name, amount);
                            }
                        });
        SortedMap<String, QuotaAmount> overhead = amounts(podSpec.get("overhead"));
        if (which.equals("requests")) {
            add(total, overhead);
        } else {
            // kube adds the overhead only to the limits a pod sets.
            overhead.forEach(
                    (name, amount) -> total.computeIfPresent(name, (n, l) -> l.plus(amount)));
        }
        return total;
    }

    private static Map<String, QuotaAmount> of(JsonNode container, String which) {
        return amounts(container.path("resources").get(which));
    }

    private static void add(Map<String, QuotaAmount> into, Map<String, QuotaAmount> more) {
        more.forEach((name, amount) -> into.merge(name, amount, QuotaAmount::plus));
    }

    private static void max(Map<String, QuotaAmount> into, Map<String, QuotaAmount> more) {
        more.forEach(
                (name, amount) -> {
                    QuotaAmount current = into.get(name);
                    if (current == null || amount.compareTo(current) > 0) {
                        into.put(name, amount);
                    }
                });
    }
}
