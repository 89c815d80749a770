package io.kubepekko.api.alloc;

/**
 * An inclusive range of port numbers, as {@code --service-node-port-range} names it.
 *
 * @param base the first port
 * @param size how many ports, at least 1
 */
public record PortRange(int base, int size) {

    /** kube-apiserver's default node port range. */
    public static final PortRange DEFAULT_NODE_PORTS = new PortRange(30000, 2768);

    public PortRange {
        if (size < 1 || base < 0 || base + size - 1 > 65535) {
            throw new IllegalArgumentException("invalid port range " + base + "+" + (size - 1));
        }
    }

    /**
     * Parses {@code low-high}, {@code low+offset} or a single port, with Kubernetes' messages for
     * what it refuses ({@code net.PortRange.Set}).
     *
     * @throws IllegalArgumentException with the message kube-apiserver prints
     */
    public static PortRange parse(String text) {
        String value = text.trim();
        int hyphen = value.indexOf('-');
        int plus = value.indexOf('+');
        int low;
        int high;
        if (hyphen < 0 && plus < 0) {
            low = atoi(value);
            high = low;
        } else if (hyphen >= 0 && plus < 0) {
            low = atoi(value.substring(0, hyphen));
            high = atoi(value.substring(hyphen + 1));
        } else if (plus >= 0 && hyphen < 0) {
            low = atoi(value.substring(0, plus));
            high = low + atoi(value.substring(plus + 1));
        } else {
            throw new IllegalArgumentException("unable to parse port range: " + value);
        }
        if (low > 65535 || high > 65535) {
            throw new IllegalArgumentException(
                    "the port range cannot be greater than 65535: " + value);
        }
        if (high < low) {
            throw new IllegalArgumentException("end port cannot be less than start port: " + value);
        }
        return new PortRange(low, high - low + 1);
    }

    /** Go's {@code strconv.Atoi} with its error wording; negative numbers parse, as in Go. */
    private static int atoi(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "strconv.Atoi: parsing "
                            + quote(s)
                            + ": "
                            + (s.matches("[+-]?\\d+") ? "value out of range" : "invalid syntax"));
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    public int last() {
        return base + size - 1;
    }

    public boolean contains(int port) {
        return port >= base && port <= last();
    }

    /** {@code 30000-32767}, as kube-apiserver prints a range in its messages. */
    @Override
    public String toString() {
        return base + "-" + last();
    }
}
