package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Services: the spec defaults Kubernetes fills (type, session affinity, port protocol and
 * targetPort, traffic policies), the normalization of the linked cluster IP fields, and validation.
 * The values a Service holds across the cluster (cluster IP, node ports) are declared by {@link
 * #clusterValues()} and allocated by the collection's writer, not here.
 */
public final class ServiceStrategy implements Strategy {

    static final List<String> TYPES =
            List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
    private static final List<String> AFFINITIES = List.of("ClientIP", "None");
    private static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
    private static final long DEFAULT_CLIENT_IP_TIMEOUT = 10800;
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        defaultServiceSpec(Nodes.obj(obj, "spec"));
    }

    /**
     * {@code SetDefaults_Service}, except what cluster IP allocation fills (clusterIP(s),
     * ipFamilies).
     */
    static void defaultServiceSpec(ObjectNode spec) {
        Nodes.defaultText(spec, "sessionAffinity", "None");
        Nodes.defaultText(spec, "type", "ClusterIP");
        String type = Nodes.text(spec, "type");
        if (Nodes.text(spec, "sessionAffinity").equals("ClientIP")) {
            ObjectNode clientIp = Nodes.obj(Nodes.obj(spec, "sessionAffinityConfig"), "clientIP");
            Nodes.defaultInt(clientIp, "timeoutSeconds", DEFAULT_CLIENT_IP_TIMEOUT);
        }
        for (JsonNode p : Nodes.items(spec, "ports")) {
            if (p instanceof ObjectNode port) {
                Nodes.defaultText(port, "protocol", "TCP");
                JsonNode target = port.get("targetPort");
                boolean unset =
                        target == null
                                || target.isNull()
                                || (target.isNumber() && target.asLong() == 0)
                                || (target.isTextual() && target.asText().isEmpty());
                if (unset && port.has("port")) {
                    port.set("targetPort", port.get("port"));
                }
            }
        }
        if (type.equals("NodePort") || type.equals("LoadBalancer")) {
            Nodes.defaultText(spec, "externalTrafficPolicy", "Cluster");
        }
        if (!type.equals("ExternalName")) {
            Nodes.defaultText(spec, "internalTrafficPolicy", "Cluster");
        }
        if (type.equals("LoadBalancer")) {
            Nodes.defaultBool(spec, "allocateLoadBalancerNodePorts", true);
        }
    }

    /** {@code PrepareForCreate}: {@code clusterIPs} follows a {@code clusterIP} set alone. */
    @Override
    public void prepareForCreate(ObjectNode obj) {
        ServiceClusterIps.normalize(Nodes.obj(obj, "spec"), null);
    }

    /**
     * kube-apiserver's {@code beginUpdate} and {@code PrepareForUpdate}: allocated values the
     * client left out are carried over, the cluster IP fields normalized, values a type change
     * makes meaningless cleared, a switch to SingleStack trims the secondary values, and the IP
     * family fields are kept or initialized — so a PUT of what was created changes nothing.
     */
    @Override
    public void prepareForUpdate(ObjectNode obj, ObjectNode old) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        JsonNode oldSpec = old.path("spec");
        ServiceClusterIps.patchAllocated(spec, oldSpec);
        ServiceClusterIps.normalize(spec, oldSpec);
        ServiceClusterIps.dropTypeDependent(spec, oldSpec);
        ServiceClusterIps.trimForSingleStack(spec, oldSpec);
        ServiceIpFamilies.init(spec, oldSpec, ObjectMeta.name(obj));
    }

    @Override
    public ClusterValues clusterValues() {
        return ServiceValues.INSTANCE;
    }

    /**
     * {@code ValidateServiceUpdate}: the cluster IPs and IP families may not change once set, nor a
     * health check node port.
     */
    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        JsonNode spec = obj.path("spec");
        JsonNode oldSpec = old.path("spec");
        List<FieldError> errs = new ArrayList<>(ServiceClusterIps.validateUpdate(spec, oldSpec));
        if (ServiceClusterIps.needsHealthCheck(spec)
                && ServiceClusterIps.needsHealthCheck(oldSpec)
                && spec.path("healthCheckNodePort").asLong(0)
                        != oldSpec.path("healthCheckNodePort").asLong(0)) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("healthCheckNodePort").toString(), "field is immutable"));
        }
        errs.addAll(validateCreate(obj));
        return errs;
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        String type = Nodes.text(spec, "type");
        boolean headless = isHeadless(spec);
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> ports = Nodes.items(spec, "ports");
        if (ports.isEmpty() && !headless && !type.equals("ExternalName")) {
            errs.add(FieldError.required(SPEC.child("ports").toString(), ""));
        }
        switch (type) {
            case "LoadBalancer", "NodePort" -> {
                if (headless) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("clusterIPs").index(0).toString(),
                                    "None",
                                    "may not be set to 'None' for " + type + " services"));
                }
            }
            case "ExternalName" -> errs.addAll(externalName(spec));
            default -> {}
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            errs.addAll(port(ports.get(i), ports.size() > 1, names, SPEC.child("ports").index(i)));
        }
        errs.addAll(LabelValidation.labels(spec.get("selector"), SPEC.child("selector")));
        errs.addAll(sessionAffinity(spec));
        if (!type.equals("ExternalName")) {
            errs.addAll(ServiceClusterIps.validate(spec));
        }
        errs.addAll(FieldChecks.enumField(spec, "type", TYPES, SPEC));
        if (type.equals("ClusterIP")) {
            for (int i = 0; i < ports.size(); i++) {
                if (ports.get(i).path("nodePort").asLong(0) != 0) {
                    errs.add(
                            FieldError.forbidden(
                                    SPEC.child("ports").index(i).child("nodePort").toString(),
                                    "may not be used when `type` is 'ClusterIP'"));
                }
            }
        }
        errs.addAll(duplicatePorts(ports));
        if (Nodes.has(spec, "allocateLoadBalancerNodePorts") && !type.equals("LoadBalancer")) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("allocateLoadBalancerNodePorts").toString(),
                            "may only be used when `type` is 'LoadBalancer'"));
        }
        errs.addAll(trafficPolicies(spec, type));
        long healthCheck = spec.path("healthCheckNodePort").asLong(0);
        if (healthCheck != 0 && !ServiceClusterIps.needsHealthCheck(spec)) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("healthCheckNodePort").toString(),
                            healthCheck,
                            "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
        }
        return errs;
    }

    /** {@code {"loadBalancer":{}}}, the empty ServiceStatus as Kubernetes serializes it. */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return LoadBalancerStatus.initial();
    }

    static boolean isHeadless(JsonNode spec) {
        return Nodes.text(spec, "clusterIP").equals("None")
                || (Nodes.items(spec, "clusterIPs").size() > 0
                        && Nodes.items(spec, "clusterIPs").get(0).asText().equals("None"));
    }

    private static List<FieldError> externalName(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        if (!Nodes.items(spec, "clusterIPs").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("clusterIPs").toString(),
                            "may not be set for ExternalName services"));
        }
        if (!Nodes.items(spec, "ipFamilies").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("ipFamilies").toString(),
                            "may not be set for ExternalName services"));
        }
        if (Nodes.has(spec, "ipFamilyPolicy")) {
            errs.add(
                    FieldError.forbidden(
                            SPEC.child("ipFamilyPolicy").toString(),
                            "may not be set for ExternalName services"));
        }
        String cname = Nodes.text(spec, "externalName");
        if (cname.endsWith(".")) {
            cname = cname.substring(0, cname.length() - 1);
        }
        if (cname.isEmpty()) {
            errs.add(FieldError.required(SPEC.child("externalName").toString(), ""));
        } else {
            for (String msg : NameValidation.dns1123Subdomain(cname)) {
                errs.add(FieldError.invalid(SPEC.child("externalName").toString(), cname, msg));
            }
        }
        return errs;
    }

    private static List<FieldError> port(
            JsonNode p, boolean requireName, Set<String> names, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(p, "name");
        if (requireName && name.isEmpty()) {
            errs.add(FieldError.required(path.child("name").toString(), ""));
        } else if (!name.isEmpty()) {
            NameValidation.dns1123Label(name)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    path.child("name").toString(), name, m)));
            if (!names.add(name)) {
                errs.add(FieldError.duplicate(path.child("name").toString(), name));
            }
        }
        long number = p.path("port").asLong(0);
        NameValidation.portNumber(number)
                .forEach(
                        m ->
                                errs.add(
                                        FieldError.invalid(
                                                path.child("port").toString(), number, m)));
        errs.addAll(FieldChecks.protocol(p, path));
        errs.addAll(portNumOrName(p.path("targetPort"), path.child("targetPort")));
        if (Nodes.has(p, "appProtocol")) {
            errs.addAll(
                    LabelValidation.labelKey(
                            Nodes.text(p, "appProtocol"), path.child("appProtocol")));
        }
        return errs;
    }

    /** An int-or-string port: a number in 1..65535 or an IANA service name. */
    static List<FieldError> portNumOrName(JsonNode v, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (v.isTextual()) {
            NameValidation.portName(v.asText())
                    .forEach(m -> errs.add(FieldError.invalid(path.toString(), v.asText(), m)));
        } else {
            long n = v.asLong(0);
            NameValidation.portNumber(n)
                    .forEach(m -> errs.add(FieldError.invalid(path.toString(), n, m)));
        }
        return errs;
    }

    private static List<FieldError> sessionAffinity(JsonNode spec) {
        List<FieldError> errs =
                new ArrayList<>(FieldChecks.enumField(spec, "sessionAffinity", AFFINITIES, SPEC));
        String affinity = Nodes.text(spec, "sessionAffinity");
        FieldPath cfg = SPEC.child("sessionAffinityConfig");
        if (affinity.equals("ClientIP")) {
            JsonNode timeout =
                    Nodes.at(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds");
            if (!timeout.isNumber()) {
                errs.add(
                        FieldError.required(
                                cfg.child("clientIP", "timeoutSeconds").toString(),
                                "when session affinity type is ClientIP"));
            } else if (timeout.asLong() <= 0 || timeout.asLong() > 86400) {
                errs.add(
                        FieldError.invalid(
                                cfg.child("clientIP", "timeoutSeconds").toString(),
                                timeout.asLong(),
                                "must be greater than 0 and less than 86400"));
            }
        } else if (affinity.equals("None") && Nodes.has(spec, "sessionAffinityConfig")) {
            errs.add(
                    FieldError.forbidden(
                            cfg.toString(), "must not be set when session affinity is None"));
        }
        return errs;
    }

    private static List<FieldError> duplicatePorts(List<JsonNode> ports) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> nodePorts = new HashSet<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            FieldPath path = SPEC.child("ports").index(i);
            String protocol = Nodes.text(p, "protocol");
            long nodePort = p.path("nodePort").asLong(0);
            if (nodePort != 0 && !nodePorts.add(protocol + "/" + nodePort)) {
                errs.add(FieldError.duplicate(path.child("nodePort").toString(), nodePort));
            }
            long port = p.path("port").asLong(0);
            if (!seen.add(protocol + "/" + port)) {
                ObjectNode key = Nodes.F.objectNode();
                key.put("Name", "")
                        .put("Protocol", protocol)
                        .putNull("AppProtocol")
                        .put("Port", port)
                        .put("TargetPort", 0)
                        .put("NodePort", 0);
                errs.add(FieldError.duplicate(path.toString(), BadValue.of(key)));
            }
        }
        return errs;
    }

    private static List<FieldError> trafficPolicies(JsonNode spec, String type) {
        List<FieldError> errs = new ArrayList<>();
        boolean external =
                type.equals("LoadBalancer")
                        || type.equals("NodePort")
                        || (type.equals("ClusterIP")
                                && !Nodes.items(spec, "externalIPs").isEmpty());
        String etp = Nodes.text(spec, "externalTrafficPolicy");
        if (!external) {
            if (!etp.isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("externalTrafficPolicy").toString(),
                                etp,
                                "may only be set for externally-accessible services"));
            }
        } else {
            errs.addAll(
                    FieldChecks.enumField(spec, "externalTrafficPolicy", TRAFFIC_POLICIES, SPEC));
        }
        String itp = Nodes.text(spec, "internalTrafficPolicy");
        if (itp.isEmpty()) {
            if (!type.equals("ExternalName")) {
                errs.add(FieldError.required(SPEC.child("internalTrafficPolicy").toString(), ""));
            }
        } else if (!TRAFFIC_POLICIES.contains(itp)) {
            errs.add(
                    FieldError.notSupported(
                            SPEC.child("internalTrafficPolicy").toString(), itp, TRAFFIC_POLICIES));
        }
        return errs;
    }
}
