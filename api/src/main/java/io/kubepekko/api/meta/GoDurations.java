package io.kubepekko.api.meta;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code time.Duration} text form ({@code 1h2m3.5s}): metav1.Duration's JSON, and the syntax
 * of kube-apiserver's duration flags.
 */
public final class GoDurations {
    private GoDurations() {}

    /** Formats nanoseconds as Go's {@code Duration.String()} does. */
    public static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        boolean negative = nanos < 0;
        long u = Math.abs(nanos);
        if (u < 1_000_000_000L) {
            String unit;
            long scale;
            if (u < 1_000L) {
                return (negative ? "-" : "") + u + "ns";
            } else if (u < 1_000_000L) {
                unit = "µs";
                scale = 1_000L;
            } else {
                unit = "ms";
                scale = 1_000_000L;
            }
            return (negative ? "-" : "") + fraction(u, scale) + unit;
        }
        long hours = u / 3_600_000_000_000L;
        long rest = u % 3_600_000_000_000L;
        long minutes = rest / 60_000_000_000L;
        rest = rest % 60_000_000_000L;
        if (negative) {
            out.append('-');
        }
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            out.append(minutes).append('m');
        }
        out.append(fraction(rest, 1_000_000_000L)).append('s');
        return out.toString();
    }

    private static String fraction(long value, long scale) {
        long whole = value / scale;
        long frac = value % scale;
        if (frac == 0) {
            return Long.toString(whole);
        }
        String digits =
                String.format("%0" + Long.toString(scale).length() + "d", frac).substring(1);
        return whole + "." + digits.replaceAll("0+$", "");
    }

    private static final Pattern PART =
            Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

    /**
     * Parses Go's duration syntax ({@code 0}, {@code 300ms}, {@code -1.5h}, {@code 2h45m}) to
     * nanoseconds.
     *
     * @throws IllegalArgumentException {@code invalid duration "<text>"}
     */
    public static long parse(String text) {
        boolean negative = text.startsWith("-");
        String s = negative || text.startsWith("+") ? text.substring(1) : text;
        if (s.equals("0")) {
            return 0;
        }
        Matcher m = PART.matcher(s);
        int pos = 0;
        double nanos = 0;
        while (m.find() && m.start() == pos) {
            nanos +=
                    Double.parseDouble(m.group(1))
                            * switch (m.group(2)) {
                                case "ns" -> 1d;
                                case "us", "µs" -> 1e3;
                                case "ms" -> 1e6;
                                case "s" -> 1e9;
                                case "m" -> 60e9;
                                default -> 3600e9;
                            };
            pos = m.end();
        }
        if (pos == 0 || pos != s.length()) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        return Math.round(negative ? -nanos : nanos);
    }
}
