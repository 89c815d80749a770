package io.kubepekko.actors.fencing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PeerContactTest {
    @Test
    void aLeaseThatCouldOutlastTheTimeBeforeTheOthersReplaceAServerIsRefused() {
        assertDoesNotThrow(
                () ->
                        PeerContact.checkLease(
                                Duration.ofSeconds(2),
                                Duration.ofSeconds(2),
                                Duration.ofSeconds(3)));
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                PeerContact.checkLease(
                                        Duration.ofSeconds(5),
                                        Duration.ofSeconds(2),
                                        Duration.ofSeconds(3)));
        assertTrue(e.getMessage().contains("must be shorter than"), e.getMessage());
    }

    @Test
    void theOthersReplaceAServerNoSoonerThanTheirDetectionTimeAfterItsLeaseLapsed() {
        assertEquals(
                Duration.ofMillis(1500),
                PeerContact.replacementMargin(
                        Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofMillis(1500)));
    }
}
