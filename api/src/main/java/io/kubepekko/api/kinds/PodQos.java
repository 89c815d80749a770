package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's quality-of-service class, computed as Kubernetes' {@code qos.ComputePodQOS} does from the
 * cpu and memory requests and limits of all containers (after requests were defaulted from limits).
 */
public final class PodQos {
    private PodQos() {}

    public static final String GUARANTEED = "Guaranteed";
    public static final String BURSTABLE = "Burstable";
    public static final String BEST_EFFORT = "BestEffort";

    private static final List<String> COMPUTE = List.of("cpu", "memory");

    public static String of(JsonNode podSpec) {
        Map<String, BigDecimal> requests = new HashMap<>();
        Map<String, BigDecimal> limits = new HashMap<>();
        boolean guaranteed = true;
        List<JsonNode> all = new ArrayList<>(Nodes.items(podSpec, "containers"));
        all.addAll(Nodes.items(podSpec, "initContainers"));
        for (JsonNode c : all) {
            addPositive(Nodes.at(c, "resources", "requests"), requests);
            Map<String, BigDecimal> own = new HashMap<>();
            addPositive(Nodes.at(c, "resources", "limits"), own);
            own.forEach((k, v) -> limits.merge(k, v, BigDecimal::add));
            if (!own.keySet().containsAll(COMPUTE)) {
                guaranteed = false;
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return BEST_EFFORT;
        }
        if (guaranteed) {
            for (var e : requests.entrySet()) {
                BigDecimal lim = limits.get(e.getKey());
                if (lim == null || lim.compareTo(e.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        return guaranteed && requests.size() == limits.size() ? GUARANTEED : BURSTABLE;
    }

    private static void addPositive(JsonNode list, Map<String, BigDecimal> into) {
        for (String name : COMPUTE) {
            BigDecimal q = Quantity.of(list.get(name)).map(Quantity::amount).orElse(null);
            if (q != null && q.signum() > 0) {
                into.merge(name, q, BigDecimal::add);
            }
        }
    }
}
