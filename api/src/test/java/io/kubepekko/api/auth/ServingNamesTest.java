package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServingNamesTest {

    @Test
    void theServingNamesAreLoopbackTheHostTheAdvertisedAddressTheServiceIpAndItsDnsNames() {
        ServingNames names = ServingNames.of("node-1", Optional.of("192.168.1.10"), "10.0.0.1");
        assertEquals(
                List.of(
                        "localhost",
                        "node-1",
                        "kubernetes",
                        "kubernetes.default",
                        "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local"),
                names.dnsNames());
        assertEquals(List.of("127.0.0.1", "::1", "192.168.1.10", "10.0.0.1"), names.ipAddresses());
    }

    @Test
    void anUnknownHostAndNoAdvertisedAddressAddNothingAndDuplicatesAreDropped() {
        ServingNames names = ServingNames.of("", Optional.of("127.0.0.1"), "10.0.0.1");
        assertEquals(List.of("127.0.0.1", "::1", "10.0.0.1"), names.ipAddresses());
        assertEquals(5, names.dnsNames().size());
    }

    @Test
    void aCertificateIsRenewedWithinNinetyDaysOfItsEndOrBeforeItsStart() {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        Instant end = start.plus(CertificateLifetimes.LEAF);
        assertFalse(CertificateLifetimes.renewalDue(start, end, start.plus(Duration.ofDays(1))));
        assertFalse(CertificateLifetimes.renewalDue(start, end, end.minus(Duration.ofDays(91))));
        assertTrue(CertificateLifetimes.renewalDue(start, end, end.minus(Duration.ofDays(90))));
        assertTrue(CertificateLifetimes.renewalDue(start, end, start.minus(Duration.ofHours(2))));
    }
}
