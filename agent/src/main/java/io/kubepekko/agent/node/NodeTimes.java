package io.kubepekko.agent.node;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * The API's timestamp forms: {@code metav1.Time} (seconds) and {@code metav1.MicroTime}
 * (microseconds).
 */
final class NodeTimes {
    private NodeTimes() {}

    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    static String time(Instant t) {
        return SECONDS.format(t.truncatedTo(ChronoUnit.SECONDS));
    }

    static String microTime(Instant t) {
        return MICROS.format(t.truncatedTo(ChronoUnit.MICROS));
    }
}
