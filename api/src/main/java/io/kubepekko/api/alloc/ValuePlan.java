package io.kubepekko.api.alloc;

import java.util.List;

/**
 * What one write needs from the cluster-wide pools, in the order Kubernetes allocates it, and where
 * each granted value goes in the object.
 *
 * @param values the requests, each with the places in the object its value fills
 */
public record ValuePlan(List<Planned> values) {

    public static final ValuePlan NONE = new ValuePlan(List.of());

    public ValuePlan {
        values = List.copyOf(values);
    }

    /**
     * One request and its targets: opaque names the kind gives places in its objects (a Service's
     * {@code ports[1]}); one value may fill several (ports that share a node port).
     */
    public record Planned(ValueRequest request, List<String> targets) {
        public Planned {
            targets = List.copyOf(targets);
        }
    }

    public List<ValueRequest> requests() {
        return values.stream().map(Planned::request).toList();
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }
}
