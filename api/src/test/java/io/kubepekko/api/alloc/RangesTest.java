package io.kubepekko.api.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CIDR and port range parsing and arithmetic. */
class RangesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "10.0.0.0/24, 10.0.0.0/24, 256, 10.0.0.1, 10.0.0.254, 254",
        "10.0.0.5/24, 10.0.0.0/24, 256, 10.0.0.1, 10.0.0.254, 254",
        "10.96.0.0/12, 10.96.0.0/12, 1048576, 10.96.0.1, 10.111.255.254, 1048574",
        "192.168.7.0/30, 192.168.7.0/30, 4, 192.168.7.1, 192.168.7.2, 2",
        "0.0.0.0/0, 0.0.0.0/0, 4294967296, 0.0.0.1, 255.255.255.254, 4294967294"
    })
    void cidrArithmeticLeavesOutTheNetworkAndBroadcastAddresses(
            String text, String canonical, long size, String first, String last, long usable) {
        Ipv4Cidr cidr = Ipv4Cidr.parse(text);
        assertEquals(canonical, cidr.toString());
        assertEquals(size, cidr.size());
        assertEquals(first, Ipv4.format(cidr.firstUsable()));
        assertEquals(last, Ipv4.format(cidr.lastUsable()));
        assertEquals(usable, cidr.usable());
    }

    @Test
    void hostRoutesHaveNoUsableAddress() {
        assertEquals(0, Ipv4Cidr.parse("10.1.2.3/32").usable());
        assertEquals(0, Ipv4Cidr.parse("10.1.2.2/31").usable());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "10.0.0.0",
                "10.0.0.0/33",
                "10.0.0/24",
                "10.0.0.256/24",
                "fd00::/108",
                "/24",
                "10.0.0.0/",
                "10.0.0.0/2a",
                "010.0.0.0/24"
            })
    void cidrParseRefusesWhatIsNoIpv4Cidr(String text) {
        assertThrows(IllegalArgumentException.class, () -> Ipv4Cidr.parse(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"1.2.3.4, 16909060", "0.0.0.0, 0", "255.255.255.255, 4294967295"})
    void addressesRoundTrip(String text, long value) {
        assertEquals(value, Ipv4.parse(text));
        assertEquals(text, Ipv4.format(value));
    }

    @ParameterizedTest(name = "[{index}] <{0}>")
    @ValueSource(
            strings = {
                "1.2.3",
                "1.2.3.4.5",
                "1.2.3.04",
                "1..2.3",
                "a.b.c.d",
                "256.1.1.1",
                "",
                "::1",
                "1.2.3.4 "
            })
    void addressParseRefusesOtherSpellings(String text) {
        assertEquals(-1, Ipv4.parse(text));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "30000-32767, 30000, 2768",
        "30000+2767, 30000, 2768",
        "8080, 8080, 1",
        " 1-65535 , 1, 65535"
    })
    void portRangeNotations(String text, int base, int size) {
        PortRange r = PortRange.parse(text);
        assertEquals(new PortRange(base, size), r);
        assertTrue(r.contains(base));
        assertTrue(r.contains(base + size - 1));
        assertFalse(r.contains(base + size));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "32767-30000 | end port cannot be less than start port: 32767-30000",
                "30000-70000 | the port range cannot be greater than 65535: 30000-70000",
                "abc | strconv.Atoi: parsing \"abc\": invalid syntax",
                "30000-3x | strconv.Atoi: parsing \"3x\": invalid syntax",
                "1+2-3 | unable to parse port range: 1+2-3"
            })
    void portRangeErrorsAreKubernetesOwn(String text, String message) {
        assertEquals(
                message,
                assertThrows(IllegalArgumentException.class, () -> PortRange.parse(text))
                        .getMessage());
    }

    @Test
    void portRangePrintsAsKubernetesDoes() {
        assertEquals("30000-32767", PortRange.DEFAULT_NODE_PORTS.toString());
    }
}
