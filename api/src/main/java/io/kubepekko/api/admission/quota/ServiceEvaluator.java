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
 * kube's service evaluator: a service counts {@code services}, a LoadBalancer one {@code
 * services.loadbalancers}, and a NodePort or LoadBalancer one a node port per port (with {@code
 * allocateLoadBalancerNodePorts: false}, only the ports that name one). Updates are charged too: a
 * service's type can change.
 */
final class ServiceEvaluator implements QuotaEvaluator {

    static final GroupResource SERVICES = new GroupResource("", "services");
    private static final Set<String> RESOURCES =
            Set.of(
                    QuotaEvaluator.countName(SERVICES),
                    "services",
                    "services.nodeports",
                    "services.loadbalancers");

    @Override
    public GroupResource resource() {
        return SERVICES;
    }

    @Override
    public Set<String> readFields() {
        Set<String> fields = new TreeSet<>(IDENTITY);
        fields.add("spec.type");
        fields.add("spec.ports");
        fields.add("spec.allocateLoadBalancerNodePorts");
        return fields;
    }

    @Override
    public boolean handles(Operation operation, String subresource) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public Set<String> matchingResources(Set<String> hard) {
        Set<String> matching = new TreeSet<>(hard);
        matching.retainAll(RESOURCES);
        return matching;
    }

    @Override
    public SortedMap<String, QuotaAmount> usage(JsonNode service, Instant now) {
        SortedMap<String, QuotaAmount> usage = new TreeMap<>();
        usage.put(QuotaEvaluator.countName(SERVICES), QuotaAmount.ONE);
        usage.put("services", QuotaAmount.ONE);
        JsonNode spec = service.path("spec");
        JsonNode ports = spec.path("ports");
        switch (spec.path("type").asText("ClusterIP")) {
            case "NodePort" -> usage.put("services.nodeports", QuotaAmount.count(ports.size()));
            case "LoadBalancer" -> {
                long nodePorts = ports.size();
                JsonNode allocate = spec.get("allocateLoadBalancerNodePorts");
                if (allocate != null && allocate.isBoolean() && !allocate.asBoolean()) {
                    nodePorts = 0;
                    for (JsonNode p : ports) {
                        if (p.path("nodePort").asInt(0) != 0) {
                            nodePorts++;
                        }
                    }
                }
                usage.put("services.nodeports", QuotaAmount.count(nodePorts));
                usage.put("services.loadbalancers", QuotaAmount.ONE);
            }
            default -> {}
        }
        return usage;
    }
}
