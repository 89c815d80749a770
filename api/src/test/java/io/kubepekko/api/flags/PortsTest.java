package io.kubepekko.api.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The one port check both flag parsers (API server and agent) use. */
class PortsTest {

    private static int number(String text) throws Flag.InvalidValue {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new Flag.InvalidValue(text, "not a number");
        }
    }

    private static int port(String text) throws Flag.InvalidValue {
        return Ports.parse(text, PortsTest::number, p -> "port " + p + " out of range");
    }

    @Test
    void acceptsZeroToTheHighestPort() throws Flag.InvalidValue {
        assertEquals(0, port("0"));
        assertEquals(6443, port("6443"));
        assertEquals(65535, port("65535"));
    }

    @Test
    void refusesANumberOutsideTheRangeWithTheCallersReason() {
        Flag.InvalidValue above = assertThrows(Flag.InvalidValue.class, () -> port("65536"));
        assertEquals("port 65536 out of range", above.getMessage());
        assertEquals("65536", above.value());
        Flag.InvalidValue below = assertThrows(Flag.InvalidValue.class, () -> port("-1"));
        assertEquals("port -1 out of range", below.getMessage());
    }

    @Test
    void leavesTextThatIsNoNumberToTheNumbersOwnError() {
        Flag.InvalidValue e = assertThrows(Flag.InvalidValue.class, () -> port("two"));
        assertEquals("not a number", e.getMessage());
    }
}
