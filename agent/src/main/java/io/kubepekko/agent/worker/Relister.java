package io.kubepekko.agent.worker;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.cri.v1.PodIP;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.cri.v1.PodSandboxStatusResponse;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * What the runtime holds of one pod, read by its uid label (the kubelet's relist): its newest ready
 * sandbox with the sandbox's IPs, every sandbox id, and per container name the two newest
 * instances' statuses. Only reads.
 */
final class Relister {
    private Relister() {}

    /**
     * The pod's sandboxes and containers, found by the pod's uid label. The two listings go
     * together, then the sandbox's and the containers' statuses together: two round trips to the
     * runtime, not four one after the other (each waits its turn when the runtime is busy starting
     * many pods).
     */
    static CompletionStage<ObservedPod> observe(CriRuntime cri, String uid) {
        Map<String, String> mine = Map.of(SandboxConfigs.POD_UID_LABEL, uid);
        CompletableFuture<List<PodSandbox>> sandboxes =
                cri.listPodSandbox(PodSandboxFilter.newBuilder().putAllLabelSelector(mine).build())
                        .toCompletableFuture();
        CompletableFuture<List<Container>> containers =
                cri.listContainers(ContainerFilter.newBuilder().putAllLabelSelector(mine).build())
                        .toCompletableFuture();
        return sandboxes
                .thenCombine(containers, Listed::new)
                .thenCompose(
                        listed -> {
                            CompletableFuture<Optional<ObservedPod.Sandbox>> ready =
                                    readySandbox(cri, listed.sandboxes()).toCompletableFuture();
                            CompletableFuture<Map<String, List<ContainerStatus>>> byName =
                                    statuses(cri, listed.containers()).toCompletableFuture();
                            return ready.thenCombine(
                                    byName,
                                    (sandbox, statuses) ->
                                            new ObservedPod(
                                                    sandbox,
                                                    listed.sandboxes().stream()
                                                            .map(PodSandbox::getId)
                                                            .toList(),
                                                    statuses));
                        });
    }

    private record Listed(List<PodSandbox> sandboxes, List<Container> containers) {}

    /**
     * The sandbox just run as {@code attempt}, with its IPs (PodSandboxStatus, as SyncPod asks
     * right after RunPodSandbox), added to what {@code before} saw: what the pass starts its
     * containers in, without listing the pod again.
     */
    static CompletionStage<ObservedPod> withSandboxRun(
            CriRuntime cri, String uid, ObservedPod before, String id, int attempt) {
        return cri.podSandboxStatus(id)
                .thenCompose(
                        r -> {
                            if (r.getStatus().getState() != PodSandboxState.SANDBOX_READY) {
                                return observe(
                                        cri, uid); // gone already: the pod as the runtime has it
                            }
                            List<String> ids = new ArrayList<>(before.sandboxIds());
                            if (!ids.contains(id)) {
                                ids.add(id);
                            }
                            return CompletableFuture.completedFuture(
                                    new ObservedPod(
                                            Optional.of(
                                                    new ObservedPod.Sandbox(id, attempt, ips(r))),
                                            ids,
                                            before.containers()));
                        });
    }

    private static CompletionStage<Optional<ObservedPod.Sandbox>> readySandbox(
            CriRuntime cri, List<PodSandbox> sandboxes) {
        Optional<PodSandbox> ready =
                sandboxes.stream()
                        .filter(s -> s.getState() == PodSandboxState.SANDBOX_READY)
                        .max(Comparator.comparingLong(PodSandbox::getCreatedAt));
        if (ready.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        String id = ready.get().getId();
        int attempt = ready.get().getMetadata().getAttempt();
        return cri.podSandboxStatus(id)
                .thenApply(r -> Optional.of(new ObservedPod.Sandbox(id, attempt, ips(r))));
    }

    private static List<String> ips(PodSandboxStatusResponse response) {
        var network = response.getStatus().getNetwork();
        List<String> ips = new ArrayList<>();
        if (!network.getIp().isEmpty()) {
            ips.add(network.getIp());
        }
        network.getAdditionalIpsList().stream().map(PodIP::getIp).forEach(ips::add);
        return ips;
    }

    /**
     * Per container name the two newest instances' statuses (the current one and the one lastState
     * shows).
     */
    private static CompletionStage<Map<String, List<ContainerStatus>>> statuses(
            CriRuntime cri, List<Container> containers) {
        Map<String, List<Container>> byName =
                containers.stream()
                        .collect(
                                Collectors.groupingBy(
                                        c -> c.getMetadata().getName(),
                                        LinkedHashMap::new,
                                        Collectors.toList()));
        Map<String, List<CompletableFuture<ContainerStatus>>> pending = new LinkedHashMap<>();
        byName.forEach(
                (name, list) ->
                        pending.put(
                                name,
                                list.stream()
                                        .sorted(
                                                Comparator.comparingInt(
                                                                (Container c) ->
                                                                        c.getMetadata()
                                                                                .getAttempt())
                                                        .reversed())
                                        .limit(2)
                                        .map(
                                                c ->
                                                        cri.containerStatus(c.getId())
                                                                .toCompletableFuture())
                                        .toList()));
        CompletableFuture<?>[] all =
                pending.values().stream().flatMap(List::stream).toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(all)
                .thenApply(
                        v -> {
                            Map<String, List<ContainerStatus>> out = new HashMap<>();
                            pending.forEach(
                                    (name, futures) ->
                                            out.put(
                                                    name,
                                                    futures.stream()
                                                            .map(CompletableFuture::join)
                                                            .toList()));
                            return out;
                        });
    }
}
