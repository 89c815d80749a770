package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.Int64Value;
import io.kubepekko.agent.cri.v1.LinuxPodSandboxConfig;
import io.kubepekko.agent.cri.v1.LinuxSandboxSecurityContext;
import io.kubepekko.agent.cri.v1.NamespaceMode;
import io.kubepekko.agent.cri.v1.NamespaceOption;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import io.kubepekko.agent.cri.v1.PortMapping;
import io.kubepekko.agent.cri.v1.Protocol;
import io.kubepekko.agent.cri.v1.SELinuxOption;
import io.kubepekko.agent.cri.v1.SecurityProfile;
import io.kubepekko.agent.cri.v1.SupplementalGroupsPolicy;
import io.kubepekko.agent.pod.QosClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A pod's {@code PodSandboxConfig} as kuberuntime_sandbox.go {@code generatePodSandboxConfig} and
 * {@code generatePodSandboxLinuxConfig} build it, with labels and annotations from labels.go
 * ({@code newPodLabels}, {@code newPodAnnotations}). Not sent: sandbox-level resources and overhead
 * (containerd 1.6 ignores them), user namespaces, Windows fields.
 */
public final class SandboxConfigs {
    private SandboxConfigs() {}

    public static final String POD_NAME_LABEL = "io.kubernetes.pod.name";
    public static final String POD_NAMESPACE_LABEL = "io.kubernetes.pod.namespace";
    public static final String POD_UID_LABEL = "io.kubernetes.pod.uid";

    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /**
     * The config, and warnings the kubelet records as events while building it (e.g. {@code
     * MissingClusterDNS}).
     */
    public record Result(PodSandboxConfig config, List<String> warnings) {
        public Result {
            warnings = List.copyOf(warnings);
        }
    }

    public static Result build(JsonNode pod, int attempt, NodeContext node)
            throws PodConfigException {
        String name = Json.text(pod, "metadata", "name");
        String ns = Json.text(pod, "metadata", "namespace");
        String uid = Json.text(pod, "metadata", "uid");
        List<String> warnings = new ArrayList<>();

        PodSandboxConfig.Builder b =
                PodSandboxConfig.newBuilder()
                        .setMetadata(
                                PodSandboxMetadata.newBuilder()
                                        .setName(name)
                                        .setNamespace(ns)
                                        .setUid(uid)
                                        .setAttempt(attempt))
                        .putAllLabels(podLabels(pod))
                        .putAllAnnotations(Json.stringMap(pod, "metadata", "annotations"));

        PodDns.Result dns = PodDns.of(pod, node);
        b.setDnsConfig(dns.config());
        if (!dns.warning().isEmpty()) {
            warnings.add(dns.warning());
        }
        if (!Json.bool(pod, "spec", "hostNetwork")) {
            // containerd refuses a hostname on a host-network sandbox; kube sets none there either
            b.setHostname(kernelHostname(pod, node.clusterDomain()));
        }
        b.setLogDirectory(podLogDirectory(node, ns, name, uid).toString());
        b.addAllPortMappings(portMappings(pod));
        b.setLinux(linux(pod));
        return new Result(b.build(), warnings);
    }

    /** {@code BuildPodLogsDirectory}: {@code <pod logs dir>/<namespace>_<name>_<uid>}. */
    public static Path podLogDirectory(NodeContext node, String ns, String name, String uid) {
        return node.podLogsDir().resolve(ns + "_" + name + "_" + uid);
    }

    /**
     * {@code newPodLabels}: the pod's labels plus its name, namespace and uid under kube's CRI
     * label keys.
     */
    public static Map<String, String> podLabels(JsonNode pod) {
        Map<String, String> labels = new LinkedHashMap<>(Json.stringMap(pod, "metadata", "labels"));
        labels.put(POD_NAME_LABEL, Json.text(pod, "metadata", "name"));
        labels.put(POD_NAMESPACE_LABEL, Json.text(pod, "metadata", "namespace"));
        labels.put(POD_UID_LABEL, Json.text(pod, "metadata", "uid"));
        return labels;
    }

    /**
     * {@code GeneratePodHostNameAndDomain} + {@code GetNodenameForKernel}: {@code spec.hostname} or
     * the pod's name, cut to 63 characters without a trailing {@code -} or {@code .}; with {@code
     * setHostnameAsFQDN} and a {@code subdomain}, the FQDN {@code
     * <host>.<subdomain>.<ns>.svc.<cluster domain>} (at most 64 characters).
     */
    public static String kernelHostname(JsonNode pod, String clusterDomain)
            throws PodConfigException {
        String podName = Json.text(pod, "metadata", "name");
        String hostname = podName;
        String specHostname = Json.text(pod, "spec", "hostname");
        if (!specHostname.isEmpty()) {
            if (!isDns1123Label(specHostname)) {
                throw PodConfigException.sandbox(
                        "pod Hostname \"" + specHostname + "\" is not a valid DNS label");
            }
            hostname = specHostname;
        }
        if (hostname.length() > 63) {
            hostname = hostname.substring(0, 63).replaceAll("[-.]+$", "");
            if (hostname.isEmpty()) {
                throw PodConfigException.sandbox(
                        "hostname for pod \"" + podName + "\" was invalid: \"" + hostname + "\"");
            }
        }
        String domain = "";
        String subdomain = Json.text(pod, "spec", "subdomain");
        if (!subdomain.isEmpty()) {
            if (!isDns1123Label(subdomain)) {
                throw PodConfigException.sandbox(
                        "pod Subdomain \"" + subdomain + "\" is not a valid DNS label");
            }
            domain =
                    subdomain
                            + "."
                            + Json.text(pod, "metadata", "namespace")
                            + ".svc."
                            + clusterDomain;
        }
        if (!domain.isEmpty() && Json.bool(pod, "spec", "setHostnameAsFQDN")) {
            String fqdn = hostname + "." + domain;
            if (fqdn.length() > 64) {
                throw PodConfigException.sandbox(
                        "failed to construct FQDN from pod hostname and cluster domain, FQDN "
                                + fqdn
                                + " is too long (64 characters is the max, "
                                + fqdn.length()
                                + " characters requested)");
            }
            return fqdn;
        }
        return hostname;
    }

    private static boolean isDns1123Label(String s) {
        return s.length() <= 63 && DNS1123_LABEL.matcher(s).matches();
    }

    /**
     * {@code MakePortMappings} over the app containers: every declared port (hostPort 0 included),
     * protocol defaulting to TCP, a second port of the same container with the same name dropped.
     */
    static List<PortMapping> portMappings(JsonNode pod) {
        List<PortMapping> out = new ArrayList<>();
        for (JsonNode c : Json.items(pod, "spec", "containers")) {
            Set<String> names = new HashSet<>();
            for (JsonNode p : Json.items(c, "ports")) {
                String protocol =
                        Json.text(p, "protocol").isEmpty() ? "TCP" : Json.text(p, "protocol");
                String hostIp = Json.text(p, "hostIP");
                String family = hostIp.isEmpty() ? "" : hostIp.contains(":") ? "v6" : "v4";
                String portName =
                        Json.text(p, "name").isEmpty()
                                ? Json.text(c, "name")
                                        + "-"
                                        + family
                                        + "-"
                                        + protocol
                                        + ":"
                                        + p.path("containerPort").asInt()
                                : Json.text(c, "name") + "-" + Json.text(p, "name");
                if (!names.add(portName)) {
                    continue;
                }
                out.add(
                        PortMapping.newBuilder()
                                .setProtocol(
                                        switch (protocol) {
                                            case "UDP" -> Protocol.UDP;
                                            case "SCTP" -> Protocol.SCTP;
                                            default -> Protocol.TCP;
                                        })
                                .setContainerPort(p.path("containerPort").asInt())
                                .setHostPort(p.path("hostPort").asInt(0))
                                .setHostIp(hostIp)
                                .build());
            }
        }
        return out;
    }

    /**
     * The pod's cgroup under the cgroupfs driver: {@code /kubepods/<qos>/pod<uid>}, Guaranteed
     * directly under kubepods.
     */
    public static String cgroupParent(JsonNode pod) {
        String level = QosClass.of(pod).cgroupLevel();
        return "/kubepods"
                + (level.isEmpty() ? "" : "/" + level)
                + "/pod"
                + Json.text(pod, "metadata", "uid");
    }

    /**
     * {@code NamespacesForPod}: host namespaces when asked; the PID namespace is per container
     * unless shared.
     */
    static NamespaceOption namespaces(JsonNode pod) {
        JsonNode spec = Json.at(pod, "spec");
        NamespaceMode pid =
                Json.bool(spec, "hostPID")
                        ? NamespaceMode.NODE
                        : Json.bool(spec, "shareProcessNamespace")
                                ? NamespaceMode.POD
                                : NamespaceMode.CONTAINER;
        return NamespaceOption.newBuilder()
                .setNetwork(Json.bool(spec, "hostNetwork") ? NamespaceMode.NODE : NamespaceMode.POD)
                .setPid(pid)
                .setIpc(Json.bool(spec, "hostIPC") ? NamespaceMode.NODE : NamespaceMode.POD)
                .build();
    }

    /**
     * {@code HasPrivilegedContainer}: any init or app container with {@code
     * securityContext.privileged}.
     */
    static boolean hasPrivilegedContainer(JsonNode pod) {
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            for (JsonNode c : Json.items(pod, "spec", list)) {
                if (Json.bool(c, "securityContext", "privileged")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Supplemental groups of the pod: fsGroup first, then {@code supplementalGroups} in order. */
    static List<Long> supplementalGroups(JsonNode podSc) {
        List<Long> groups = new ArrayList<>();
        Json.optLong(podSc, "fsGroup").ifPresent(groups::add);
        for (JsonNode g : Json.items(podSc, "supplementalGroups")) {
            groups.add(g.asLong());
        }
        return groups;
    }

    static SELinuxOption seLinux(JsonNode o) {
        return SELinuxOption.newBuilder()
                .setUser(Json.text(o, "user"))
                .setRole(Json.text(o, "role"))
                .setType(Json.text(o, "type"))
                .setLevel(Json.text(o, "level"))
                .build();
    }

    private static LinuxPodSandboxConfig linux(JsonNode pod) throws PodConfigException {
        LinuxSandboxSecurityContext.Builder sc =
                LinuxSandboxSecurityContext.newBuilder()
                        .setPrivileged(hasPrivilegedContainer(pod))
                        // kube forces runtime/default on the sandbox so pods can use stricter
                        // profiles (issue #84623)
                        .setSeccomp(
                                SecurityProfile.newBuilder()
                                        .setProfileType(
                                                SecurityProfile.ProfileType.RuntimeDefault));
        Map<String, String> sysctls = new LinkedHashMap<>();
        JsonNode podSc = Json.at(pod, "spec", "securityContext");
        if (podSc.isObject()) {
            for (JsonNode s : Json.items(podSc, "sysctls")) {
                sysctls.put(Json.text(s, "name"), Json.text(s, "value"));
            }
            Json.optLong(podSc, "runAsUser")
                    .ifPresent(u -> sc.setRunAsUser(Int64Value.newBuilder().setValue(u)));
            Json.optLong(podSc, "runAsGroup")
                    .ifPresent(g -> sc.setRunAsGroup(Int64Value.newBuilder().setValue(g)));
            sc.setNamespaceOptions(namespaces(pod));
            sc.addAllSupplementalGroups(supplementalGroups(podSc));
            String policy = Json.text(podSc, "supplementalGroupsPolicy");
            if (!policy.isEmpty()) {
                sc.setSupplementalGroupsPolicy(
                        switch (policy) {
                            case "Merge" -> SupplementalGroupsPolicy.Merge;
                            case "Strict" -> SupplementalGroupsPolicy.Strict;
                            default ->
                                    throw PodConfigException.sandbox(
                                            "unsupported supplementalGroupsPolicy: " + policy);
                        });
            }
            if (podSc.path("seLinuxOptions").isObject()) {
                sc.setSelinuxOptions(seLinux(podSc.get("seLinuxOptions")));
            }
        }
        return LinuxPodSandboxConfig.newBuilder()
                .setCgroupParent(cgroupParent(pod))
                .setSecurityContext(sc)
                .putAllSysctls(sysctls)
                .build();
    }
}
