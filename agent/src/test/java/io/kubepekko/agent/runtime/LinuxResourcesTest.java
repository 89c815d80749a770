package io.kubepekko.agent.runtime;

import static io.kubepekko.agent.runtime.TestPods.GI;
import static io.kubepekko.agent.runtime.TestPods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.LinuxContainerResources;
import org.junit.jupiter.api.Test;

/** cm/helpers_linux.go MilliCPUToShares/MilliCPUToQuota, calculateLinuxResources, qos/policy.go. */
class LinuxResourcesTest {

    @Test
    void sharesAtTheEdges() {
        assertEquals(2, LinuxResources.milliCpuToShares(0));
        assertEquals(2, LinuxResources.milliCpuToShares(1));
        assertEquals(2, LinuxResources.milliCpuToShares(2));
        assertEquals(3, LinuxResources.milliCpuToShares(3));
        assertEquals(102, LinuxResources.milliCpuToShares(100));
        assertEquals(1024, LinuxResources.milliCpuToShares(1000));
        assertEquals(262144, LinuxResources.milliCpuToShares(256_000));
        assertEquals(262144, LinuxResources.milliCpuToShares(1_000_000));
        assertEquals(262144, LinuxResources.milliCpuToShares(Long.MAX_VALUE / 10));
    }

    @Test
    void quotaAtTheEdges() {
        assertEquals(0, LinuxResources.milliCpuToQuota(0, 100_000));
        assertEquals(1000, LinuxResources.milliCpuToQuota(1, 100_000));
        assertEquals(1000, LinuxResources.milliCpuToQuota(10, 100_000));
        assertEquals(10_000, LinuxResources.milliCpuToQuota(100, 100_000));
        assertEquals(250_000, LinuxResources.milliCpuToQuota(2500, 100_000));
    }

    private static JsonNode pod(String resources) {
        return json(
                "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{containers:[{name:'c',resources:"
                        + resources
                        + "}]}}");
    }

    private static LinuxContainerResources of(String resources) {
        JsonNode pod = pod(resources);
        return LinuxResources.of(pod, TestPods.container(pod, "c"), 8 * GI);
    }

    @Test
    void bestEffortGetsMinimumSharesNoQuotaAndOomScore1000() {
        LinuxContainerResources r = of("{}");
        assertEquals(2, r.getCpuShares());
        assertEquals(100_000, r.getCpuPeriod());
        assertEquals(0, r.getCpuQuota());
        assertEquals(0, r.getMemoryLimitInBytes());
        assertEquals(1000, r.getOomScoreAdj());
    }

    @Test
    void guaranteedGetsSharesQuotaLimitAndMinus997() {
        LinuxContainerResources r =
                of("{requests:{cpu:'500m',memory:'64Mi'},limits:{cpu:'500m',memory:'64Mi'}}");
        assertEquals(512, r.getCpuShares());
        assertEquals(50_000, r.getCpuQuota());
        assertEquals(100_000, r.getCpuPeriod());
        assertEquals(64L << 20, r.getMemoryLimitInBytes());
        assertEquals(-997, r.getOomScoreAdj());
    }

    @Test
    void sharesComeFromTheLimitWhenNoRequestIsGiven() {
        assertEquals(2048, of("{limits:{cpu:'2'}}").getCpuShares());
    }

    @Test
    void fractionsRoundUpAsQuantityValueAndMilliValue() {
        LinuxContainerResources r = of("{requests:{cpu:'0.1m'},limits:{cpu:'1m',memory:'1.5'}}");
        assertEquals(2, r.getCpuShares()); // 0.1m → 1m → 1 share → minimum 2
        assertEquals(1000, r.getCpuQuota()); // 1m → 100 µs → minimum 1000
        assertEquals(2, r.getMemoryLimitInBytes()); // 1.5 bytes → 2
    }

    @Test
    void hugeMemoryIsKeptExactly() {
        assertEquals(1L << 50, of("{limits:{memory:'1Pi'}}").getMemoryLimitInBytes());
    }

    @Test
    void burstableOomScoreFollowsTheMemoryRequestShare() {
        // 1000 - 1000 * 2Gi / 8Gi = 750
        assertEquals(750, of("{requests:{memory:'2Gi'}}").getOomScoreAdj());
        // no memory request: 1000 → 999, below best effort
        assertEquals(999, of("{requests:{cpu:'100m'}}").getOomScoreAdj());
        // requesting more than the machine: floor of 3
        assertEquals(3, of("{requests:{memory:'16Gi'}}").getOomScoreAdj());
        // a tiny request still rounds to 1000 - 0 → 999
        assertEquals(999, of("{requests:{memory:'1'}}").getOomScoreAdj());
    }

    @Test
    void nodeCriticalStaticPodIsMinus997WhateverItsQos() {
        JsonNode pod =
                json(
                        "{metadata:{name:'p',namespace:'kube-system',uid:'u',annotations:{'kubernetes.io/config.source':'file'}},"
                                + "spec:{priorityClassName:'system-node-critical',containers:[{name:'c'}]}}");
        assertEquals(-997, LinuxResources.oomScoreAdj(pod, TestPods.container(pod, "c"), 8 * GI));
    }
}
