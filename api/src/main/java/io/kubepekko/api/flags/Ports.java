package io.kubepekko.api.flags;

import java.util.function.IntFunction;

/**
 * A TCP port given as a flag's value: 0 (the system picks a free one) to 65535, as every Kubernetes
 * component takes it.
 */
public final class Ports {
    private Ports() {}

    /** The highest TCP port. */
    public static final int MAX = 65535;

    /**
     * The port in {@code text}. {@code number} reads the integer (refusing text that is none in its
     * component's words); a number outside 0 to {@value #MAX} is refused with the reason {@code
     * outOfRange} gives for it, since each component words that differently.
     */
    public static int parse(
            String text, Flag.Parser<Integer> number, IntFunction<String> outOfRange)
            throws Flag.InvalidValue {
        int port = number.parse(text);
        if (port < 0 || port > MAX) {
            throw new Flag.InvalidValue(text, outOfRange.apply(port));
        }
        return port;
    }
}
