package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A pod's requests or limits as a whole, as LimitRanger's Pod items see them (its {@code
 * podRequests} and {@code podLimits}, from the spec only, without the pod's overhead): the sum over
 * the containers and the sidecars (init containers that restart always), or, if larger, the most an
 * init container needs with the sidecars started before it; then the pod-level {@code
 * spec.resources} replace the sum for cpu and memory (PodLevelResources, on by default in 1.35).
 */
final class PodResources {
    private PodResources() {}

    private static final Set<String> POD_LEVEL = Set.of("cpu", "memory");

    /** {@code podRequests}. */
    static Map<String, Amount> requests(JsonNode podSpec) {
        return aggregate(podSpec, "requests");
    }

    /** {@code podLimits}. */
    static Map<String, Amount> limits(JsonNode podSpec) {
        return aggregate(podSpec, "limits");
    }

    private static Map<String, Amount> aggregate(JsonNode podSpec, String which) {
        SortedMap<String, Amount> total = new TreeMap<>();
        for (JsonNode c : podSpec.path("containers")) {
            add(total, of(c, which));
        }
        SortedMap<String, Amount> sidecars = new TreeMap<>();
        SortedMap<String, Amount> init = new TreeMap<>();
        for (JsonNode c : podSpec.path("initContainers")) {
            Map<String, Amount> needs = of(c, which);
            if ("Always".equals(c.path("restartPolicy").asText(""))) {
                add(total, needs);
                add(sidecars, needs);
                needs = sidecars;
            } else {
                SortedMap<String, Amount> withSidecars = new TreeMap<>();
                add(withSidecars, needs);
                add(withSidecars, sidecars);
                needs = withSidecars;
            }
            max(init, needs);
        }
        max(total, init);
        LimitRangeItem.amounts(podSpec.path("resources").get(which))
                .forEach(
                        (name, amount) -> {
                            if (POD_LEVEL.contains(name)) {
                                total.put(name, amount);
                            }
                        });
        return total;
    }

    private static Map<String, Amount> of(JsonNode container, String which) {
        return LimitRangeItem.amounts(container.path("resources").get(which));
    }

    /** {@code addResourceList}: each amount added to the one of the same name, or put. */
    private static void add(Map<String, Amount> into, Map<String, Amount> more) {
        more.forEach((name, amount) -> into.merge(name, amount, Amount::plus));
    }

    /** {@code maxResourceList}: each amount put where it is larger than the one there. */
    private static void max(Map<String, Amount> into, Map<String, Amount> more) {
        more.forEach(
                (name, amount) -> {
                    Amount current = into.get(name);
                    if (current == null || amount.compareTo(current) > 0) {
                        into.put(name, amount);
                    }
                });
    }
}
