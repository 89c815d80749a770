package io.kubepekko.api.admission.cel;

import com.google.protobuf.Timestamp;
import io.kubepekko.api.meta.GoFloats;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Timestamps and durations as cel-java hands them to functions (protobuf messages, or {@code
 * java.time} values), printed as cel-go converts them to strings: a timestamp in Go's {@code
 * RFC3339Nano} (fraction without trailing zeros), a duration as its seconds in Go's shortest {@code
 * 'f'} form and {@code s}.
 */
final class CelTimes {

    private CelTimes() {}

    static boolean isTimestamp(Object value) {
        return value instanceof Timestamp || value instanceof Instant;
    }

    static boolean isDuration(Object value) {
        return value instanceof com.google.protobuf.Duration || value instanceof java.time.Duration;
    }

    /**
     * Go's {@code t.Format(time.RFC3339Nano)}, always in UTC: cel-java keeps no offset (cel-go
     * prints a timestamp parsed with {@code +01:00} with that offset).
     */
    static String timestamp(Object value) {
        long seconds;
        int nanos;
        if (value instanceof Timestamp t) {
            seconds = t.getSeconds();
            nanos = t.getNanos();
        } else {
            Instant i = (Instant) value;
            seconds = i.getEpochSecond();
            nanos = i.getNano();
        }
        LocalDateTime time = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
        StringBuilder out =
                new StringBuilder()
                        .append(String.format("%04d", time.getYear()))
                        .append(String.format("-%02d", time.getMonthValue()))
                        .append(String.format("-%02d", time.getDayOfMonth()))
                        .append(String.format("T%02d", time.getHour()))
                        .append(String.format(":%02d", time.getMinute()))
                        .append(String.format(":%02d", time.getSecond()));
        if (nanos > 0) {
            out.append('.').append(String.format("%09d", nanos).replaceFirst("0+$", ""));
        }
        return out.append('Z').toString();
    }

    /** cel-go's duration string: {@code strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"}. */
    static String duration(Object value) {
        long seconds;
        int nanos;
        if (value instanceof com.google.protobuf.Duration d) {
            seconds = d.getSeconds();
            nanos = d.getNanos();
        } else {
            java.time.Duration d = (java.time.Duration) value;
            seconds = d.getSeconds();
            nanos = d.getNano();
            if (seconds < 0 && nanos > 0) {
                // java.time keeps nanos positive; Go's seconds and nanos share the sign.
                seconds++;
                nanos -= 1_000_000_000;
            }
        }
        return GoFloats.shortestPlain((double) seconds + (double) nanos / 1e9) + "s";
    }
}
