package io.kubepekko.persistence.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodePortsTest {
    private static final Optional<NodePorts> PREVIOUS = Optional.of(new NodePorts(41001, 41002));

    @Test
    void aRestartReusesThePortsOfThePreviousRun() {
        assertEquals(new NodePorts(41001, 41002), NodePorts.choose(NodePorts.ANY, PREVIOUS, true));
    }

    @Test
    void aNewDataDirectoryOrNoReuseTakesFreePorts() {
        assertEquals(NodePorts.ANY, NodePorts.choose(NodePorts.ANY, Optional.empty(), true));
        assertEquals(NodePorts.ANY, NodePorts.choose(NodePorts.ANY, PREVIOUS, false));
    }

    @Test
    void aGivenPortWinsOverTheRememberedOneAndTheOtherIsStillRemembered() {
        assertEquals(
                new NodePorts(41001, 9042),
                NodePorts.choose(new NodePorts(0, 9042), PREVIOUS, true));
        assertEquals(
                new NodePorts(7000, 41002),
                NodePorts.choose(new NodePorts(7000, 0), PREVIOUS, true));
        assertEquals(
                new NodePorts(7000, 0), NodePorts.choose(new NodePorts(7000, 0), PREVIOUS, false));
    }

    @Test
    void notPortsAndOnePortForBothAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new NodePorts(-1, 9042));
        assertThrows(IllegalArgumentException.class, () -> new NodePorts(7000, 65536));
        assertThrows(IllegalArgumentException.class, () -> new NodePorts(9042, 9042));
        assertThrows(
                IllegalArgumentException.class,
                () -> NodePorts.choose(new NodePorts(41002, 0), PREVIOUS, true),
                "a given storage port equal to the remembered CQL port");
    }
}
