package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.Claims;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.alloc.Ipv4;
import io.kubepekko.api.alloc.Refusal;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Service's cluster-wide values: its cluster IP and its node ports (health check node port
 * included), planned, filled and refused as kube-apiserver's Service REST storage does ({@code
 * pkg/registry/core/service/storage/alloc.go}).
 */
final class ServiceValues implements ClusterValues {

    static final ServiceValues INSTANCE = new ServiceValues();

    private static final String CLUSTER_IP = "clusterIP";
    private static final String HEALTH_CHECK = "healthCheckNodePort";
    private static final String PORT = "ports/";

    private ServiceValues() {}

    @Override
    public String allocator() {
        return ServiceNetwork.ALLOCATOR;
    }

    @Override
    public Set<String> held(ObjectNode object) {
        JsonNode spec = object.path("spec");
        Set<String> keys = new LinkedHashSet<>();
        if (ServiceClusterIps.needsClusterIp(spec)) {
            for (String ip : Nodes.strings(spec, "clusterIPs")) {
                long address = Ipv4.parse(ip);
                if (address >= 0) {
                    keys.add(Claims.key(ServiceNetwork.CLUSTER_IPS, Ipv4.format(address)));
                }
            }
        }
        for (long port : ServiceClusterIps.nodePorts(spec)) {
            keys.add(Claims.key(ServiceNetwork.NODE_PORTS, Long.toString(port)));
        }
        long healthCheck = spec.path("healthCheckNodePort").asLong(0);
        if (healthCheck > 0) {
            keys.add(Claims.key(ServiceNetwork.NODE_PORTS, Long.toString(healthCheck)));
        }
        return keys;
    }

    /**
     * In Kubernetes' order: IP families, the cluster IP, the node ports, the health check node
     * port. Creates follow {@code allocateCreate}, updates {@code allocateUpdate}; values {@code
     * before} holds stay where they are.
     */
    @Override
    public ValuePlan plan(ObjectNode before, ObjectNode after) {
        ObjectNode spec = Nodes.obj(after, "spec");
        JsonNode oldSpec = before == null ? null : before.path("spec");
        List<Target> out = new ArrayList<>();
        if (ServiceClusterIps.needsClusterIp(spec)) {
            ServiceIpFamilies.init(spec, oldSpec, ObjectMeta.name(after));
            if (!ServiceClusterIps.isHeadless(spec)) {
                clusterIp(spec, oldSpec, out);
            }
        }
        if (ServiceClusterIps.needsNodePort(spec)) {
            if (oldSpec == null) {
                nodePortsOnCreate(spec, out);
            } else {
                nodePortsOnUpdate(spec, oldSpec, out);
            }
        }
        if (ServiceClusterIps.needsHealthCheck(spec)
                && (oldSpec == null
                        || !ServiceClusterIps.needsHealthCheck(oldSpec)
                        || spec.path("healthCheckNodePort").asLong(0) == 0)) {
            long requested = spec.path("healthCheckNodePort").asLong(0);
            out.add(new Target(request(ServiceNetwork.NODE_PORTS, requested), HEALTH_CHECK));
        }
        return new ValuePlan(out.stream().map(Target::planned).toList());
    }

    /**
     * Asks for the given IP unless the stored object holds it already, or for any when none is
     * given.
     */
    private static void clusterIp(ObjectNode spec, JsonNode oldSpec, List<Target> out) {
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        String ip = ips.isEmpty() ? "" : ips.get(0);
        if (ip.isEmpty()) {
            out.add(new Target(ValueRequest.any(ServiceNetwork.CLUSTER_IPS), CLUSTER_IP));
        } else if (oldSpec == null
                || !ServiceClusterIps.needsClusterIp(oldSpec)
                || !Nodes.strings(oldSpec, "clusterIPs").contains(ip)) {
            out.add(new Target(ValueRequest.specific(ServiceNetwork.CLUSTER_IPS, ip), CLUSTER_IP));
        }
    }

    /**
     * {@code initNodePorts}: ports with the same port number (TCP and UDP 53) share one node port;
     * a number asked for on any of them is the one they share.
     */
    private static void nodePortsOnCreate(JsonNode spec, List<Target> out) {
        List<JsonNode> ports = Nodes.items(spec, "ports");
        boolean allocate = shouldAllocateNodePorts(spec);
        Map<Long, Target> byPort = new HashMap<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            long nodePort = p.path("nodePort").asLong(0);
            if (nodePort == 0 && !allocate) {
                continue; // requested numbers are honoured, none are invented
            }
            long number = p.path("port").asLong(0);
            Target shared = byPort.get(number);
            if (shared == null) {
                Target t =
                        new Target(
                                request(ServiceNetwork.NODE_PORTS, requestedFor(number, ports)),
                                PORT + i);
                byPort.put(number, t);
                out.add(t);
            } else if (nodePort == 0) {
                shared.targets.add(PORT + i);
            } else if (shared.request.value() == null
                    || Long.parseLong(shared.request.value()) != nodePort) {
                out.add(
                        new Target(
                                ValueRequest.specific(
                                        ServiceNetwork.NODE_PORTS, Long.toString(nodePort)),
                                PORT + i));
            }
        }
    }

    /**
     * {@code updateNodePorts}: new numbers are claimed, zeros get any free port, kept ones stay.
     */
    private static void nodePortsOnUpdate(JsonNode spec, JsonNode oldSpec, List<Target> out) {
        List<Long> old = ServiceClusterIps.nodePorts(oldSpec);
        Set<Long> claimed = new HashSet<>();
        boolean allocate = shouldAllocateNodePorts(spec);
        List<JsonNode> ports = Nodes.items(spec, "ports");
        for (int i = 0; i < ports.size(); i++) {
            long nodePort = ports.get(i).path("nodePort").asLong(0);
            if (nodePort == 0 && !allocate) {
                continue;
            }
            if (nodePort == 0) {
                out.add(new Target(ValueRequest.any(ServiceNetwork.NODE_PORTS), PORT + i));
            } else if (!old.contains(nodePort) && claimed.add(nodePort)) {
                out.add(
                        new Target(
                                ValueRequest.specific(
                                        ServiceNetwork.NODE_PORTS, Long.toString(nodePort)),
                                PORT + i));
            }
        }
    }

    /**
     * {@code findRequestedNodePort}: the first node port asked for on a port with this number, or
     * 0.
     */
    private static long requestedFor(long number, List<JsonNode> ports) {
        for (JsonNode p : ports) {
            if (p.path("port").asLong(0) == number && p.path("nodePort").asLong(0) != 0) {
                return p.path("nodePort").asLong();
            }
        }
        return 0;
    }

    /**
     * NodePort Services always get node ports; LoadBalancers unless {@code
     * allocateLoadBalancerNodePorts} is false.
     */
    private static boolean shouldAllocateNodePorts(JsonNode spec) {
        return Nodes.text(spec, "type").equals("NodePort")
                || spec.path("allocateLoadBalancerNodePorts").asBoolean(true);
    }

    private static ValueRequest request(String pool, long number) {
        return number == 0
                ? ValueRequest.any(pool)
                : ValueRequest.specific(pool, Long.toString(number));
    }

    @Override
    public void fill(ObjectNode after, ValuePlan plan, List<String> granted) {
        ObjectNode spec = Nodes.obj(after, "spec");
        for (int i = 0; i < plan.values().size(); i++) {
            String value = granted.get(i);
            for (String target : plan.values().get(i).targets()) {
                if (target.equals(CLUSTER_IP)) {
                    spec.put("clusterIP", value);
                    spec.putArray("clusterIPs").add(value);
                } else if (target.equals(HEALTH_CHECK)) {
                    spec.put("healthCheckNodePort", Integer.parseInt(value));
                } else {
                    int index = Integer.parseInt(target.substring(PORT.length()));
                    ((ObjectNode) spec.get("ports").get(index))
                            .put("nodePort", Integer.parseInt(value));
                }
            }
        }
    }

    /**
     * A number asked for and refused is a 422 on its field; a pool with nothing free is kube's 500
     * ({@code failed to allocate a serviceIP: range is full}).
     */
    @Override
    public ApiStatus refused(ObjectNode after, ValuePlan plan, int index, Refusal refusal) {
        ValuePlan.Planned planned = plan.values().get(index);
        String requested = planned.request().value();
        String target = planned.targets().get(0);
        if (refusal.reason() == Refusal.Reason.NO_POOL) {
            return ApiStatus.internal(refusal.message());
        }
        JsonNode spec = after.path("spec");
        String name = ObjectMeta.name(after);
        if (target.equals(CLUSTER_IP)) {
            if (requested == null) {
                return ApiStatus.internal("failed to allocate a serviceIP: " + refusal.message());
            }
            return ApiStatus.invalid(
                    "",
                    "Service",
                    name,
                    List.of(
                            FieldError.invalid(
                                    "spec.clusterIPs",
                                    ServiceClusterIps.ipsValue(spec),
                                    "failed to allocate IP "
                                            + requested
                                            + ": "
                                            + refusal.message())));
        }
        if (target.equals(HEALTH_CHECK)) {
            return ApiStatus.internal(
                    requested == null
                            ? "failed to allocate a HealthCheck NodePort 0: " + refusal.message()
                            : "failed to allocate requested HealthCheck NodePort "
                                    + requested
                                    + ": "
                                    + refusal.message());
        }
        if (requested == null) {
            return ApiStatus.internal("failed to allocate a nodePort: " + refusal.message());
        }
        int port = Integer.parseInt(target.substring(PORT.length()));
        return ApiStatus.invalid(
                "",
                "Service",
                name,
                List.of(
                        FieldError.invalid(
                                FieldPath.of("spec")
                                        .child("ports")
                                        .index(port)
                                        .child("nodePort")
                                        .toString(),
                                Long.parseLong(requested),
                                refusal.message())));
    }

    /** A request being planned, and the places its value fills (more may join while planning). */
    private static final class Target {
        final ValueRequest request;
        final List<String> targets = new ArrayList<>();

        Target(ValueRequest request, String target) {
            this.request = request;
            targets.add(target);
        }

        ValuePlan.Planned planned() {
            return new ValuePlan.Planned(request, targets);
        }
    }
}
