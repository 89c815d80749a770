package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod spec's containers and init containers ({@code validateContainers}, {@code
 * validateInitContainers}, {@code validateContainerCommon}): names, images, policies, ports and
 * host-port conflicts, environment, volume mounts and resources. Pod-level fields stay in {@link
 * PodSpecValidation}.
 */
final class ContainerValidation {
    private ContainerValidation() {}

    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES =
            List.of("File", "FallbackToLogsOnError");

    static List<FieldError> containers(JsonNode spec, Set<String> volumes, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> cs = Nodes.items(spec, "containers");
        if (cs.isEmpty()) {
            errs.add(FieldError.required(path.toString(), ""));
            return errs;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < cs.size(); i++) {
            JsonNode c = cs.get(i);
            FieldPath idx = path.index(i);
            errs.addAll(container(c, volumes, idx));
            String name = Nodes.text(c, "name");
            if (!names.add(name)) {
                errs.add(FieldError.duplicate(idx.child("name").toString(), name));
            }
            if (Nodes.has(c, "restartPolicy")) {
                errs.add(
                        FieldError.forbidden(
                                idx.child("restartPolicy").toString(),
                                "may not be set for non-init containers"));
            }
        }
        errs.addAll(hostPortConflicts(cs, path));
        return errs;
    }

    static List<FieldError> initContainers(JsonNode spec, Set<String> volumes, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode c : Nodes.items(spec, "containers")) {
            names.add(Nodes.text(c, "name"));
        }
        List<JsonNode> cs = Nodes.items(spec, "initContainers");
        for (int i = 0; i < cs.size(); i++) {
            JsonNode c = cs.get(i);
            FieldPath idx = path.index(i);
            errs.addAll(container(c, volumes, idx));
            String name = Nodes.text(c, "name");
            if (names.contains(name)) {
                errs.add(FieldError.duplicate(idx.child("name").toString(), name));
            } else if (!name.isEmpty()) {
                names.add(name);
            }
            String restart = Nodes.text(c, "restartPolicy");
            if (Nodes.has(c, "restartPolicy") && !restart.equals("Always")) {
                errs.add(
                        FieldError.notSupported(
                                idx.child("restartPolicy").toString(), restart, List.of("Always")));
            }
            if (!restart.equals("Always")) {
                for (String probe :
                        new String[] {
                            "lifecycle", "livenessProbe", "readinessProbe", "startupProbe"
                        }) {
                    if (Nodes.has(c, probe)) {
                        errs.add(
                                FieldError.forbidden(
                                        idx.child(probe).toString(),
                                        "may not be set for init containers without restartPolicy=Always"));
                    }
                }
            }
            errs.addAll(hostPortConflicts(List.of(c), path));
        }
        return errs;
    }

    /** Checks common to every container type ({@code validateContainerCommon}). */
    private static List<FieldError> container(JsonNode c, Set<String> volumes, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(c, "name");
        FieldPath namePath = path.child("name");
        if (name.isEmpty()) {
            errs.add(FieldError.required(namePath.toString(), ""));
        } else {
            for (String msg : NameValidation.dns1123Label(name)) {
                errs.add(FieldError.invalid(namePath.toString(), name, msg));
            }
        }
        if (Nodes.text(c, "image").isEmpty()) {
            errs.add(FieldError.required(path.child("image").toString(), ""));
        }
        String tmp = Nodes.text(c, "terminationMessagePolicy");
        if (tmp.isEmpty()) {
            errs.add(FieldError.required(path.child("terminationMessagePolicy").toString(), ""));
        } else if (!TERMINATION_MESSAGE_POLICIES.contains(tmp)) {
            errs.add(
                    FieldError.notSupported(
                            path.child("terminationMessagePolicy").toString(),
                            tmp,
                            TERMINATION_MESSAGE_POLICIES));
        }
        errs.addAll(containerPorts(c, path.child("ports")));
        errs.addAll(env(c, path.child("env")));
        errs.addAll(volumeMounts(c, volumes, path.child("volumeMounts")));
        String pull = Nodes.text(c, "imagePullPolicy");
        if (pull.isEmpty()) {
            errs.add(FieldError.required(path.child("imagePullPolicy").toString(), ""));
        } else if (!PULL_POLICIES.contains(pull)) {
            errs.add(
                    FieldError.notSupported(
                            path.child("imagePullPolicy").toString(), pull, PULL_POLICIES));
        }
        errs.addAll(resources(c.path("resources"), path.child("resources")));
        return errs;
    }

    /**
     * Container ports: names, numbers, host ports and protocols ({@code validateContainerPorts}).
     */
    static List<FieldError> containerPorts(JsonNode c, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<JsonNode> ports = Nodes.items(c, "ports");
        for (int i = 0; i < ports.size(); i++) {
            JsonNode p = ports.get(i);
            FieldPath idx = path.index(i);
            String name = Nodes.text(p, "name");
            if (!name.isEmpty()) {
                List<String> msgs = NameValidation.portName(name);
                if (!msgs.isEmpty()) {
                    msgs.forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    idx.child("name").toString(), name, m)));
                } else if (!names.add(name)) {
                    errs.add(FieldError.duplicate(idx.child("name").toString(), name));
                }
            }
            long containerPort = p.path("containerPort").asLong(0);
            if (containerPort == 0) {
                errs.add(FieldError.required(idx.child("containerPort").toString(), ""));
            } else {
                NameValidation.portNumber(containerPort)
                        .forEach(
                                m ->
                                        errs.add(
                                                FieldError.invalid(
                                                        idx.child("containerPort").toString(),
                                                        containerPort,
                                                        m)));
            }
            long hostPort = p.path("hostPort").asLong(0);
            if (hostPort != 0) {
                NameValidation.portNumber(hostPort)
                        .forEach(
                                m ->
                                        errs.add(
                                                FieldError.invalid(
                                                        idx.child("hostPort").toString(),
                                                        hostPort,
                                                        m)));
            }
            errs.addAll(FieldChecks.protocol(p, idx));
        }
        return errs;
    }

    private static List<FieldError> hostPortConflicts(List<JsonNode> containers, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int ci = 0; ci < containers.size(); ci++) {
            List<JsonNode> ports = Nodes.items(containers.get(ci), "ports");
            for (int pi = 0; pi < ports.size(); pi++) {
                JsonNode p = ports.get(pi);
                long hostPort = p.path("hostPort").asLong(0);
                if (hostPort == 0) {
                    continue;
                }
                String key =
                        Nodes.text(p, "protocol") + "/" + Nodes.text(p, "hostIP") + "/" + hostPort;
                if (!seen.add(key)) {
                    errs.add(
                            FieldError.duplicate(
                                    path.index(ci)
                                            .child("ports")
                                            .index(pi)
                                            .child("hostPort")
                                            .toString(),
                                    key));
                }
            }
        }
        return errs;
    }

    /** On the host network a host port must equal its container port (always, for a pod). */
    static List<FieldError> hostNetworkPorts(JsonNode spec, FieldPath path, boolean isPod) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> cs = Nodes.items(spec, "containers");
        for (int i = 0; i < cs.size(); i++) {
            List<JsonNode> ports = Nodes.items(cs.get(i), "ports");
            for (int j = 0; j < ports.size(); j++) {
                long hp = ports.get(j).path("hostPort").asLong(0);
                long cp = ports.get(j).path("containerPort").asLong(0);
                if ((isPod || hp != 0) && hp != cp) {
                    errs.add(
                            FieldError.invalid(
                                    path.index(i)
                                            .child("ports")
                                            .index(j)
                                            .child("hostPort")
                                            .toString(),
                                    hp,
                                    "must match `containerPort` when `hostNetwork` is true"));
                }
            }
        }
        return errs;
    }

    private static List<FieldError> env(JsonNode c, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> env = Nodes.items(c, "env");
        for (int i = 0; i < env.size(); i++) {
            FieldPath idx = path.index(i);
            String name = Nodes.text(env.get(i), "name");
            if (name.isEmpty()) {
                errs.add(FieldError.required(idx.child("name").toString(), ""));
                continue;
            }
            for (char ch : name.toCharArray()) {
                if (ch < 0x20 || ch > 0x7e || ch == '=') {
                    errs.add(
                            FieldError.invalid(
                                    idx.child("name").toString(),
                                    name,
                                    "a valid environment variable name must consist only of printable ASCII characters other than '='"));
                    break;
                }
            }
        }
        return errs;
    }

    private static List<FieldError> volumeMounts(JsonNode c, Set<String> volumes, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> mountPaths = new HashSet<>();
        List<JsonNode> mounts = Nodes.items(c, "volumeMounts");
        for (int i = 0; i < mounts.size(); i++) {
            JsonNode m = mounts.get(i);
            FieldPath idx = path.index(i);
            String name = Nodes.text(m, "name");
            String mountPath = Nodes.text(m, "mountPath");
            if (name.isEmpty()) {
                errs.add(FieldError.required(idx.child("name").toString(), ""));
            } else if (!volumes.contains(name)) {
                errs.add(FieldError.notFound(idx.child("name").toString(), name));
            }
            if (mountPath.isEmpty()) {
                errs.add(FieldError.required(idx.child("mountPath").toString(), ""));
            } else if (!mountPaths.add(mountPath)) {
                errs.add(
                        FieldError.invalid(
                                idx.child("mountPath").toString(), mountPath, "must be unique"));
            }
        }
        return errs;
    }

    /** Quantities parse, are not negative, and requests do not exceed limits. */
    static List<FieldError> resources(JsonNode resources, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        Map<String, String> limits = Nodes.stringMap(resources.get("limits"));
        Map<String, String> requests = Nodes.stringMap(resources.get("requests"));
        limits.forEach((k, v) -> FieldChecks.quantity(v, path.child("limits").key(k), errs));
        FieldPath reqPath = path.child("requests");
        requests.forEach(
                (k, v) -> {
                    BigDecimal req = FieldChecks.quantity(v, reqPath.key(k), errs);
                    BigDecimal lim =
                            limits.containsKey(k) ? FieldChecks.amount(limits.get(k)) : null;
                    if (req != null && lim != null && req.compareTo(lim) > 0) {
                        errs.add(
                                FieldError.invalid(
                                        reqPath.toString(),
                                        v,
                                        "must be less than or equal to "
                                                + k
                                                + " limit of "
                                                + limits.get(k)));
                    }
                });
        return errs;
    }
}
