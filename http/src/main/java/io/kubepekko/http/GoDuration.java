package io.kubepekko.http;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written as Go's {@code time.ParseDuration} accepts them ({@code 0}, {@code 10s}, {@code 1m30s}, {@code 250ms}). */
final class GoDuration {
    private GoDuration() {}

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

    static Duration parse(String text) {
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(text);
        int pos = 0;
        double nanos = 0;
        while (m.find() && m.start() == pos) {
            double v = Double.parseDouble(m.group(1));
            nanos += v * switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            pos = m.end();
        }
        if (pos == 0 || pos != text.length()) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        return Duration.ofNanos((long) nanos);
    }
}
