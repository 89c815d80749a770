package io.kubepekko.api.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One write's requests decided against the taken values, with Kubernetes' refusals and dry-run
 * answers.
 */
class ClaimsTest {

    private static final Map<String, ValuePool> POOLS =
            Map.of(
                    "ip", new ClusterIpPool("ip", Ipv4Cidr.parse("10.0.0.0/24")),
                    "port", new NodePortPool("port", PortRange.parse("30000-32767")));

    private static ClaimResult real(Set<String> taken, ValueRequest... requests) {
        return Claims.evaluate(List.of(requests), POOLS, taken::contains, new Random(5), false);
    }

    private static ClaimResult dry(Set<String> taken, ValueRequest... requests) {
        return Claims.evaluate(List.of(requests), POOLS, taken::contains, new Random(5), true);
    }

    private static void assertRefused(
            ClaimResult r, int index, Refusal.Reason reason, String message) {
        assertFalse(r.isGranted(), () -> "granted " + r.granted());
        assertEquals(index, r.refusedIndex());
        assertEquals(new Refusal(reason, message), r.refusal());
    }

    @Test
    void grantsAFreeRequestedValueAndAnyFreeOne() {
        ClaimResult r =
                real(Set.of(), ValueRequest.specific("ip", "10.0.0.5"), ValueRequest.any("port"));
        assertTrue(r.isGranted());
        assertEquals("10.0.0.5", r.granted().get(0));
        int port = Integer.parseInt(r.granted().get(1));
        assertTrue(
                port >= 30086 && port <= 32767,
                "a dynamic node port comes from the upper part: " + port);
    }

    @Test
    void dynamicIpsAvoidTheReservedFirstAddressAndTakenOnes() {
        ClaimResult r = real(Set.of(), ValueRequest.any("ip"));
        long ip = Ipv4.parse(r.granted().get(0));
        assertTrue(
                ip >= Ipv4.parse("10.0.0.17") && ip <= Ipv4.parse("10.0.0.254"),
                r.granted().get(0));
    }

    @Test
    void aTakenValueIsAlreadyAllocated() {
        assertRefused(
                real(Set.of("ip/10.0.0.5"), ValueRequest.specific("ip", "10.0.0.5")),
                0,
                Refusal.Reason.TAKEN,
                "provided IP is already allocated");
        assertRefused(
                real(
                        Set.of("port/30001"),
                        ValueRequest.any("ip"),
                        ValueRequest.specific("port", "30001")),
                1,
                Refusal.Reason.TAKEN,
                "provided port is already allocated");
    }

    @Test
    void theKubernetesServiceAddressIsAlwaysTaken() {
        assertRefused(
                real(Set.of(), ValueRequest.specific("ip", "10.0.0.1")),
                0,
                Refusal.Reason.TAKEN,
                "provided IP is already allocated");
    }

    @Test
    void aValueAskedTwiceInOneWriteIsTakenTheSecondTime() {
        assertRefused(
                real(
                        Set.of(),
                        ValueRequest.specific("port", "30005"),
                        ValueRequest.specific("port", "30005")),
                1,
                Refusal.Reason.TAKEN,
                "provided port is already allocated");
    }

    @Test
    void outOfRangeValuesGetTheAllocatorsOwnWords() {
        assertRefused(
                real(Set.of(), ValueRequest.specific("ip", "192.168.1.1")),
                0,
                Refusal.Reason.OUT_OF_RANGE,
                "the provided network does not match the current range");
        assertRefused(
                real(Set.of(), ValueRequest.specific("ip", "10.0.0.255")),
                0,
                Refusal.Reason.OUT_OF_RANGE,
                "the provided IP (10.0.0.255) is not in the valid range. The range of valid IPs is 10.0.0.0/24");
        assertRefused(
                real(Set.of(), ValueRequest.specific("ip", "10.0.0.0")),
                0,
                Refusal.Reason.OUT_OF_RANGE,
                "the provided IP (10.0.0.0) is not in the valid range. The range of valid IPs is 10.0.0.0/24");
        assertRefused(
                real(Set.of(), ValueRequest.specific("port", "80")),
                0,
                Refusal.Reason.OUT_OF_RANGE,
                "provided port is not in the valid range. The range of valid ports is 30000-32767");
    }

    @Test
    void aFullRangeIsFull() {
        Map<String, ValuePool> tiny =
                Map.of("ip", new ClusterIpPool("ip", Ipv4Cidr.parse("10.9.0.0/30")));
        ClaimResult first =
                Claims.evaluate(
                        List.of(ValueRequest.any("ip")), tiny, k -> false, new Random(), false);
        assertEquals(
                List.of("10.9.0.2"), first.granted(), "10.9.0.1 belongs to the kubernetes Service");
        ClaimResult full =
                Claims.evaluate(
                        List.of(ValueRequest.any("ip")),
                        tiny,
                        Set.of("ip/10.9.0.2")::contains,
                        new Random(),
                        false);
        assertRefused(full, 0, Refusal.Reason.FULL, "range is full");
    }

    @Test
    void anUnknownPoolIsRefused() {
        assertEquals(
                Refusal.Reason.NO_POOL,
                real(Set.of(), ValueRequest.any("other")).refusal().reason());
    }

    @Test
    void dryRunShowsKubernetesPlaceholdersWithoutPicking() {
        ClaimResult r =
                dry(
                        Set.of(),
                        ValueRequest.any("ip"),
                        ValueRequest.any("port"),
                        ValueRequest.any("port"));
        assertEquals(List.of("10.0.0.0", "32769", "32770"), r.granted());
        ClaimResult after =
                dry(Set.of(), ValueRequest.specific("port", "30100"), ValueRequest.any("port"));
        assertEquals(
                List.of("30100", "30101"),
                after.granted(),
                "counts on from the highest port of the write");
    }

    @Test
    void dryRunChecksWhatKubernetesDryRunAllocatorsCheck() {
        assertTrue(
                dry(Set.of("ip/10.0.0.5"), ValueRequest.specific("ip", "10.0.0.5")).isGranted(),
                "a dry-run IP is only range-checked");
        assertRefused(
                dry(Set.of(), ValueRequest.specific("ip", "192.168.1.1")),
                0,
                Refusal.Reason.OUT_OF_RANGE,
                "the provided IP (192.168.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24");
        assertRefused(
                dry(Set.of("port/30001"), ValueRequest.specific("port", "30001")),
                0,
                Refusal.Reason.TAKEN,
                "provided port is already allocated");
        assertTrue(
                dry(Set.of(), ValueRequest.specific("port", "80")).isGranted(),
                "a dry-run port is not range-checked");
    }

    @Test
    void keysJoinPoolAndCanonicalValue() {
        assertEquals("ip/10.0.0.5", Claims.key("ip", "10.0.0.5"));
        assertEquals("ip", Claims.poolOf("ip/10.0.0.5"));
        assertEquals("30001", POOLS.get("port").canonical(" 30001"));
        assertNotEquals(null, POOLS.get("ip").canonical("10.0.0.5"));
        assertEquals(null, POOLS.get("ip").canonical("10.0.0.05"));
    }
}
