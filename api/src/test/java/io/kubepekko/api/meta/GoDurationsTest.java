package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's duration text, both ways (metav1.Duration in protobuf bodies; flag values). */
class GoDurationsTest {

    @ParameterizedTest(name = "{0} ns = {1}")
    @CsvSource({
        "0, 0s",
        "999, 999ns",
        "1500, 1.5µs",
        "2000000, 2ms",
        "1000000000, 1s",
        "90000000000, 1m30s",
        "3723500000000, 1h2m3.5s",
        "-1500000000, -1.5s"
    })
    void formatsAndParsesBack(long nanos, String text) {
        assertEquals(text, GoDurations.format(nanos));
        assertEquals(nanos, GoDurations.parse(text));
    }
}
