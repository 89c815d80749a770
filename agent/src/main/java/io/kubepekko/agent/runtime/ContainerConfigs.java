package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.kubepekko.agent.cri.v1.Capability;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.Int64Value;
import io.kubepekko.agent.cri.v1.KeyValue;
import io.kubepekko.agent.cri.v1.LinuxContainerConfig;
import io.kubepekko.agent.cri.v1.LinuxContainerSecurityContext;
import io.kubepekko.agent.cri.v1.Mount;
import io.kubepekko.agent.cri.v1.SecurityProfile;
import io.kubepekko.agent.cri.v1.SupplementalGroupsPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A container's {@code ContainerConfig} as kuberuntime_container.go {@code generateContainerConfig}
 * and kuberuntime_container_linux.go {@code generateLinuxContainerConfig} build it: metadata (name,
 * attempt = restart count), image, command and args with {@code $(VAR)} expanded against the
 * environment, working dir, environment ({@link EnvironmentBuilder}), mounts ({@link
 * VolumePlanner#mounts}) plus the termination message file, log path {@code
 * <container>/<attempt>.log}, labels ({@code newContainerLabels}), annotations ({@code
 * newContainerAnnotations}), Linux resources ({@link LinuxResources}) and the effective security
 * context ({@code determineEffectiveSecurityContext}). Not done: the image's own user for {@code
 * runAsNonRoot} (only an explicit {@code runAsUser: 0} is refused), service-link variables, the
 * managed {@code /etc/hosts}, devices.
 */
public final class ContainerConfigs {
    private ContainerConfigs() {}

    public static final String CONTAINER_NAME_LABEL = "io.kubernetes.container.name";
    public static final String HASH_ANNOTATION = "io.kubernetes.container.hash";
    public static final String RESTART_COUNT_ANNOTATION = "io.kubernetes.container.restartCount";
    public static final String TERMINATION_MESSAGE_PATH_ANNOTATION =
            "io.kubernetes.container.terminationMessagePath";
    public static final String TERMINATION_MESSAGE_POLICY_ANNOTATION =
            "io.kubernetes.container.terminationMessagePolicy";
    public static final String DELETION_GRACE_ANNOTATION = "io.kubernetes.pod.deletionGracePeriod";
    public static final String TERMINATION_GRACE_ANNOTATION =
            "io.kubernetes.pod.terminationGracePeriod";
    public static final String PRE_STOP_ANNOTATION = "io.kubernetes.container.preStopHandler";
    public static final String PORTS_ANNOTATION = "io.kubernetes.container.ports";
    public static final String TYPE_ANNOTATION = "io.kubernetes.container.type";

    /**
     * securitycontext {@code defaultMaskedPaths} / {@code defaultReadonlyPaths} (procMount
     * Default).
     */
    static final List<String> DEFAULT_MASKED_PATHS =
            List.of(
                    "/proc/asound",
                    "/proc/acpi",
                    "/proc/kcore",
                    "/proc/keys",
                    "/proc/latency_stats",
                    "/proc/timer_list",
                    "/proc/timer_stats",
                    "/proc/sched_debug",
                    "/proc/scsi",
                    "/sys/firmware",
                    "/sys/devices/virtual/powercap");

    static final List<String> DEFAULT_READONLY_PATHS =
            List.of("/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger");

    /**
     * What to create a container with.
     *
     * @param config the CRI config
     * @param mounts its volume mounts and the subPath directories to create first ({@link
     *     VolumeWriter#ensureSubPaths})
     * @param terminationLogHostPath the file to create before {@code CreateContainer} ({@link
     *     VolumeWriter#createTerminationLog}), when the container has a termination message path
     */
    public record Plan(
            ContainerConfig config,
            VolumePlanner.ContainerMounts mounts,
            Optional<Path> terminationLogHostPath) {}

    /**
     * Builds the config of {@code container} of {@code pod}.
     *
     * @param restartCount the container's restart count: the CRI attempt and the log file's number
     * @param imageRef the image as the runtime knows it (the id PullImage/ImageStatus answered)
     * @param podIps the sandbox's addresses, primary first
     * @param terminationLogId a fresh unique name for the termination message file (kube uses a
     *     random id)
     */
    public static Plan build(
            JsonNode pod,
            JsonNode container,
            int restartCount,
            String imageRef,
            List<String> podIps,
            PodInputs inputs,
            VolumePlan volumes,
            NodeContext node,
            String terminationLogId)
            throws PodConfigException {
        String name = Json.text(container, "name");
        String uid = Json.text(pod, "metadata", "uid");
        verifyRunAsNonRoot(pod, container);

        List<EnvironmentBuilder.EnvVar> env =
                EnvironmentBuilder.build(pod, container, inputs, node, podIps);
        VolumePlanner.ContainerMounts mounts = VolumePlanner.mounts(container, volumes);
        List<Mount> allMounts = new ArrayList<>(mounts.mounts());
        Optional<Path> terminationLog = Optional.empty();
        String terminationPath = Json.text(container, "terminationMessagePath");
        if (!terminationPath.isEmpty()) {
            Path hostPath =
                    node.podDir(uid).resolve("containers").resolve(name).resolve(terminationLogId);
            terminationLog = Optional.of(hostPath);
            allMounts.add(
                    Mount.newBuilder()
                            .setHostPath(hostPath.toString())
                            .setContainerPath(terminationPath)
                            .build());
        }

        ContainerConfig.Builder b =
                ContainerConfig.newBuilder()
                        .setMetadata(
                                ContainerMetadata.newBuilder()
                                        .setName(name)
                                        .setAttempt(restartCount))
                        .setImage(
                                ImageSpec.newBuilder()
                                        .setImage(imageRef)
                                        .setUserSpecifiedImage(Json.text(container, "image")))
                        .addAllCommand(
                                EnvironmentBuilder.expandAll(
                                        Json.strings(container, "command"), env))
                        .addAllArgs(
                                EnvironmentBuilder.expandAll(Json.strings(container, "args"), env))
                        .setWorkingDir(Json.text(container, "workingDir"))
                        .putAllLabels(containerLabels(pod, name))
                        .putAllAnnotations(containerAnnotations(pod, container, restartCount))
                        .addAllMounts(allMounts)
                        .setLogPath(logPath(name, restartCount))
                        .setStdin(Json.bool(container, "stdin"))
                        .setStdinOnce(Json.bool(container, "stdinOnce"))
                        .setTty(Json.bool(container, "tty"))
                        .setLinux(
                                LinuxContainerConfig.newBuilder()
                                        .setResources(
                                                LinuxResources.of(
                                                        pod, container, node.memoryCapacity()))
                                        .setSecurityContext(securityContext(pod, container)));
        for (EnvironmentBuilder.EnvVar e : env) {
            b.addEnvs(
                    KeyValue.newBuilder()
                            .setKey(e.name())
                            .setValue(ByteString.copyFromUtf8(e.value())));
        }
        return new Plan(b.build(), mounts, terminationLog);
    }

    /** {@code buildContainerLogsPath}: relative to the sandbox's log directory. */
    public static String logPath(String containerName, int restartCount) {
        return containerName + "/" + restartCount + ".log";
    }

    /**
     * {@code newContainerLabels}: the pod's identity and the container's name, nothing of the
     * user's.
     */
    public static Map<String, String> containerLabels(JsonNode pod, String containerName) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SandboxConfigs.POD_NAME_LABEL, Json.text(pod, "metadata", "name"));
        labels.put(SandboxConfigs.POD_NAMESPACE_LABEL, Json.text(pod, "metadata", "namespace"));
        labels.put(SandboxConfigs.POD_UID_LABEL, Json.text(pod, "metadata", "uid"));
        labels.put(CONTAINER_NAME_LABEL, containerName);
        return labels;
    }

    /** {@code newContainerAnnotations}. */
    static Map<String, String> containerAnnotations(
            JsonNode pod, JsonNode container, int restartCount) {
        Map<String, String> a = new LinkedHashMap<>();
        a.put(HASH_ANNOTATION, hash(container));
        a.put(RESTART_COUNT_ANNOTATION, Integer.toString(restartCount));
        a.put(TERMINATION_MESSAGE_PATH_ANNOTATION, Json.text(container, "terminationMessagePath"));
        a.put(
                TERMINATION_MESSAGE_POLICY_ANNOTATION,
                Json.text(container, "terminationMessagePolicy"));
        Json.optLong(pod, "metadata", "deletionGracePeriodSeconds")
                .ifPresent(g -> a.put(DELETION_GRACE_ANNOTATION, Long.toString(g)));
        Json.optLong(pod, "spec", "terminationGracePeriodSeconds")
                .ifPresent(g -> a.put(TERMINATION_GRACE_ANNOTATION, Long.toString(g)));
        JsonNode preStop = Json.at(container, "lifecycle", "preStop");
        if (preStop.isObject()) {
            a.put(PRE_STOP_ANNOTATION, preStop.toString());
        }
        JsonNode ports = container.path("ports");
        if (ports.isArray() && ports.size() > 0) {
            a.put(PORTS_ANNOTATION, ports.toString());
        }
        String name = Json.text(container, "name");
        if (Json.items(pod, "spec", "initContainers").stream()
                .anyMatch(c -> name.equals(Json.text(c, "name")))) {
            a.put(TYPE_ANNOTATION, "init");
        } else if (Json.items(pod, "spec", "containers").stream()
                .anyMatch(c -> name.equals(Json.text(c, "name")))) {
            a.put(TYPE_ANNOTATION, "container");
        } else if (Json.items(pod, "spec", "ephemeralContainers").stream()
                .anyMatch(c -> name.equals(Json.text(c, "name")))) {
            a.put(TYPE_ANNOTATION, "ephemeral");
        }
        return a;
    }

    /**
     * A 32-bit FNV-1a of the container's spec as JSON, in hex. The kubelet hashes its Go struct the
     * same way; the numbers differ from the kubelet's, but a changed spec changes the hash, which
     * is what the agent compares.
     */
    static String hash(JsonNode container) {
        int h = 0x811c9dc5;
        for (byte by : container.toString().getBytes(StandardCharsets.UTF_8)) {
            h ^= by & 0xff;
            h *= 0x01000193;
        }
        return Long.toHexString(h & 0xffffffffL);
    }

    /**
     * {@code verifyRunAsNonRoot}, for what is known without the image: an explicit uid 0 breaks the
     * policy.
     */
    private static void verifyRunAsNonRoot(JsonNode pod, JsonNode container)
            throws PodConfigException {
        JsonNode podSc = Json.at(pod, "spec", "securityContext");
        JsonNode sc = Json.at(container, "securityContext");
        boolean nonRoot =
                Json.optBool(sc, "runAsNonRoot")
                        .or(() -> Json.optBool(podSc, "runAsNonRoot"))
                        .orElse(false);
        Optional<Long> user =
                Json.optLong(sc, "runAsUser").or(() -> Json.optLong(podSc, "runAsUser"));
        if (nonRoot && user.isPresent() && user.get() == 0) {
            throw PodConfigException.containerConfig(
                    "container's runAsUser breaks non-root policy (pod: \""
                            + Json.text(pod, "metadata", "name")
                            + "_"
                            + Json.text(pod, "metadata", "namespace")
                            + "("
                            + Json.text(pod, "metadata", "uid")
                            + ")\", container: "
                            + Json.text(container, "name")
                            + ")");
        }
    }

    /**
     * {@code determineEffectiveSecurityContext}: the container's settings, then the pod's for user,
     * group, SELinux and seccomp; the pod's namespaces and supplemental groups; {@code
     * no_new_privs} when {@code allowPrivilegeEscalation: false}; seccomp Unconfined unless a
     * profile is set (kubelet {@code --seccomp-default=false}); kube's default masked and read-only
     * /proc paths unless privileged or {@code procMount: Unmasked}.
     */
    static LinuxContainerSecurityContext securityContext(JsonNode pod, JsonNode container)
            throws PodConfigException {
        JsonNode podSc = Json.at(pod, "spec", "securityContext");
        JsonNode sc = Json.at(container, "securityContext");
        LinuxContainerSecurityContext.Builder b = LinuxContainerSecurityContext.newBuilder();
        JsonNode caps = sc.path("capabilities");
        if (caps.isObject()) {
            b.setCapabilities(
                    Capability.newBuilder()
                            .addAllAddCapabilities(Json.strings(caps, "add"))
                            .addAllDropCapabilities(Json.strings(caps, "drop")));
        }
        boolean privileged = Json.bool(sc, "privileged");
        b.setPrivileged(privileged);
        b.setReadonlyRootfs(Json.bool(sc, "readOnlyRootFilesystem"));
        Json.optLong(sc, "runAsUser")
                .or(() -> Json.optLong(podSc, "runAsUser"))
                .ifPresent(u -> b.setRunAsUser(Int64Value.newBuilder().setValue(u)));
        Json.optLong(sc, "runAsGroup")
                .or(() -> Json.optLong(podSc, "runAsGroup"))
                .ifPresent(g -> b.setRunAsGroup(Int64Value.newBuilder().setValue(g)));
        JsonNode seLinux =
                sc.path("seLinuxOptions").isObject()
                        ? sc.get("seLinuxOptions")
                        : podSc.path("seLinuxOptions");
        if (seLinux.isObject()) {
            b.setSelinuxOptions(SandboxConfigs.seLinux(seLinux));
        }
        JsonNode seccomp =
                sc.path("seccompProfile").isObject()
                        ? sc.get("seccompProfile")
                        : podSc.path("seccompProfile");
        b.setSeccomp(seccompProfile(seccomp));
        b.setNamespaceOptions(SandboxConfigs.namespaces(pod));
        if (podSc.isObject()) {
            b.addAllSupplementalGroups(SandboxConfigs.supplementalGroups(podSc));
            String policy = Json.text(podSc, "supplementalGroupsPolicy");
            if (policy.equals("Strict")) {
                b.setSupplementalGroupsPolicy(SupplementalGroupsPolicy.Strict);
            }
        }
        b.setNoNewPrivs(
                Json.optBool(sc, "allowPrivilegeEscalation").map(allow -> !allow).orElse(false));
        boolean unmasked = "Unmasked".equals(Json.text(sc, "procMount"));
        if (!privileged && !unmasked) {
            b.addAllMaskedPaths(DEFAULT_MASKED_PATHS);
            b.addAllReadonlyPaths(DEFAULT_READONLY_PATHS);
        }
        return b.build();
    }

    private static SecurityProfile seccompProfile(JsonNode profile) throws PodConfigException {
        if (!profile.isObject()) {
            return SecurityProfile.newBuilder()
                    .setProfileType(SecurityProfile.ProfileType.Unconfined)
                    .build();
        }
        return switch (Json.text(profile, "type")) {
            case "RuntimeDefault" ->
                    SecurityProfile.newBuilder()
                            .setProfileType(SecurityProfile.ProfileType.RuntimeDefault)
                            .build();
            case "Localhost" ->
                    SecurityProfile.newBuilder()
                            .setProfileType(SecurityProfile.ProfileType.Localhost)
                            .setLocalhostRef(Json.text(profile, "localhostProfile"))
                            .build();
            default ->
                    SecurityProfile.newBuilder()
                            .setProfileType(SecurityProfile.ProfileType.Unconfined)
                            .build();
        };
    }
}
