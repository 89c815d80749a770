package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.CriEndpoint;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.node.HostFacts;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.PodConfigException;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.runtime.VolumePlan;
import io.kubepekko.agent.runtime.VolumePlanner;
import io.kubepekko.agent.runtime.VolumeWriter;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The container runtime's own floor for the bench's pod: containerd driven directly over CRI, with
 * no agent and no API server, doing the work the agent does for the pod: RunPodSandbox,
 * CreateContainer, StartContainer. The configs are the agent's own ({@link SandboxConfigs}, {@link
 * ContainerConfigs} over the pod as the API server stores it), sent through the agent's CRI client
 * ({@link CriRuntime}): same image, cgroup parent ({@code /kubepods/besteffort/pod<uid>}) and CNI
 * network (the runtime's default). What the agent does besides (ImageStatus, PodSandboxStatus,
 * directories, status writes) is left out on purpose: this is what the runtime alone needs, the
 * lower bound of the agent's time. A pod is timed from its RunPodSandbox request until
 * StartContainer answers. Everything made is stopped and removed through CRI (and the pod cgroup
 * dropped, as the agent does) before the next mode and at {@link #close()}.
 */
final class RuntimeFloor implements AutoCloseable {

    /** The runtime's time for one pod (nanos): the whole, and each CRI call. */
    record PodRun(long total, long runSandbox, long createContainer, long startContainer) {}

    /** One mode's pods. */
    record Result(
            Samples total, Samples runSandbox, Samples createContainer, Samples startContainer) {
        static Result of(List<PodRun> runs) {
            Result r = new Result(new Samples(), new Samples(), new Samples(), new Samples());
            for (PodRun run : runs) {
                r.total.add(run.total());
                r.runSandbox.add(run.runSandbox());
                r.createContainer.add(run.createContainer());
                r.startContainer.add(run.startContainer());
            }
            return r;
        }
    }

    /**
     * A pod ready to go: its configs built and its directories made, nothing asked of the runtime
     * yet.
     */
    private record Prepared(String uid, PodSandboxConfig sandbox, ContainerConfig container) {}

    /**
     * What the runtime made for a pod, to remove afterwards; no container id until CreateContainer
     * answered.
     */
    private record Made(String sandboxId, String containerId) {}

    private final CriRuntime cri;
    private final NodeContext node;
    private final JsonNode podTemplate;
    private final String imageRef;
    private final Duration timeout;

    /** By pod uid. */
    private final Map<String, Made> made = new ConcurrentHashMap<>();

    private RuntimeFloor(
            CriRuntime cri,
            NodeContext node,
            JsonNode podTemplate,
            String imageRef,
            Duration timeout) {
        this.cri = cri;
        this.node = node;
        this.podTemplate = podTemplate;
        this.imageRef = imageRef;
        this.timeout = timeout;
    }

    /**
     * Connects to the runtime at {@code endpoint} and resolves the pod's image there (as the
     * agent's ImageStatus does, once, untimed).
     *
     * @param pod the bench's pod as the API server would store it (defaults applied); each floor
     *     pod is a copy with its own name and uid
     * @param rootDir plays the agent's {@code --root-dir}: pod log directories and termination
     *     message files go there
     */
    static RuntimeFloor connect(String endpoint, JsonNode pod, Path rootDir, Duration timeout)
            throws IOException, InterruptedException {
        CriRuntime cri =
                CriRuntime.connect(CriEndpoint.parse(endpoint), CriRuntime.DEFAULT_REQUEST_TIMEOUT);
        try {
            String image = pod.path("spec").path("containers").path(0).path("image").asText();
            Optional<Image> found =
                    await(
                            cri.imageStatus(image).toCompletableFuture(),
                            timeout,
                            "ImageStatus " + image);
            if (found.isEmpty()) {
                throw new IOException(
                        "the runtime has no image "
                                + image
                                + " (containerd-local imports it at start)");
            }
            return new RuntimeFloor(cri, nodeContext(rootDir), pod, found.get().getId(), timeout);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cri.close();
            throw e;
        }
    }

    /**
     * The node as the agent describes it to its pods ({@code AgentMain.nodeContext}, without {@code
     * --node-ip}).
     */
    private static NodeContext nodeContext(Path rootDir) throws IOException {
        Files.createDirectories(rootDir);
        HostFacts host = HostFacts.read(rootDir);
        ResolvConf resolv = ResolvConf.parse(Files.readString(Path.of("/etc/resolv.conf")));
        long memory = host.memoryBytes();
        return new NodeContext(
                "podbench-floor",
                rootDir,
                host.internalIps().stream().map(InetAddress::getHostAddress).toList(),
                List.of(),
                "",
                resolv,
                memory,
                host.cpuCores() * 1000L,
                Math.max(0, memory - 100L * 1024 * 1024),
                (long) (host.ephemeralStorageBytes() * 0.9),
                PodCgroups.ofNode());
    }

    /** One pod, each after the previous one's container started; then all removed. */
    Result sequential(String prefix, int count) throws IOException, InterruptedException {
        List<PodRun> runs = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Prepared p = prepare(prefix + i);
                runs.add(await(start(p), timeout, "pod " + prefix + i));
            }
        } finally {
            removeAll();
        }
        return Result.of(runs);
    }

    /** {@code count} pods, every one's RunPodSandbox sent at once; then all removed. */
    Result atOnce(String prefix, int count) throws IOException, InterruptedException {
        List<Prepared> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(prepare(prefix + i));
        }
        List<CompletableFuture<PodRun>> runs = new ArrayList<>();
        try {
            for (Prepared p : pods) {
                runs.add(start(p));
            }
            List<PodRun> done = new ArrayList<>();
            for (int i = 0; i < runs.size(); i++) {
                done.add(await(runs.get(i), timeout.plusSeconds(count), "pod " + prefix + i));
            }
            return Result.of(done);
        } finally {
            // A pod still on its way registers itself when its calls answer; wait for them before
            // removing.
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new))
                    .exceptionally(t -> null)
                    .completeOnTimeout(null, timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .join();
            removeAll();
        }
    }

    /**
     * The agent's configs for a fresh copy of the pod, and what the agent writes on disk before
     * asking the runtime.
     */
    private Prepared prepare(String name) throws IOException {
        ObjectNode pod = podTemplate.deepCopy();
        String uid = UUID.randomUUID().toString();
        ObjectNode meta = (ObjectNode) pod.get("metadata");
        meta.put("name", name).put("uid", uid);
        JsonNode container = pod.path("spec").path("containers").path(0);
        try {
            PodSandboxConfig sandbox = SandboxConfigs.build(pod, 0, node).config();
            Files.createDirectories(Path.of(sandbox.getLogDirectory()));
            VolumePlan volumes = VolumePlanner.plan(pod, PodInputs.NONE, node, List.of());
            VolumeWriter.materialize(volumes);
            ContainerConfigs.Plan plan =
                    ContainerConfigs.build(
                            pod,
                            container,
                            0,
                            imageRef,
                            List.of(),
                            PodInputs.NONE,
                            volumes,
                            node,
                            uid.substring(0, 8));
            VolumeWriter.ensureSubPaths(plan.mounts());
            if (plan.terminationLogHostPath().isPresent()) {
                VolumeWriter.createTerminationLog(plan.terminationLogHostPath().get());
            }
            Files.createDirectories(
                    Path.of(sandbox.getLogDirectory(), container.path("name").asText()));
            return new Prepared(uid, sandbox, plan.config());
        } catch (PodConfigException e) {
            throw new IOException(
                    "the agent's configs for the bench's pod: " + e.eventMessage(), e);
        }
    }

    /**
     * RunPodSandbox, CreateContainer, StartContainer, each sent as soon as the previous one
     * answered.
     */
    private CompletableFuture<PodRun> start(Prepared p) {
        long t0 = System.nanoTime();
        long[] t = new long[2];
        String[] sandboxId = new String[1];
        return cri.runPodSandbox(p.sandbox(), "")
                .thenCompose(
                        id -> {
                            t[0] = System.nanoTime();
                            sandboxId[0] = id;
                            made.put(p.uid(), new Made(id, null));
                            return cri.createContainer(id, p.container(), p.sandbox());
                        })
                .thenCompose(
                        containerId -> {
                            t[1] = System.nanoTime();
                            made.put(p.uid(), new Made(sandboxId[0], containerId));
                            return cri.startContainer(containerId);
                        })
                .thenApply(
                        v -> {
                            long t3 = System.nanoTime();
                            return new PodRun(t3 - t0, t[0] - t0, t[1] - t[0], t3 - t[1]);
                        })
                .toCompletableFuture();
    }

    /**
     * Stops and removes what the runtime made, as the agent ends a pod: containers (no grace: the
     * floor is not timing this), then sandboxes; then the pod's cgroup, which the runtime leaves
     * behind.
     */
    private void removeAll() throws IOException, InterruptedException {
        Map<String, Made> all = new HashMap<>(made);
        made.clear();
        List<CompletableFuture<Void>> containers = new ArrayList<>();
        for (Made m : all.values()) {
            if (m.containerId() != null) {
                containers.add(
                        cri.stopContainer(m.containerId(), Duration.ZERO)
                                .thenCompose(v -> cri.removeContainer(m.containerId()))
                                .toCompletableFuture());
            }
        }
        awaitAll(containers, "removing the floor's containers");
        List<CompletableFuture<Void>> sandboxes = new ArrayList<>();
        for (Made m : all.values()) {
            sandboxes.add(
                    cri.stopPodSandbox(m.sandboxId())
                            .thenCompose(v -> cri.removePodSandbox(m.sandboxId()))
                            .toCompletableFuture());
        }
        awaitAll(sandboxes, "removing the floor's sandboxes");
        for (String uid : all.keySet()) {
            List<String> left = node.cgroups().remove(uid);
            if (!left.isEmpty()) {
                System.err.println("warning: the floor's pod cgroup stayed: " + left);
            }
        }
    }

    private void awaitAll(List<CompletableFuture<Void>> calls, String what)
            throws IOException, InterruptedException {
        await(
                CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)),
                timeout.plusSeconds(calls.size()),
                what);
    }

    private static <T> T await(CompletableFuture<T> f, Duration timeout, String what)
            throws IOException, InterruptedException {
        try {
            return f.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IOException(what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException(what + ": no answer after " + timeout.toSeconds() + " s", e);
        }
    }

    /**
     * Removes what is left; the agent must find containerd as the floor found it, or its times
     * would not compare.
     */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            removeAll();
            List<PodSandbox> left =
                    await(
                            cri.listPodSandbox(PodSandboxFilter.getDefaultInstance())
                                    .toCompletableFuture(),
                            timeout,
                            "ListPodSandbox");
            if (!left.isEmpty()) {
                throw new IOException(
                        "the runtime floor left " + left.size() + " sandboxes in containerd");
            }
        } finally {
            cri.close();
        }
    }
}
