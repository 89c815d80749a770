package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ages print as Kubernetes' human-readable durations. */
class AgesTest {

    @ParameterizedTest(name = "{0}s -> {1}")
    @CsvSource({
        "-5, <invalid>",
        "-1, 0s",
        "0, 0s",
        "59, 59s",
        "119, 119s",
        "120, 2m",
        "182, 3m2s",
        "599, 9m59s",
        "600, 10m",
        "10799, 179m",
        "10800, 3h",
        "11100, 3h5m",
        "28800, 8h",
        "172799, 47h",
        "172800, 2d",
        "180000, 2d2h",
        "691200, 8d",
        "63071999, 729d",
        "63072000, 2y",
        "63158400, 2y1d",
        "252288000, 8y"
    })
    void humanDurations(long seconds, String expected) {
        assertEquals(expected, Ages.human(Duration.ofSeconds(seconds)));
    }

    @Test
    void subSecondClockSkewIsNow() {
        assertEquals("0s", Ages.human(Duration.ofMillis(-1500)));
        assertEquals("0s", Ages.human(Duration.ofMillis(999)));
    }

    @Test
    void ageOfAMissingOrMalformedTimestampIsUnknown() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        JsonNodeFactory f = JsonNodeFactory.instance;
        assertEquals("<unknown>", Ages.of(f.objectNode(), now));
        assertEquals("<unknown>", Ages.since(f.textNode("yesterday"), now));
        assertEquals("5m", Ages.since(f.textNode("2026-11-23T11:55:00Z"), now));
    }
}
