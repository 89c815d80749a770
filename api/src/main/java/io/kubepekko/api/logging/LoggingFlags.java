package io.kubepekko.api.logging;

import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;

/**
 * kube's logging flags (component-base {@code logs/api/v1}): {@code --logging-format} and {@code
 * -v, --v}, which the API server and the node agent list among their flags. The format is checked
 * once the flags are parsed, with kube's message, as kube validates its logging configuration.
 */
public final class LoggingFlags {
    private LoggingFlags() {}

    public static final Flag<String> LOGGING_FORMAT =
            new Flag<>(
                    "logging-format",
                    "string",
                    LogSettings.TEXT,
                    "Sets the log format. Permitted formats: \"json\", \"text\".",
                    false,
                    false,
                    Flag.last(value -> value));
    public static final Flag<Long> V =
            new Flag<>(
                    "v",
                    "Level",
                    "0",
                    "number for the log level verbosity",
                    false,
                    false,
                    Flag.last(LoggingFlags::level));

    /** A logging configuration kube refuses; each command turns it into its own usage error. */
    public static final class InvalidException extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidException(String message) {
            super(message);
        }
    }

    /**
     * The settings the flags give, or kube's validation error with the field paths of a
     * configuration at the root ({@code format: Invalid value: ...}, the API server's).
     */
    public static LogSettings settings(FlagSet.Parsed.Values v) throws InvalidException {
        return settings(v, "");
    }

    /**
     * The settings the flags give, or kube's validation error with its fields under {@code prefix}
     * ({@code logging.} for the kubelet, whose logging configuration is a field of its
     * configuration).
     */
    public static LogSettings settings(FlagSet.Parsed.Values v, String prefix)
            throws InvalidException {
        String format = v.get(LOGGING_FORMAT);
        if (!format.equals(LogSettings.TEXT) && !format.equals(LogSettings.JSON)) {
            throw new InvalidException(
                    prefix + "format: Invalid value: \"" + format + "\": Unsupported log format");
        }
        long verbosity = v.get(V);
        if (verbosity > Integer.MAX_VALUE) {
            throw new InvalidException(
                    prefix
                            + "verbosity: Invalid value: "
                            + verbosity
                            + ": Must be <= "
                            + Integer.MAX_VALUE);
        }
        return new LogSettings(format, verbosity);
    }

    /** klog's verbosity: an unsigned 32-bit number. */
    private static long level(String value) throws Flag.InvalidValue {
        try {
            long parsed = Long.parseLong(value);
            if (parsed < 0 || parsed > 0xFFFF_FFFFL || value.startsWith("+")) {
                throw new NumberFormatException(value);
            }
            return parsed;
        } catch (NumberFormatException e) {
            boolean range = value.matches("[0-9]+");
            throw new Flag.InvalidValue(
                    value,
                    "strconv.ParseUint: parsing \""
                            + value
                            + "\": "
                            + (range ? "value out of range" : "invalid syntax"));
        }
    }
}
