package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validation of pod specs and pod templates ({@code ValidatePodSpec}, {@code
 * ValidatePodTemplateSpec}), shared by pods and the workload kinds. Covers what users commonly get
 * wrong: containers, images, ports, environment, mounts, resources, volumes, enums and names; not
 * every field Kubernetes checks.
 */
public final class PodSpecValidation {
    private PodSpecValidation() {}

    public static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    public static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES =
            List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES =
            List.of("File", "FallbackToLogsOnError");
    static final List<String> TAINT_EFFECTS =
            List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    private static final List<String> VOLUME_SOURCES =
            List.of(
                    "emptyDir",
                    "hostPath",
                    "gitRepo",
                    "gcePersistentDisk",
                    "awsElasticBlockStore",
                    "secret",
                    "nfs",
                    "iscsi",
                    "glusterfs",
                    "flocker",
                    "persistentVolumeClaim",
                    "rbd",
                    "cinder",
                    "cephfs",
                    "quobyte",
                    "downwardAPI",
                    "fc",
                    "flexVolume",
                    "configMap",
                    "azureFile",
                    "vsphereVolume",
                    "photonPersistentDisk",
                    "portworxVolume",
                    "azureDisk",
                    "storageos",
                    "projected",
                    "scaleIO",
                    "csi",
                    "ephemeral",
                    "image");

    /** {@code template}: labels and annotations of its metadata, then its spec. */
    public static List<FieldError> validatePodTemplate(JsonNode template, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (template == null || !template.isObject()) {
            errs.add(FieldError.required(path.toString(), ""));
            return errs;
        }
        JsonNode meta = template.path("metadata");
        errs.addAll(LabelValidation.labels(meta.get("labels"), path.child("labels")));
        errs.addAll(
                ObjectMetaValidation.annotations(
                        meta.get("annotations"), path.child("annotations")));
        JsonNode spec = template.path("spec");
        errs.addAll(validatePodSpec(spec, path.child("spec"), false));
        if (!Nodes.items(spec, "ephemeralContainers").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            path.child("spec", "ephemeralContainers").toString(),
                            "ephemeral containers not allowed in pod template"));
        }
        return errs;
    }

    /**
     * A pod spec. {@code isPod} enables the checks Kubernetes applies to pods but not to templates
     * (hostPort must equal containerPort on the host network).
     */
    public static List<FieldError> validatePodSpec(JsonNode spec, FieldPath path, boolean isPod) {
        List<FieldError> errs = new ArrayList<>();
        if (!Nodes.has(spec, "terminationGracePeriodSeconds")) {
            errs.add(
                    FieldError.required(
                            path.child("terminationGracePeriodSeconds").toString(), ""));
        }
        Set<String> volumes = volumes(spec, path.child("volumes"), errs);
        errs.addAll(containers(spec, volumes, path.child("containers")));
        errs.addAll(initContainers(spec, volumes, path.child("initContainers")));
        if (spec.path("hostNetwork").asBoolean(false)) {
            errs.addAll(hostNetworkPorts(spec, path.child("containers"), isPod));
        }
        errs.addAll(enumField(spec, "restartPolicy", RESTART_POLICIES, path));
        errs.addAll(enumField(spec, "dnsPolicy", DNS_POLICIES, path));
        errs.addAll(LabelValidation.labels(spec.get("nodeSelector"), path.child("nodeSelector")));
        subdomainField(spec, "serviceAccountName", path, errs);
        subdomainField(spec, "nodeName", path, errs);
        subdomainField(spec, "priorityClassName", path, errs);
        labelField(spec, "hostname", path, errs);
        labelField(spec, "subdomain", path, errs);
        if (Nodes.has(spec, "activeDeadlineSeconds")) {
            long v = spec.get("activeDeadlineSeconds").asLong();
            if (v < 1 || v > Integer.MAX_VALUE) {
                errs.add(
                        FieldError.invalid(
                                path.child("activeDeadlineSeconds").toString(),
                                v,
                                NameValidation.inclusiveRangeError(1, Integer.MAX_VALUE)));
            }
        }
        errs.addAll(tolerations(spec, path.child("tolerations")));
        return errs;
    }

    private static Set<String> volumes(JsonNode spec, FieldPath path, List<FieldError> errs) {
        Set<String> names = new HashSet<>();
        List<JsonNode> vols = Nodes.items(spec, "volumes");
        for (int i = 0; i < vols.size(); i++) {
            JsonNode v = vols.get(i);
            FieldPath idx = path.index(i);
            List<FieldError> el = new ArrayList<>(volumeSource(v, idx));
            String name = Nodes.text(v, "name");
            FieldPath namePath = idx.child("name");
            if (name.isEmpty()) {
                el.add(FieldError.required(namePath.toString(), ""));
            } else {
                for (String msg : NameValidation.dns1123Label(name)) {
                    el.add(FieldError.invalid(namePath.toString(), name, msg));
                }
            }
            if (names.contains(name)) {
                el.add(FieldError.duplicate(namePath.toString(), name));
            }
            if (el.isEmpty()) {
                names.add(name);
            } else {
                errs.addAll(el);
            }
        }
        return names;
    }

    private static List<FieldError> volumeSource(JsonNode v, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        int count = 0;
        for (String source : VOLUME_SOURCES) {
            if (!Nodes.has(v, source)) {
                continue;
            }
            if (count > 0) {
                errs.add(
                        FieldError.forbidden(
                                path.child(source).toString(),
                                "may not specify more than 1 volume type"));
                continue;
            }
            count++;
            JsonNode s = v.get(source);
            switch (source) {
                case "secret" -> requiredText(s, "secretName", path.child(source), errs);
                case "configMap" -> requiredText(s, "name", path.child(source), errs);
                case "persistentVolumeClaim" ->
                        requiredText(s, "claimName", path.child(source), errs);
                case "hostPath" -> requiredText(s, "path", path.child(source), errs);
                case "nfs" -> {
                    requiredText(s, "server", path.child(source), errs);
                    requiredText(s, "path", path.child(source), errs);
                }
                default -> {}
            }
        }
        if (count == 0) {
            errs.add(FieldError.required(path.toString(), "must specify a volume type"));
        }
        return errs;
    }

    private static List<FieldError> containers(JsonNode spec, Set<String> volumes, FieldPath path) {
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

    private static List<FieldError> initContainers(
            JsonNode spec, Set<String> volumes, FieldPath path) {
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
            errs.addAll(protocol(p, idx));
        }
        return errs;
    }

    /** A required {@code protocol} among SCTP, TCP and UDP. */
    static List<FieldError> protocol(JsonNode port, FieldPath path) {
        String protocol = Nodes.text(port, "protocol");
        if (protocol.isEmpty()) {
            return List.of(FieldError.required(path.child("protocol").toString(), ""));
        }
        if (!PROTOCOLS.contains(protocol)) {
            return List.of(
                    FieldError.notSupported(
                            path.child("protocol").toString(), protocol, PROTOCOLS));
        }
        return List.of();
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

    private static List<FieldError> hostNetworkPorts(JsonNode spec, FieldPath path, boolean isPod) {
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
        limits.forEach((k, v) -> quantity(v, path.child("limits").key(k), errs));
        FieldPath reqPath = path.child("requests");
        requests.forEach(
                (k, v) -> {
                    BigDecimal req = quantity(v, reqPath.key(k), errs);
                    BigDecimal lim = limits.containsKey(k) ? amount(limits.get(k)) : null;
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

    private static BigDecimal amount(String text) {
        return Quantity.parse(text).map(Quantity::amount).orElse(null);
    }

    /** The parsed quantity, or null after recording why it is invalid. */
    static BigDecimal quantity(String text, FieldPath path, List<FieldError> errs) {
        BigDecimal q = amount(text);
        if (q == null) {
            errs.add(FieldError.invalid(path.toString(), text, Quantity.FORMAT_WRONG));
        } else if (q.signum() < 0) {
            errs.add(FieldError.invalid(path.toString(), text, ObjectMetaValidation.IS_NEGATIVE));
            return null;
        }
        return q;
    }

    private static List<FieldError> tolerations(JsonNode spec, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> ts = Nodes.items(spec, "tolerations");
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            FieldPath idx = path.index(i);
            String key = Nodes.text(t, "key");
            String op = Nodes.text(t, "operator");
            String effect = Nodes.text(t, "effect");
            if (!key.isEmpty()) {
                errs.addAll(LabelValidation.labelKey(key, idx.child("key")));
            }
            if (key.isEmpty() && !op.equals("Exists")) {
                errs.add(
                        FieldError.invalid(
                                idx.child("operator").toString(),
                                op,
                                "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
            }
            if (Nodes.has(t, "tolerationSeconds") && !effect.equals("NoExecute")) {
                errs.add(
                        FieldError.invalid(
                                idx.child("effect").toString(),
                                effect,
                                "effect must be 'NoExecute' when `tolerationSeconds` is set"));
            }
            switch (op) {
                case "", "Equal" ->
                        NameValidation.labelValue(Nodes.text(t, "value"))
                                .forEach(
                                        m ->
                                                errs.add(
                                                        FieldError.invalid(
                                                                idx.child("operator").toString(),
                                                                Nodes.text(t, "value"),
                                                                m)));
                case "Exists" -> {
                    if (!Nodes.text(t, "value").isEmpty()) {
                        errs.add(
                                FieldError.invalid(
                                        idx.child("operator").toString(),
                                        Nodes.text(t, "value"),
                                        "value must be empty when `operator` is 'Exists'"));
                    }
                }
                default ->
                        errs.add(
                                FieldError.notSupported(
                                        idx.child("operator").toString(),
                                        op,
                                        List.of("Equal", "Exists")));
            }
            if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                errs.add(
                        FieldError.notSupported(
                                idx.child("effect").toString(), effect, TAINT_EFFECTS));
            }
        }
        return errs;
    }

    /** A required enum field: Required when empty, Unsupported when not among {@code values}. */
    static List<FieldError> enumField(
            JsonNode parent, String field, List<String> values, FieldPath parentPath) {
        String v = Nodes.text(parent, field);
        if (v.isEmpty()) {
            return List.of(FieldError.required(parentPath.child(field).toString(), ""));
        }
        if (!values.contains(v)) {
            return List.of(FieldError.notSupported(parentPath.child(field).toString(), v, values));
        }
        return List.of();
    }

    static void requiredText(
            JsonNode parent, String field, FieldPath parentPath, List<FieldError> errs) {
        if (Nodes.text(parent, field).isEmpty()) {
            errs.add(FieldError.required(parentPath.child(field).toString(), ""));
        }
    }

    private static void subdomainField(
            JsonNode spec, String field, FieldPath path, List<FieldError> errs) {
        String v = Nodes.text(spec, field);
        if (!v.isEmpty()) {
            NameValidation.dns1123Subdomain(v)
                    .forEach(m -> errs.add(FieldError.invalid(path.child(field).toString(), v, m)));
        }
    }

    private static void labelField(
            JsonNode spec, String field, FieldPath path, List<FieldError> errs) {
        String v = Nodes.text(spec, field);
        if (!v.isEmpty()) {
            NameValidation.dns1123Label(v)
                    .forEach(m -> errs.add(FieldError.invalid(path.child(field).toString(), v, m)));
        }
    }
}
