package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sourceIPs as kube's utilnet.SourceIPs lists them. */
class SourceIpsTest {

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    @Test
    void theConnectionAloneWhenNoProxyHeaders() throws Exception {
        assertEquals(List.of("127.0.0.1"), SourceIps.of(null, null, ip("127.0.0.1")));
        assertEquals(List.of("::1"), SourceIps.of(null, null, ip("::1")));
    }

    @Test
    void forwardedForThenRealIpThenTheConnectionWithoutRepeats() throws Exception {
        assertEquals(
                List.of("1.2.3.4", "5.6.7.8", "9.9.9.9", "10.0.0.1"),
                SourceIps.of(" 1.2.3.4, bogus, 5.6.7.8", "9.9.9.9", ip("10.0.0.1")));
        assertEquals(
                List.of("1.2.3.4", "10.0.0.1"), SourceIps.of("1.2.3.4", "1.2.3.4", ip("10.0.0.1")));
        assertEquals(List.of("10.0.0.1"), SourceIps.of("10.0.0.1", null, ip("10.0.0.1")));
    }

    @Test
    void neverResolvesAHostName() throws Exception {
        assertEquals(List.of("10.0.0.1"), SourceIps.of("example.com", "localhost", ip("10.0.0.1")));
    }

    @Test
    void ipv6PrintsAsGoPrintsIt() throws Exception {
        assertEquals("2001:db8::1", SourceIps.format(ip("2001:0db8:0:0:0:0:0:1")));
        assertEquals("2001:db8:0:1:1:1:1:1", SourceIps.format(ip("2001:db8:0:1:1:1:1:1")));
        assertEquals("fe80::1:0:0:1", SourceIps.format(ip("fe80:0:0:0:1:0:0:1")));
        assertEquals("::", SourceIps.format(ip("::")));
        assertEquals("1.2.3.4", SourceIps.format(ip("::ffff:1.2.3.4")));
    }
}
