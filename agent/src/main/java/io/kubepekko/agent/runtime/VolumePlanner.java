package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.Mount;
import io.kubepekko.agent.cri.v1.MountPropagation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Plans a pod's volumes and a container's mounts as the kubelet's volume plugins and {@code
 * makeMounts} (kubelet_pods.go) decide them: host paths under {@code
 * <root-dir>/pods/<uid>/volumes/kubernetes.io~<plugin>/<name>}, file payloads as the
 * configmap/secret/downwardapi/projected plugins build them ({@code MakePayload}, {@code
 * CollectData}), and failures with the plugins' messages ({@code configmap "x" not found}, {@code
 * configmap references non-existent config key: k}, {@code references non-existent secret key: k}).
 * Volumes the agent does not support (persistentVolumeClaim, csi, ...) are planned as nothing and a
 * mount of one fails with kube's {@code cannot find volume} message.
 */
public final class VolumePlanner {
    private VolumePlanner() {}

    /** kube's default file mode for configMap, secret, downwardAPI and projected volumes (0644). */
    public static final int DEFAULT_MODE = 0644;

    public static VolumePlan plan(
            JsonNode pod, PodInputs inputs, NodeContext node, List<String> podIps)
            throws PodConfigException {
        String uid = Json.text(pod, "metadata", "uid");
        Path volumesDir = node.podDir(uid).resolve("volumes");
        Map<String, VolumePlan.Volume> out = new LinkedHashMap<>();
        for (JsonNode v : Json.items(pod, "spec", "volumes")) {
            Optional<VolumePlan.Volume> planned = volume(pod, v, volumesDir, inputs, node, podIps);
            if (planned.isPresent()) {
                out.put(planned.get().name(), planned.get());
            }
        }
        return new VolumePlan(out);
    }

    /**
     * The volumes for a container about to start in a pod whose volumes may have been set up
     * already: as {@link #plan}, except that a content volume set up before ({@code setUp} tells
     * from its host path) whose setup fails now (a non-optional ConfigMap or Secret deleted
     * meanwhile) keeps the content it has. The kubelet's volume manager blocks only a pod's first
     * mount: a failed remount is a {@code FailedMount} event, the volume stays mounted and the
     * container starts with it. A volume never set up still fails the start ({@code FailedMount}).
     */
    public static Remount planForStart(
            JsonNode pod,
            PodInputs inputs,
            NodeContext node,
            List<String> podIps,
            Predicate<Path> setUp)
            throws PodConfigException {
        Path volumesDir = node.podDir(Json.text(pod, "metadata", "uid")).resolve("volumes");
        Map<String, VolumePlan.Volume> out = new LinkedHashMap<>();
        Map<String, String> kept = new LinkedHashMap<>();
        for (JsonNode v : Json.items(pod, "spec", "volumes")) {
            try {
                volume(pod, v, volumesDir, inputs, node, podIps)
                        .ifPresent(planned -> out.put(planned.name(), planned));
            } catch (PodConfigException e) {
                Optional<Path> dir = contentDir(v, volumesDir);
                if (dir.isEmpty() || !setUp.test(dir.get())) {
                    throw e;
                }
                String name = Json.text(v, "name");
                out.put(name, new VolumePlan.Content(name, dir.get(), Map.of()));
                kept.put(name, e.eventMessage());
            }
        }
        return new Remount(new VolumePlan(out), kept);
    }

    /**
     * What {@link #planForStart} planned: every volume (for the container's mounts), and the
     * content volumes that keep what they have, each with its {@code FailedMount} message.
     */
    public record Remount(VolumePlan plan, Map<String, String> kept) {
        public Remount {
            kept = Map.copyOf(kept);
        }

        /** The volumes to set up now: all but the kept ones, which are left as they are. */
        public VolumePlan toWrite() {
            Map<String, VolumePlan.Volume> write = new LinkedHashMap<>(plan.volumes());
            write.keySet().removeAll(kept.keySet());
            return new VolumePlan(write);
        }
    }

    /** Where a content volume lives under the pod's volumes; empty for other kinds. */
    private static Optional<Path> contentDir(JsonNode v, Path volumesDir) {
        String plugin =
                v.has("configMap")
                        ? "kubernetes.io~configmap"
                        : v.has("secret")
                                ? "kubernetes.io~secret"
                                : v.has("downwardAPI")
                                        ? "kubernetes.io~downward-api"
                                        : v.has("projected") ? "kubernetes.io~projected" : null;
        return plugin == null
                ? Optional.empty()
                : Optional.of(volumesDir.resolve(plugin).resolve(Json.text(v, "name")));
    }

    /**
     * The content volumes (configMap, secret, downwardAPI, projected) planned again from the pod
     * and inputs now: what the kubelet's volume manager remounts on each pod sync ({@code
     * RequiresRemount}). A volume whose setup fails (a non-optional ConfigMap or Secret deleted
     * meanwhile, a key gone) is in {@code failed} with kube's message, and is left as it is on
     * disk, as a failed {@code SetUpAt} leaves it.
     */
    public static ContentRefresh contentVolumes(
            JsonNode pod, PodInputs inputs, NodeContext node, List<String> podIps) {
        Path volumesDir = node.podDir(Json.text(pod, "metadata", "uid")).resolve("volumes");
        List<VolumePlan.Content> volumes = new ArrayList<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (JsonNode v : Json.items(pod, "spec", "volumes")) {
            if (!(v.has("configMap")
                    || v.has("secret")
                    || v.has("downwardAPI")
                    || v.has("projected"))) {
                continue;
            }
            try {
                volume(pod, v, volumesDir, inputs, node, podIps)
                        .ifPresent(planned -> volumes.add((VolumePlan.Content) planned));
            } catch (PodConfigException e) {
                failed.put(Json.text(v, "name"), e.eventMessage());
            }
        }
        return new ContentRefresh(volumes, failed);
    }

    /**
     * What {@link #contentVolumes} planned: the volumes to write, and those left as they are with
     * why.
     */
    public record ContentRefresh(List<VolumePlan.Content> volumes, Map<String, String> failed) {
        public ContentRefresh {
            volumes = List.copyOf(volumes);
            failed = Map.copyOf(failed);
        }
    }

    /** One volume of the pod; empty for a kind the agent does not support. */
    private static Optional<VolumePlan.Volume> volume(
            JsonNode pod,
            JsonNode v,
            Path volumesDir,
            PodInputs inputs,
            NodeContext node,
            List<String> podIps)
            throws PodConfigException {
        String name = Json.text(v, "name");
        if (v.has("emptyDir")) {
            return Optional.of(
                    new VolumePlan.EmptyDir(
                            name, volumesDir.resolve("kubernetes.io~empty-dir").resolve(name)));
        } else if (v.has("hostPath")) {
            return Optional.of(
                    new VolumePlan.HostPath(
                            name,
                            Path.of(Json.text(v, "hostPath", "path")),
                            Json.text(v, "hostPath", "type")));
        } else if (v.has("configMap")) {
            JsonNode src = v.get("configMap");
            Map<String, VolumePlan.FileContent> files = new TreeMap<>();
            try {
                PayloadSources.configMapFiles(
                        src, PayloadSources.mode(src, "defaultMode", DEFAULT_MODE), inputs, files);
            } catch (PayloadSources.SourceError e) {
                throw PodConfigException.mount(name, e.getMessage());
            }
            return Optional.of(
                    new VolumePlan.Content(
                            name,
                            volumesDir.resolve("kubernetes.io~configmap").resolve(name),
                            files));
        } else if (v.has("secret")) {
            JsonNode src = v.get("secret");
            Map<String, VolumePlan.FileContent> files = new TreeMap<>();
            try {
                PayloadSources.secretFiles(
                        src,
                        Json.text(src, "secretName"),
                        PayloadSources.mode(src, "defaultMode", DEFAULT_MODE),
                        inputs,
                        files);
            } catch (PayloadSources.SourceError e) {
                throw PodConfigException.mount(name, e.getMessage());
            }
            return Optional.of(
                    new VolumePlan.Content(
                            name, volumesDir.resolve("kubernetes.io~secret").resolve(name), files));
        } else if (v.has("downwardAPI")) {
            JsonNode src = v.get("downwardAPI");
            Map<String, VolumePlan.FileContent> files = new TreeMap<>();
            try {
                PayloadSources.downwardFiles(
                        pod,
                        src,
                        PayloadSources.mode(src, "defaultMode", DEFAULT_MODE),
                        node,
                        podIps,
                        files);
            } catch (PayloadSources.SourceError e) {
                throw PodConfigException.mount(name, e.getMessage());
            }
            return Optional.of(
                    new VolumePlan.Content(
                            name,
                            volumesDir.resolve("kubernetes.io~downward-api").resolve(name),
                            files));
        } else if (v.has("projected")) {
            JsonNode src = v.get("projected");
            int defaultMode = PayloadSources.mode(src, "defaultMode", DEFAULT_MODE);
            Map<String, VolumePlan.FileContent> files = new TreeMap<>();
            List<String> errors = new ArrayList<>();
            for (JsonNode s : Json.items(src, "sources")) {
                try {
                    if (s.has("configMap")) {
                        PayloadSources.configMapFiles(
                                s.get("configMap"), defaultMode, inputs, files);
                    } else if (s.has("secret")) {
                        PayloadSources.secretFiles(
                                s.get("secret"),
                                Json.text(s, "secret", "name"),
                                defaultMode,
                                inputs,
                                files);
                    } else if (s.has("downwardAPI")) {
                        PayloadSources.downwardFiles(
                                pod, s.get("downwardAPI"), defaultMode, node, podIps, files);
                    } else if (s.has("serviceAccountToken")) {
                        PayloadSources.tokenFile(
                                s.get("serviceAccountToken"), defaultMode, inputs, files);
                    }
                } catch (PayloadSources.SourceError e) {
                    errors.add(e.getMessage());
                }
            }
            if (!errors.isEmpty()) {
                // utilerrors.NewAggregate: one error reads as itself, several as "[a, b]"
                throw PodConfigException.mount(
                        name,
                        errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
            }
            return Optional.of(
                    new VolumePlan.Content(
                            name,
                            volumesDir.resolve("kubernetes.io~projected").resolve(name),
                            files));
        }
        return Optional.empty();
    }

    /**
     * A container's mounts of the planned volumes, the subPath directories that must exist before
     * it starts, and the subPaths of content volumes that are bound from a copy of their own.
     */
    public record ContainerMounts(
            List<Mount> mounts, List<SubPathDir> subPathDirs, List<SubPathCopy> subPathCopies) {
        public ContainerMounts {
            mounts = List.copyOf(mounts);
            subPathDirs = List.copyOf(subPathDirs);
            subPathCopies = List.copyOf(subPathCopies);
        }

        public ContainerMounts(List<Mount> mounts, List<SubPathDir> subPathDirs) {
            this(mounts, subPathDirs, List.of());
        }
    }

    /**
     * A subPath under a volume, created with the volume's directory mode when missing (kube's
     * SafeMakeDir).
     */
    public record SubPathDir(Path volumePath, String subPath, int mode) {}

    /**
     * A subPath of a content volume, bound from {@code target}: what {@code subPath} resolves to
     * (through the {@code ..data} link) when the container is first prepared. The kubelet
     * bind-mounts the resolved file under {@code
     * <pod>/volume-subpaths/<volume>/<container>/<index>} and reuses that mount when the container
     * restarts, so a subPath never sees the volume's later updates; a copy made once does the same
     * without a mount.
     */
    public record SubPathCopy(Path volumePath, String subPath, Path target) {}

    /** {@code makeMounts}: one CRI mount per {@code volumeMounts} entry, in order. */
    public static ContainerMounts mounts(JsonNode container, VolumePlan plan)
            throws PodConfigException {
        String containerName = Json.text(container, "name");
        List<Mount> mounts = new ArrayList<>();
        List<SubPathDir> dirs = new ArrayList<>();
        List<SubPathCopy> copies = new ArrayList<>();
        int index = -1;
        for (JsonNode m : Json.items(container, "volumeMounts")) {
            index++;
            String volumeName = Json.text(m, "name");
            Optional<VolumePlan.Volume> vol = plan.volume(volumeName);
            if (vol.isEmpty()) {
                throw PodConfigException.containerConfig(
                        "cannot find volume \""
                                + volumeName
                                + "\" to mount into container \""
                                + containerName
                                + "\"");
            }
            Path hostPath = vol.get().hostPath();
            String subPath = Json.text(m, "subPath");
            if (!subPath.isEmpty()) {
                if (subPath.startsWith("/")) {
                    throw PodConfigException.containerConfig(
                            "error SubPath `" + subPath + "` must not be an absolute path");
                }
                for (String part : subPath.split("/")) {
                    if (part.equals("..")) {
                        throw PodConfigException.containerConfig(
                                "unable to provision SubPath `"
                                        + subPath
                                        + "`: must not contain '..'");
                    }
                }
                hostPath = hostPath.resolve(subPath);
                dirs.add(new SubPathDir(vol.get().hostPath(), subPath, vol.get().directoryMode()));
                if (vol.get() instanceof VolumePlan.Content content) {
                    // <pod>/volumes/kubernetes.io~<plugin>/<name> ->
                    // <pod>/volume-subpaths/<name>/<container>/<index>
                    Path podDir = content.hostPath().getParent().getParent().getParent();
                    hostPath =
                            podDir.resolve("volume-subpaths")
                                    .resolve(volumeName)
                                    .resolve(containerName)
                                    .resolve(Integer.toString(index));
                    copies.add(new SubPathCopy(content.hostPath(), subPath, hostPath));
                }
            }
            String mountPath = Json.text(m, "mountPath");
            mounts.add(
                    Mount.newBuilder()
                            .setContainerPath(
                                    mountPath.startsWith("/") ? mountPath : "/" + mountPath)
                            .setHostPath(hostPath.toString())
                            .setReadonly(Json.bool(m, "readOnly") || vol.get().readOnly())
                            .setPropagation(propagation(Json.text(m, "mountPropagation")))
                            .build());
        }
        return new ContainerMounts(mounts, dirs, copies);
    }

    private static MountPropagation propagation(String mode) throws PodConfigException {
        return switch (mode) {
            case "", "None" -> MountPropagation.PROPAGATION_PRIVATE;
            case "HostToContainer" -> MountPropagation.PROPAGATION_HOST_TO_CONTAINER;
            case "Bidirectional" -> MountPropagation.PROPAGATION_BIDIRECTIONAL;
            default ->
                    throw PodConfigException.containerConfig(
                            "invalid MountPropagation mode: \"" + mode + "\"");
        };
    }
}
