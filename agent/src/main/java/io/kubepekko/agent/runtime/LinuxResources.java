package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.LinuxContainerResources;
import io.kubepekko.agent.pod.QosClass;
import io.kubepekko.api.meta.Quantity;
import java.util.Optional;

/**
 * A container's cgroup settings as the kubelet computes them (kuberuntime_container_linux.go {@code
 * generateLinuxContainerResources}/{@code calculateLinuxResources}, cm/helpers_linux.go {@code
 * MilliCPUToShares}/{@code MilliCPUToQuota}, qos/policy.go {@code GetContainerOOMScoreAdjust}); CFS
 * quota on, period 100 ms (kubelet defaults {@code --cpu-cfs-quota=true}, {@code
 * --cpu-cfs-quota-period=100ms}).
 */
public final class LinuxResources {
    private LinuxResources() {}

    public static final long MIN_SHARES = 2;
    public static final long MAX_SHARES = 262144;
    public static final long SHARES_PER_CPU = 1024;
    public static final long MILLI_CPU_TO_CPU = 1000;
    public static final long QUOTA_PERIOD = 100_000;
    public static final long MIN_QUOTA_PERIOD = 1000;

    public static final int GUARANTEED_OOM_SCORE_ADJ = -997;
    public static final int BEST_EFFORT_OOM_SCORE_ADJ = 1000;

    /**
     * {@code MilliCPUToShares}: 0 → the minimum (2); otherwise millicores × 1024 / 1000 clamped to
     * [2, 262144].
     */
    public static long milliCpuToShares(long milliCpu) {
        if (milliCpu == 0) {
            return MIN_SHARES;
        }
        long shares = times(milliCpu, SHARES_PER_CPU) / MILLI_CPU_TO_CPU;
        return Math.max(MIN_SHARES, Math.min(MAX_SHARES, shares));
    }

    /**
     * {@code milliCPUToQuota}: 0 (no limit) → 0; otherwise millicores × period / 1000, at least
     * 1000 µs.
     */
    public static long milliCpuToQuota(long milliCpu, long period) {
        if (milliCpu == 0) {
            return 0;
        }
        long quota = times(milliCpu, period) / MILLI_CPU_TO_CPU;
        return Math.max(MIN_QUOTA_PERIOD, quota);
    }

    /** The container's {@code LinuxContainerResources}. */
    public static LinuxContainerResources of(
            JsonNode pod, JsonNode container, long memoryCapacity) {
        JsonNode res = Json.at(container, "resources");
        Optional<Quantity> cpuRequest =
                res.path("requests").has("cpu")
                        ? Quantity.of(res.path("requests").get("cpu"))
                        : Optional.empty();
        long cpuLimitMilli =
                Quantity.of(res.path("limits").get("cpu")).map(Quantity::milliValue).orElse(0L);
        long memoryLimit =
                Quantity.of(res.path("limits").get("memory")).map(Quantity::value).orElse(0L);

        long shares =
                cpuRequest.isEmpty() && res.path("limits").has("cpu")
                        ? milliCpuToShares(cpuLimitMilli)
                        : milliCpuToShares(cpuRequest.map(Quantity::milliValue).orElse(0L));
        LinuxContainerResources.Builder b =
                LinuxContainerResources.newBuilder()
                        .setCpuShares(shares)
                        .setCpuPeriod(QUOTA_PERIOD)
                        .setCpuQuota(milliCpuToQuota(cpuLimitMilli, QUOTA_PERIOD))
                        .setOomScoreAdj(oomScoreAdj(pod, container, memoryCapacity));
        if (memoryLimit != 0) {
            b.setMemoryLimitInBytes(memoryLimit);
        }
        return b.build();
    }

    /**
     * {@code GetContainerOOMScoreAdjust}: node-critical and Guaranteed pods −997, BestEffort 1000,
     * Burstable {@code 1000 − 1000 × memoryRequest / memoryCapacity} kept within [3, 999] (a
     * sidecar no higher than the smallest regular container). On these machines containerd's {@code
     * restrict_oom_score_adj} raises negative values to its own; the agent still sends kube's
     * value.
     */
    public static int oomScoreAdj(JsonNode pod, JsonNode container, long memoryCapacity) {
        if (isNodeCritical(pod)) {
            return GUARANTEED_OOM_SCORE_ADJ;
        }
        QosClass qos = QosClass.of(pod);
        if (qos == QosClass.GUARANTEED) {
            return GUARANTEED_OOM_SCORE_ADJ;
        }
        if (qos == QosClass.BEST_EFFORT) {
            return BEST_EFFORT_OOM_SCORE_ADJ;
        }
        long capacity = Math.max(1, memoryCapacity);
        long memoryRequest = memoryRequest(container);
        long adj = 1000 - times(1000, memoryRequest) / capacity;
        if (isSidecar(pod, container)) {
            long min = minRegularMemoryRequest(pod);
            if (min != 0) {
                long minAdj = 1000 - times(1000, min) / capacity;
                adj = Math.min(adj, minAdj);
            }
        }
        if (adj < 1000 + GUARANTEED_OOM_SCORE_ADJ) {
            return 1000 + GUARANTEED_OOM_SCORE_ADJ;
        }
        if (adj == BEST_EFFORT_OOM_SCORE_ADJ) {
            return (int) (adj - 1);
        }
        return (int) adj;
    }

    /**
     * Saturating product: kube's int64 arithmetic would wrap for absurd quantities; the clamps make
     * saturation exact.
     */
    private static long times(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static long memoryRequest(JsonNode container) {
        return Quantity.of(Json.at(container, "resources", "requests").get("memory"))
                .map(Quantity::value)
                .orElse(0L);
    }

    private static boolean isSidecar(JsonNode pod, JsonNode container) {
        if (!"Always".equals(Json.text(container, "restartPolicy"))) {
            return false;
        }
        String name = Json.text(container, "name");
        return Json.items(pod, "spec", "initContainers").stream()
                .anyMatch(c -> name.equals(Json.text(c, "name")));
    }

    private static long minRegularMemoryRequest(JsonNode pod) {
        long min = 0;
        for (JsonNode c : Json.items(pod, "spec", "containers")) {
            long r = memoryRequest(c);
            if (r != 0 && (min == 0 || r < min)) {
                min = r;
            }
        }
        return min;
    }

    /**
     * {@code IsNodeCriticalPod}: a critical pod (static, mirror, or priority ≥ 2000000000) whose
     * priority class is {@code system-node-critical}.
     */
    static boolean isNodeCritical(JsonNode pod) {
        if (!"system-node-critical".equals(Json.text(pod, "spec", "priorityClassName"))) {
            return false;
        }
        String source = Json.text(pod, "metadata", "annotations", "kubernetes.io/config.source");
        boolean staticPod = !source.isEmpty() && !"api".equals(source);
        boolean mirror = Json.at(pod, "metadata", "annotations").has("kubernetes.io/config.mirror");
        return staticPod
                || mirror
                || Json.optLong(pod, "spec", "priority").orElse(0L) >= 2_000_000_000L;
    }
}
