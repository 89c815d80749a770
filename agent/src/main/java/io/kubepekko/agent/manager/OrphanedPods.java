package io.kubepekko.agent.manager;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.logs.PodLogs;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.agent.worker.PodTermination;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

/**
 * What is left on the node of pods the agent ran, found by uid, as the kubelet's {@code
 * HandlePodCleanups} finds it (pkg/kubelet/kubelet_pods.go: runtime pods no pod worker knows are
 * killed; {@code cleanupOrphanedPodDirs} and the container GC's {@code evictPodLogsDirectories}
 * remove their directories): sandboxes and containers carrying the pod-uid label (anything without
 * it is not the agent's and is never looked at further), the pod directories {@code
 * <root-dir>/pods/<uid>}, the pod log directories {@code <root-dir>/pod-logs/<ns>_<name>_<uid>} and
 * the pod cgroups {@code kubepods/<qos>/pod<uid>} ({@code cleanupOrphanedPodCgroups}; {@link
 * PodCgroups}). Which of these are orphans the caller decides, against the pods it runs at that
 * moment.
 */
final class OrphanedPods {
    private OrphanedPods() {}

    /**
     * Per pod uid, what the node holds of it.
     *
     * @param inRuntime the uids that have sandboxes or containers
     * @param directories per uid, its pod and pod log directories
     * @param cgroups the uids that have a pod cgroup in some hierarchy
     */
    record Found(Set<String> inRuntime, Map<String, List<Path>> directories, Set<String> cgroups) {
        Set<String> uids() {
            Set<String> all = new HashSet<>(inRuntime);
            all.addAll(directories.keySet());
            all.addAll(cgroups);
            return all;
        }
    }

    /**
     * Reads the runtime's sandboxes and containers, the agent's directories and the pod cgroups (on
     * {@code blocking}).
     */
    static CompletionStage<Found> find(CriRuntime cri, NodeContext node, Executor blocking) {
        CompletableFuture<List<PodSandbox>> sandboxes =
                cri.listPodSandbox(PodSandboxFilter.getDefaultInstance()).toCompletableFuture();
        CompletableFuture<List<Container>> containers =
                cri.listContainers(ContainerFilter.getDefaultInstance()).toCompletableFuture();
        CompletableFuture<Map<String, List<Path>>> dirs =
                CompletableFuture.supplyAsync(() -> directories(node), blocking);
        CompletableFuture<Set<String>> cgroups =
                CompletableFuture.supplyAsync(() -> node.cgroups().podUids(), blocking);
        return CompletableFuture.allOf(sandboxes, containers, dirs, cgroups)
                .thenApply(
                        v -> {
                            Set<String> uids = new HashSet<>();
                            sandboxes
                                    .join()
                                    .forEach(s -> podUid(s.getLabelsMap()).ifPresent(uids::add));
                            containers
                                    .join()
                                    .forEach(c -> podUid(c.getLabelsMap()).ifPresent(uids::add));
                            return new Found(uids, dirs.join(), cgroups.join());
                        });
    }

    /**
     * Tears the pod down in the runtime if it has anything there (its containers stopped at once:
     * the pod is gone from every source, as after a forced delete; that drops its cgroup too), else
     * only its cgroup if it has one, then removes its directories. A cgroup that cannot go is
     * logged, never fails the removal.
     */
    static CompletionStage<Void> remove(
            CriRuntime cri, NodeContext node, Found found, String uid, Executor blocking) {
        CompletionStage<Void> runtime;
        if (found.inRuntime().contains(uid)) {
            runtime = PodTermination.run(cri, node.cgroups(), blocking, uid, Duration.ZERO);
        } else if (found.cgroups().contains(uid)) {
            runtime =
                    CompletableFuture.runAsync(
                            () -> PodTermination.removeCgroups(node.cgroups(), uid), blocking);
        } else {
            runtime = CompletableFuture.completedFuture(null);
        }
        List<Path> dirs = found.directories().getOrDefault(uid, List.of());
        return runtime.thenRunAsync(() -> dirs.forEach(OrphanedPods::removeDirectory), blocking);
    }

    private static Optional<String> podUid(Map<String, String> labels) {
        return Optional.ofNullable(labels.get(SandboxConfigs.POD_UID_LABEL))
                .filter(u -> !u.isEmpty());
    }

    /**
     * The uid a pod log directory's name ends with: namespaces and pod names have no {@code _},
     * uids neither.
     */
    static Optional<String> uidOfLogDirectory(String name) {
        String[] parts = name.split("_", -1);
        return parts.length == 3 && Stream.of(parts).noneMatch(String::isEmpty)
                ? Optional.of(parts[2])
                : Optional.empty();
    }

    private static Map<String, List<Path>> directories(NodeContext node) {
        Map<String, List<Path>> out = new HashMap<>();
        for (Path d : children(node.rootDir().resolve("pods"))) {
            out.computeIfAbsent(d.getFileName().toString(), u -> new ArrayList<>()).add(d);
        }
        for (Path d : children(node.podLogsDir())) {
            uidOfLogDirectory(d.getFileName().toString())
                    .ifPresent(uid -> out.computeIfAbsent(uid, u -> new ArrayList<>()).add(d));
        }
        return out;
    }

    private static List<Path> children(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(Files::isDirectory).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void removeDirectory(Path dir) {
        try {
            PodLogs.removeDirectory(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
