package io.kubepekko.api.protobuf;

/** Go's {@code time.Duration} text form ({@code 1h2m3.5s}), which metav1.Duration uses in JSON. */
final class GoDurations {
    private GoDurations() {}

    /** Formats nanoseconds as Go's {@code Duration.String()} does. */
    static String format(long nanos) {
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
        String digits = String.format("%0" + Long.toString(scale).length() + "d", frac).substring(1);
        return whole + "." + digits.replaceAll("0+$", "");
    }

    /** Parses Go's duration syntax ({@code 300ms}, {@code -1.5h}, {@code 2h45m}) to nanoseconds. */
    static long parse(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]*\\.?[0-9]+)(ns|us|µs|ms|s|m|h)")
                .matcher(text);
        String s = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
        if (s.equals("0")) {
            return 0;
        }
        m.reset(s);
        double total = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                throw new IllegalArgumentException("invalid duration " + text);
            }
            end = m.end();
            double v = Double.parseDouble(m.group(1));
            total += v * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
        }
        if (end != s.length() || end == 0) {
            throw new IllegalArgumentException("invalid duration " + text);
        }
        return Math.round(text.startsWith("-") ? -total : total);
    }
}
