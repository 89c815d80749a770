package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertError;
import static io.kubepekko.api.admission.cel.CelEval.assertFalse;
import static io.kubepekko.api.admission.cel.CelEval.assertTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's ip.go and cidr.go examples (their doc comments and tests), as our expressions. */
class CelNetTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "isIP('127.0.0.1')",
                "isIP('::1')",
                "!isIP('127.0.0.256')",
                "!isIP(':::1')",
                "!isIP('127.0.0.01')",
                "!isIP('::ffff:1.2.3.4')",
                "!isIP('fe80::1%eth0')",
                "isIP('::1.2.3.4')",
                "ip.isCanonical('127.0.0.1')",
                "ip.isCanonical('2001:db8::abcd')",
                "!ip.isCanonical('2001:DB8::ABCD')",
                "!ip.isCanonical('2001:db8::0:0:0:abcd')",
                "ip('127.0.0.1').family() == 4",
                "ip('::1').family() == 6",
                "ip('0.0.0.0').isUnspecified()",
                "!ip('127.0.0.1').isUnspecified()",
                "ip('::').isUnspecified()",
                "!ip('::1').isUnspecified()",
                "ip('127.0.0.1').isLoopback()",
                "!ip('192.168.0.1').isLoopback()",
                "ip('::1').isLoopback()",
                "!ip('2001:db8::abcd').isLoopback()",
                "ip('224.0.0.1').isLinkLocalMulticast()",
                "!ip('224.0.1.1').isLinkLocalMulticast()",
                "ip('ff02::1').isLinkLocalMulticast()",
                "!ip('fd00::1').isLinkLocalMulticast()",
                "ip('169.254.169.254').isLinkLocalUnicast()",
                "!ip('192.168.0.1').isLinkLocalUnicast()",
                "ip('fe80::1').isLinkLocalUnicast()",
                "!ip('fd80::1').isLinkLocalUnicast()",
                "ip('192.168.0.1').isGlobalUnicast()",
                "!ip('255.255.255.255').isGlobalUnicast()",
                "ip('2001:db8::abcd').isGlobalUnicast()",
                "!ip('ff00::1').isGlobalUnicast()",
                "ip('127.0.0.1') == ip('127.0.0.1')",
                "ip('2001:db8::1') == ip('2001:DB8:0::1')",
                "ip('::1') != ip('127.0.0.1')",
                "string(ip('2001:DB8:0:0:0::abcd')) == '2001:db8::abcd'",
                "string(ip('2001:db8:0:1:0:0:0:1')) == '2001:db8:0:1::1'",
                "string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1'",
                "string(ip('1:0:1:1:1:1:1:1')) == '1:0:1:1:1:1:1:1'",
                "isCIDR('192.168.0.0/16')",
                "isCIDR('::1/128')",
                "!isCIDR('192.168.0.0/33')",
                "!isCIDR('::1/129')",
                "!isCIDR('192.168.0.0/016')",
                "!isCIDR('192.168.0.0')",
                "isCIDR('192.168.0.1/16')",
                "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))",
                "!cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))",
                "cidr('192.168.0.0/24').containsIP('192.168.0.1')",
                "!cidr('192.168.0.0/24').containsIP('192.168.1.1')",
                "!cidr('192.168.0.0/24').containsIP('::1')",
                "cidr('2001:db8::/32').containsIP(ip('2001:db8::1'))",
                "!cidr('2001:db8::/32').containsIP('2001:dc8::1')",
                "cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))",
                "!cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))",
                "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')",
                "!cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')",
                "cidr('2001:db8::/32').containsCIDR(cidr('2001:db8::/33'))",
                "!cidr('2001:db8::/32').containsCIDR('2001:db8::/31')",
                // kube's code compares the inner address unmasked (its doc comment says true).
                "!cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))",
                "cidr('192.168.0.1/24').ip() == ip('192.168.0.1')",
                "cidr('192.168.0.1/24').ip().family() == 4",
                "cidr('::1/128').ip() == ip('::1')",
                "cidr('::1/128').ip().family() == 6",
                "cidr('192.168.0.0/24').masked() == cidr('192.168.0.0/24')",
                "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')",
                "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
                "cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked()",
                "cidr('2001:db8:1::/32').masked() == cidr('2001:db8::/32')",
                "cidr('192.168.0.0/16').prefixLength() == 16",
                "cidr('::1/128').prefixLength() == 128",
                "string(cidr('192.168.0.0/24')) == '192.168.0.0/24'",
            })
    void kubesExamplesHold(String expression) throws Exception {
        assertTrue(expression);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ip('127.0.0.256') == ip('::1')|IP Address \"127.0.0.256\" parse error during"
                        + " conversion from string: ParseAddr(\"127.0.0.256\"): IPv4 field has"
                        + " value >255",
                "ip('127.0.0.01') == ip('::1')|IP Address \"127.0.0.01\" parse error during"
                        + " conversion from string: ParseAddr(\"127.0.0.01\"): IPv4 field has octet"
                        + " with leading zero",
                "ip('1.2.3') == ip('::1')|IP Address \"1.2.3\" parse error during conversion"
                        + " from string: ParseAddr(\"1.2.3\"): IPv4 address too short",
                "ip('foo') == ip('::1')|IP Address \"foo\" parse error during conversion from"
                        + " string: ParseAddr(\"foo\"): unable to parse IP",
                "ip('::ffff:1.2.3.4') == ip('::1')|IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is"
                        + " not allowed",
                "ip('fe80::1%eth0') == ip('::1')|IP address \"fe80::1%eth0\" with zone value is"
                        + " not allowed",
                "cidr('192.168.0.0/') == cidr('::1/128')|network address parse error during"
                        + " conversion from string: network address parse error during"
                        + " conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits"
                        + " after slash: \"\"",
                "cidr('192.168.0.0/33') == cidr('::1/128')|network address parse error during"
                        + " conversion from string: network address parse error during"
                        + " conversion from string: netip.ParsePrefix(\"192.168.0.0/33\"): prefix"
                        + " length out of range",
                "cidr('2001:db8::/') == cidr('::1/128')|network address parse error during"
                        + " conversion from string: network address parse error during"
                        + " conversion from string: netip.ParsePrefix(\"2001:db8::/\"): bad bits"
                        + " after slash: \"\"",
            })
    void badTextFailsWithKubesWords(String expression, String message) {
        assertError(expression, message);
    }

    @Test
    void ipv6ParsingFollowsGo() throws Exception {
        for (String bad :
                new String[] {":::1", "1::2::3", "1:2:3:4:5:6:7:8:9", "12345::1", "1:2", "::g"}) {
            assertFalse("isIP('" + bad + "')");
        }
        assertEquals(
                "ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")",
                assertThrowsParse("1::2::3"));
    }

    @Test
    void wrongArgumentTypesDoNotCompile() {
        assertEquals(
                true,
                CelEval.compileError("cidr(192168) == cidr('::1/128')")
                        .contains("found no matching overload for 'cidr' applied to '(int)'"));
    }

    private static String assertThrowsParse(String text) {
        try {
            IpAddr.parse(text);
        } catch (IpAddr.ParseException e) {
            return e.getMessage();
        }
        throw new AssertionError(text + " parsed");
    }
}
