package io.kubepekko.agent.cri;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerResources;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.cri.v1.ExecSyncResponse;
import io.kubepekko.agent.cri.v1.FilesystemIdentifier;
import io.kubepekko.agent.cri.v1.FilesystemUsage;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.cri.v1.ImageFsInfoResponse;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.LinuxPodSandboxStatus;
import io.kubepekko.agent.cri.v1.Namespace;
import io.kubepekko.agent.cri.v1.NamespaceMode;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import io.kubepekko.agent.cri.v1.PodSandboxNetworkStatus;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.cri.v1.PodSandboxStatus;
import io.kubepekko.agent.cri.v1.RuntimeCondition;
import io.kubepekko.agent.cri.v1.RuntimeStatus;
import io.kubepekko.agent.cri.v1.StatusResponse;
import io.kubepekko.agent.cri.v1.UInt64Value;
import io.kubepekko.agent.cri.v1.VersionResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The in-memory runtime behind {@link FakeCri}: sandboxes, containers and images with containerd
 * 1.6's CRI semantics and words (pkg/cri/server of containerd v1.6.20, the version Debian ships
 * here). Every failure is a {@link StatusRuntimeException} with the code and message containerd
 * would send. All methods are synchronized: the gRPC handlers and the test controls share one lock.
 */
final class FakeRuntimeState {

    /**
     * What {@code ExecSync} answers for a container: an exit, or a command that outlives its
     * timeout.
     */
    sealed interface ExecOutcome {
        record Exit(int exitCode, String stdout, String stderr) implements ExecOutcome {}

        record TimesOut() implements ExecOutcome {}

        /**
         * Runs {@code effect} (e.g. moves a manual clock: the command took that long), then answers
         * {@code then}.
         */
        record After(Runnable effect, ExecOutcome then) implements ExecOutcome {}
    }

    private static final String NOT_FOUND = "not found";
    // containerd's host-local CNI range in PLATFORM-NOTES (10.88.0.0/24): the first address handed
    // out is .2.
    private static final String POD_SUBNET_PREFIX = "10.88.0.";

    private final InstantSource clock;
    private final Map<String, Sandbox> sandboxes = new LinkedHashMap<>();
    private final Map<String, Ctr> containers = new LinkedHashMap<>();
    private final Map<String, String> sandboxNames = new HashMap<>();
    private final Map<String, String> containerNames = new HashMap<>();
    private final Map<String, FakeImage> localImages = new LinkedHashMap<>();
    private final Map<String, FakeImage> registry = new HashMap<>();
    private final Map<String, Deque<ExecOutcome>> execScripts = new HashMap<>();
    private final Map<String, String> startFailures = new HashMap<>();
    private final Set<String> ignoringSigterm = new HashSet<>();
    private long sequence;
    private int nextIp = 2;
    private boolean networkReady = true;
    private String runtimeVersion = "1.6.20~ds1";

    FakeRuntimeState(InstantSource clock) {
        this.clock = clock;
    }

    // ---------------------------------------------------------------- RuntimeService

    synchronized VersionResponse version() {
        return VersionResponse.newBuilder()
                .setVersion("0.1.0")
                .setRuntimeName("containerd")
                .setRuntimeVersion(runtimeVersion)
                .setRuntimeApiVersion("v1")
                .build();
    }

    synchronized StatusResponse status() {
        RuntimeCondition runtime =
                RuntimeCondition.newBuilder().setType("RuntimeReady").setStatus(true).build();
        RuntimeCondition.Builder network =
                RuntimeCondition.newBuilder().setType("NetworkReady").setStatus(networkReady);
        if (!networkReady) {
            network.setReason("NetworkPluginNotReady")
                    .setMessage("Network plugin returns error: cni plugin not initialized");
        }
        return StatusResponse.newBuilder()
                .setStatus(RuntimeStatus.newBuilder().addConditions(runtime).addConditions(network))
                .build();
    }

    synchronized String runPodSandbox(PodSandboxConfig config, String runtimeHandler) {
        if (!config.hasMetadata()) {
            throw unknown("sandbox config must include metadata");
        }
        String id = newId("sandbox");
        String name = sandboxName(config.getMetadata());
        String holder = sandboxNames.get(name);
        if (holder != null) {
            throw unknown(
                    "failed to reserve sandbox name %s: name %s is reserved for %s",
                    q(name), q(name), q(holder));
        }
        sandboxNames.put(name, id);
        boolean hostNetwork =
                config.getLinux().getSecurityContext().getNamespaceOptions().getNetwork()
                        == NamespaceMode.NODE;
        String ip = hostNetwork ? "" : POD_SUBNET_PREFIX + nextIp++;
        sandboxes.put(id, new Sandbox(id, config, runtimeHandler, nanos(clock.instant()), ip));
        return id;
    }

    synchronized void stopPodSandbox(String id) {
        Sandbox sandbox = sandboxes.get(id);
        if (sandbox == null) {
            throw notFound("an error occurred when try to find sandbox %s: %s", q(id), NOT_FOUND);
        }
        for (Ctr c : containersOf(id)) {
            stop(c, 0);
        }
        sandbox.state = PodSandboxState.SANDBOX_NOTREADY;
    }

    synchronized void removePodSandbox(String id) {
        Sandbox sandbox = sandboxes.get(id);
        if (sandbox == null) {
            return;
        }
        for (Ctr c : containersOf(id)) {
            stop(c, 0);
            removeContainer(c.id);
        }
        sandboxes.remove(id);
        sandboxNames.remove(sandboxName(sandbox.config.getMetadata()));
    }

    synchronized PodSandboxStatus podSandboxStatus(String id) {
        Sandbox s = sandboxes.get(id);
        if (s == null) {
            throw notFound("an error occurred when try to find sandbox: %s", NOT_FOUND);
        }
        PodSandboxStatus.Builder status =
                PodSandboxStatus.newBuilder()
                        .setId(s.id)
                        .setMetadata(s.config.getMetadata())
                        .setState(s.state)
                        .setCreatedAt(s.createdAt)
                        .setNetwork(PodSandboxNetworkStatus.newBuilder().setIp(s.ip))
                        .putAllLabels(s.config.getLabelsMap())
                        .putAllAnnotations(s.config.getAnnotationsMap())
                        .setRuntimeHandler(s.runtimeHandler);
        if (s.config.getLinux().getSecurityContext().hasNamespaceOptions()) {
            status.setLinux(
                    LinuxPodSandboxStatus.newBuilder()
                            .setNamespaces(
                                    Namespace.newBuilder()
                                            .setOptions(
                                                    s.config
                                                            .getLinux()
                                                            .getSecurityContext()
                                                            .getNamespaceOptions())));
        }
        return status.build();
    }

    synchronized List<PodSandbox> listPodSandbox(PodSandboxFilter filter) {
        List<PodSandbox> out = new ArrayList<>();
        for (Sandbox s : sandboxes.values()) {
            if (!filter.getId().isEmpty() && !filter.getId().equals(s.id)) {
                continue;
            }
            if (filter.hasState() && filter.getState().getState() != s.state) {
                continue;
            }
            if (!labelsMatch(filter.getLabelSelectorMap(), s.config.getLabelsMap())) {
                continue;
            }
            out.add(
                    PodSandbox.newBuilder()
                            .setId(s.id)
                            .setMetadata(s.config.getMetadata())
                            .setState(s.state)
                            .setCreatedAt(s.createdAt)
                            .putAllLabels(s.config.getLabelsMap())
                            .putAllAnnotations(s.config.getAnnotationsMap())
                            .setRuntimeHandler(s.runtimeHandler)
                            .build());
        }
        return out;
    }

    synchronized String createContainer(String sandboxId, ContainerConfig config) {
        Sandbox sandbox = sandboxes.get(sandboxId);
        if (sandbox == null) {
            throw notFound("failed to find sandbox id %s: %s", q(sandboxId), NOT_FOUND);
        }
        if (sandbox.state != PodSandboxState.SANDBOX_READY) {
            throw notFound(
                    "failed to get sandbox container task: no running task found: task %s not found: %s",
                    sandboxId, NOT_FOUND);
        }
        if (!config.hasMetadata()) {
            throw unknown("container config must include metadata");
        }
        String name = containerName(config, sandbox.config.getMetadata());
        String holder = containerNames.get(name);
        if (holder != null) {
            throw unknown(
                    "failed to reserve container name %s: name %s is reserved for %s",
                    q(name), q(name), q(holder));
        }
        FakeImage image =
                resolve(config.getImage().getImage())
                        .orElseThrow(
                                () ->
                                        notFound(
                                                "failed to resolve image %s: %s",
                                                q(config.getImage().getImage()), NOT_FOUND));
        String id = newId("container");
        containerNames.put(name, id);
        String logPath =
                sandbox.config.getLogDirectory().isEmpty() || config.getLogPath().isEmpty()
                        ? ""
                        : sandbox.config.getLogDirectory() + "/" + config.getLogPath();
        containers.put(id, new Ctr(id, sandboxId, config, image, logPath, nanos(clock.instant())));
        return id;
    }

    synchronized void startContainer(String id) {
        Ctr c = container(id, "an error occurred when try to find container %s: %s");
        if (c.state != ContainerState.CONTAINER_CREATED) {
            throw unknown(
                    "failed to set starting state for container %s: container is in %s state",
                    q(id), c.state.name());
        }
        Sandbox sandbox = sandboxes.get(c.sandboxId);
        String failure =
                sandbox.state != PodSandboxState.SANDBOX_READY
                        ? String.format("sandbox container %s is not running", q(c.sandboxId))
                        : startFailures.get(c.config.getMetadata().getName());
        if (failure != null) {
            // containerd marks a container whose start failed as exited, exit code 128, reason
            // StartError.
            c.state = ContainerState.CONTAINER_EXITED;
            c.finishedAt = nanos(clock.instant());
            c.exitCode = 128;
            c.reason = "StartError";
            c.message = failure;
            throw unknown("%s", failure);
        }
        c.state = ContainerState.CONTAINER_RUNNING;
        c.startedAt = nanos(clock.instant());
    }

    synchronized void stopContainer(String id, long timeoutSeconds) {
        stop(container(id, "an error occurred when try to find container %s: %s"), timeoutSeconds);
    }

    synchronized void removeContainer(String id) {
        Ctr c = containers.get(id);
        if (c == null) {
            return;
        }
        stop(c, 0);
        containers.remove(id);
        containerNames.remove(
                containerName(c.config, sandboxes.get(c.sandboxId).config.getMetadata()));
    }

    /**
     * containerd's {@code ReopenContainerLog}: refused unless the container runs; otherwise the log
     * path is opened again for appending (created when it was renamed away).
     */
    synchronized void reopenContainerLog(String id) {
        Ctr c = container(id, "an error occurred when try to find container %s: %s");
        if (c.state != ContainerState.CONTAINER_RUNNING) {
            throw unknown("container is not running");
        }
        appendLog(c, "");
    }

    /**
     * Appends {@code text} as one CRI log line of stdout to the container's log file, as containerd
     * writes it.
     */
    synchronized void writeLog(String id, String text) {
        Ctr c = container(id, "an error occurred when try to find container %s: %s");
        appendLog(c, clock.instant() + " stdout F " + text + "\n");
    }

    private static void appendLog(Ctr c, String line) {
        if (c.logPath.isEmpty()) {
            throw unknown("container %s has no log path", q(c.id));
        }
        try {
            Files.writeString(
                    Path.of(c.logPath),
                    line,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw unknown("failed to create and open log file: %s", e.toString());
        }
    }

    synchronized List<Container> listContainers(ContainerFilter filter) {
        List<Container> out = new ArrayList<>();
        for (Ctr c : containers.values()) {
            if (!filter.getId().isEmpty() && !filter.getId().equals(c.id)) {
                continue;
            }
            if (!filter.getPodSandboxId().isEmpty()
                    && !filter.getPodSandboxId().equals(c.sandboxId)) {
                continue;
            }
            if (filter.hasState() && filter.getState().getState() != c.state) {
                continue;
            }
            if (!labelsMatch(filter.getLabelSelectorMap(), c.config.getLabelsMap())) {
                continue;
            }
            out.add(
                    Container.newBuilder()
                            .setId(c.id)
                            .setPodSandboxId(c.sandboxId)
                            .setMetadata(c.config.getMetadata())
                            .setImage(c.config.getImage())
                            .setImageRef(c.image.id())
                            .setState(c.state)
                            .setCreatedAt(c.createdAt)
                            .putAllLabels(c.config.getLabelsMap())
                            .putAllAnnotations(c.config.getAnnotationsMap())
                            .build());
        }
        return out;
    }

    synchronized ContainerStatus containerStatus(String id) {
        Ctr c = container(id, "an error occurred when try to find container %s: %s");
        if (c.state == ContainerState.CONTAINER_EXITED && c.readsBeforeOom >= 0) {
            if (c.readsBeforeOom == 0) {
                c.reason = "OOMKilled";
            }
            c.readsBeforeOom--;
        }
        ContainerStatus.Builder status =
                ContainerStatus.newBuilder()
                        .setId(c.id)
                        .setMetadata(c.config.getMetadata())
                        .setState(c.state)
                        .setCreatedAt(c.createdAt)
                        // containerd 1.6 answers the tag as image, the digest (the id for an
                        // imported image, which has none) as
                        // image_ref, and leaves image_id unset.
                        .setImage(ImageSpec.newBuilder().setImage(c.image.repoTag()))
                        .setImageRef(
                                c.image.repoDigest().isEmpty()
                                        ? c.image.id()
                                        : c.image.repoDigest())
                        .putAllLabels(c.config.getLabelsMap())
                        .putAllAnnotations(c.config.getAnnotationsMap())
                        .addAllMounts(c.config.getMountsList())
                        .setLogPath(c.logPath)
                        .setMessage(c.message);
        if (c.config.getLinux().hasResources()) {
            status.setResources(
                    ContainerResources.newBuilder().setLinux(c.config.getLinux().getResources()));
        }
        if (c.state == ContainerState.CONTAINER_RUNNING) {
            status.setStartedAt(c.startedAt);
        } else if (c.state == ContainerState.CONTAINER_EXITED) {
            String reason = c.reason != null ? c.reason : c.exitCode == 0 ? "Completed" : "Error";
            status.setStartedAt(c.startedAt)
                    .setFinishedAt(c.finishedAt)
                    .setExitCode(c.exitCode)
                    .setReason(reason);
        }
        return status.build();
    }

    synchronized ExecSyncResponse execSync(String id, long timeoutSeconds) {
        Ctr c = containers.get(id);
        if (c == null) {
            throw notFound(
                    "failed to exec in container: failed to find container %s in store: %s",
                    q(id), NOT_FOUND);
        }
        if (c.state != ContainerState.CONTAINER_RUNNING) {
            throw unknown("failed to exec in container: container is in %s state", c.state.name());
        }
        Deque<ExecOutcome> script = execScripts.get(c.config.getMetadata().getName());
        ExecOutcome outcome =
                script == null || script.isEmpty()
                        ? new ExecOutcome.Exit(0, "", "")
                        : script.size() > 1 ? script.poll() : script.peek();
        if (outcome instanceof ExecOutcome.After after) {
            after.effect().run();
            outcome = after.then();
        }
        if (outcome instanceof ExecOutcome.Exit exit) {
            return ExecSyncResponse.newBuilder()
                    .setExitCode(exit.exitCode())
                    .setStdout(ByteString.copyFrom(exit.stdout(), StandardCharsets.UTF_8))
                    .setStderr(ByteString.copyFrom(exit.stderr(), StandardCharsets.UTF_8))
                    .build();
        }
        throw Status.DEADLINE_EXCEEDED
                .withDescription(
                        String.format(
                                "failed to exec in container: timeout %ds exceeded: context deadline exceeded",
                                timeoutSeconds))
                .asRuntimeException();
    }

    // ---------------------------------------------------------------- ImageService

    synchronized List<Image> listImages() {
        return localImages.values().stream().map(FakeImage::toProto).toList();
    }

    synchronized Optional<Image> imageStatus(String ref) {
        return resolve(ref).map(FakeImage::toProto);
    }

    synchronized String pullImage(String ref) {
        String normalized = ImageRefs.normalize(ref);
        FakeImage image = registry.get(normalized);
        if (image == null) {
            // What containerd says on these machines, which reach no registry.
            String repository = ImageRefs.repository(normalized);
            String path = repository.substring(repository.indexOf('/') + 1);
            String tag = normalized.substring(repository.length() + 1);
            String host = ImageRefs.registryHost(normalized);
            throw unknown(
                    "failed to pull and unpack image %s: failed to resolve reference %s: failed to do request: "
                            + "Head \"https://%s/v2/%s/manifests/%s\": dial tcp: lookup %s: no such host",
                    q(normalized), q(normalized), host, path, tag, host);
        }
        localImages.put(image.id(), image);
        return image.id();
    }

    synchronized void removeImage(String ref) {
        resolve(ref).ifPresent(image -> localImages.remove(image.id()));
    }

    synchronized ImageFsInfoResponse imageFsInfo() {
        long used = localImages.values().stream().mapToLong(FakeImage::size).sum();
        return ImageFsInfoResponse.newBuilder()
                .addImageFilesystems(
                        FilesystemUsage.newBuilder()
                                .setTimestamp(nanos(clock.instant()))
                                .setFsId(
                                        FilesystemIdentifier.newBuilder()
                                                .setMountpoint(
                                                        "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs"))
                                .setUsedBytes(UInt64Value.newBuilder().setValue(used))
                                .setInodesUsed(
                                        UInt64Value.newBuilder().setValue(localImages.size())))
                .build();
    }

    // ---------------------------------------------------------------- test controls

    synchronized String addLocalImage(String ref, long size) {
        FakeImage image = FakeImage.of(ref, size, false);
        localImages.put(image.id(), image);
        return image.id();
    }

    synchronized void addRegistryImage(String ref, long size) {
        FakeImage image = FakeImage.of(ref, size, true);
        registry.put(image.repoTag(), image);
    }

    synchronized void exitContainer(String id, int exitCode, String reason) {
        Ctr c = containers.get(id);
        if (c == null || c.state != ContainerState.CONTAINER_RUNNING) {
            throw new IllegalStateException(
                    "container " + id + " is not running: " + (c == null ? "absent" : c.state));
        }
        exit(c, exitCode, reason);
    }

    synchronized void oomEventAfterReads(String id, int reads) {
        container(id, "an error occurred when try to find container %s: %s").readsBeforeOom = reads;
    }

    synchronized void oomEvent(String id) {
        container(id, "an error occurred when try to find container %s: %s").reason = "OOMKilled";
    }

    synchronized void scriptExec(String containerName, List<ExecOutcome> outcomes) {
        execScripts.put(containerName, new ArrayDeque<>(outcomes));
    }

    synchronized void failStarts(String containerName, String message) {
        if (message == null) {
            startFailures.remove(containerName);
        } else {
            startFailures.put(containerName, message);
        }
    }

    synchronized void ignoreSigterm(String containerName) {
        ignoringSigterm.add(containerName);
    }

    synchronized void networkReady(boolean ready) {
        networkReady = ready;
    }

    synchronized void runtimeVersion(String version) {
        runtimeVersion = version;
    }

    // ---------------------------------------------------------------- internals

    private void stop(Ctr c, long timeoutSeconds) {
        if (c.state == ContainerState.CONTAINER_RUNNING) {
            // The stop signal is SIGTERM; a process that honours it exits 143, else SIGKILL after
            // the grace: 137.
            boolean killed =
                    timeoutSeconds == 0
                            || ignoringSigterm.contains(c.config.getMetadata().getName());
            exit(c, killed ? 137 : 143, null);
        } else if (c.state == ContainerState.CONTAINER_CREATED) {
            // A container that never ran has nothing to signal: it stays CREATED, as in containerd.
            return;
        }
    }

    private void exit(Ctr c, int exitCode, String reason) {
        c.state = ContainerState.CONTAINER_EXITED;
        c.finishedAt = nanos(clock.instant());
        c.exitCode = exitCode;
        if (reason != null) { // containerd's exit handler leaves a reason an OOM event set
            c.reason = reason;
        }
    }

    private List<Ctr> containersOf(String sandboxId) {
        return containers.values().stream().filter(c -> c.sandboxId.equals(sandboxId)).toList();
    }

    private Ctr container(String id, String notFoundFormat) {
        Ctr c = containers.get(id);
        if (c == null) {
            throw notFound(notFoundFormat, q(id), NOT_FOUND);
        }
        return c;
    }

    private Optional<FakeImage> resolve(String ref) {
        if (ref.startsWith("sha256:")) {
            return Optional.ofNullable(localImages.get(ref));
        }
        String normalized = ImageRefs.normalize(ref);
        return localImages.values().stream()
                .filter(
                        i ->
                                i.repoTag().equals(normalized)
                                        || (!i.repoDigest().isEmpty()
                                                && i.repoDigest().equals(normalized)))
                .findFirst();
    }

    private static boolean labelsMatch(Map<String, String> selector, Map<String, String> labels) {
        return selector.entrySet().stream()
                .allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
    }

    // containerd's unique names: a second sandbox or container with the same metadata is refused
    // until removal.
    private static String sandboxName(PodSandboxMetadata m) {
        return String.join(
                "_", m.getName(), m.getNamespace(), m.getUid(), Integer.toString(m.getAttempt()));
    }

    private static String containerName(ContainerConfig config, PodSandboxMetadata pod) {
        return String.join(
                "_",
                config.getMetadata().getName(),
                pod.getName(),
                pod.getNamespace(),
                pod.getUid(),
                Integer.toString(config.getMetadata().getAttempt()));
    }

    private String newId(String kind) {
        return sha256Hex(kind + "/" + ++sequence);
    }

    static String sha256Hex(String text) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static String q(String s) {
        return "\"" + s + "\"";
    }

    private static StatusRuntimeException notFound(String format, Object... args) {
        return Status.NOT_FOUND.withDescription(String.format(format, args)).asRuntimeException();
    }

    // containerd answers errors it does not classify as gRPC Unknown with its message.
    private static StatusRuntimeException unknown(String format, Object... args) {
        return Status.UNKNOWN.withDescription(String.format(format, args)).asRuntimeException();
    }

    private static final class Sandbox {
        final String id;
        final PodSandboxConfig config;
        final String runtimeHandler;
        final long createdAt;
        final String ip;
        PodSandboxState state = PodSandboxState.SANDBOX_READY;

        Sandbox(
                String id,
                PodSandboxConfig config,
                String runtimeHandler,
                long createdAt,
                String ip) {
            this.id = id;
            this.config = config;
            this.runtimeHandler = runtimeHandler;
            this.createdAt = createdAt;
            this.ip = ip;
        }
    }

    private static final class Ctr {
        final String id;
        final String sandboxId;
        final ContainerConfig config;
        final FakeImage image;
        final String logPath;
        final long createdAt;
        ContainerState state = ContainerState.CONTAINER_CREATED;
        long startedAt;
        long finishedAt;
        int exitCode;
        String reason;
        String message = "";

        /**
         * Status reads of the exited container answered before its OOM event is handled; -1: none.
         */
        int readsBeforeOom = -1;

        Ctr(
                String id,
                String sandboxId,
                ContainerConfig config,
                FakeImage image,
                String logPath,
                long createdAt) {
            this.id = id;
            this.sandboxId = sandboxId;
            this.config = config;
            this.image = image;
            this.logPath = logPath;
            this.createdAt = createdAt;
        }
    }

    /**
     * An image: id and digest derived from its reference, so the same reference always has the same
     * id. Only a pulled image has a repo digest: one imported from an archive has none (repoDigest
     * empty), as in containerd.
     */
    record FakeImage(String id, String repoTag, String repoDigest, long size) {
        static FakeImage of(String ref, long size, boolean fromRegistry) {
            String normalized = ImageRefs.normalize(ref);
            String digest =
                    fromRegistry
                            ? ImageRefs.repository(normalized)
                                    + "@sha256:"
                                    + sha256Hex("manifest/" + normalized)
                            : "";
            return new FakeImage(
                    "sha256:" + sha256Hex("image/" + normalized), normalized, digest, size);
        }

        Image toProto() {
            Image.Builder image =
                    Image.newBuilder()
                            .setId(id)
                            .addRepoTags(repoTag)
                            .setSize(size)
                            .setSpec(ImageSpec.newBuilder().setImage(id));
            if (!repoDigest.isEmpty()) {
                image.addRepoDigests(repoDigest);
            }
            return image.build();
        }
    }
}
