package io.kubepekko.http.server;

import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.http.logging.LogSettings;

/**
 * kube's logging flags (component-base {@code logs/api/v1}): {@code --logging-format} and {@code
 * -v, --v}, listed in {@link ApiServerFlags#FLAGS}. The format is checked once the flags are
 * parsed, with kube's message, as kube validates its logging configuration.
 */
final class LoggingFlags {
    private LoggingFlags() {}

    static final Flag<String> LOGGING_FORMAT =
            new Flag<>(
                    "logging-format",
                    "string",
                    LogSettings.TEXT,
                    "Sets the log format. Permitted formats: \"json\", \"text\".",
                    false,
                    false,
                    Flag.last(value -> value));
    static final Flag<Long> V =
            new Flag<>(
                    "v",
                    "Level",
                    "0",
                    "number for the log level verbosity",
                    false,
                    false,
                    Flag.last(LoggingFlags::level));

    /** The settings the flags give, or kube's validation error. */
    static LogSettings settings(FlagSet.Parsed.Values v) throws ApiServerFlags.UsageException {
        String format = v.get(LOGGING_FORMAT);
        if (!format.equals(LogSettings.TEXT) && !format.equals(LogSettings.JSON)) {
            throw new ApiServerFlags.UsageException(
                    "format: Invalid value: \"" + format + "\": Unsupported log format");
        }
        long verbosity = v.get(V);
        if (verbosity > Integer.MAX_VALUE) {
            throw new ApiServerFlags.UsageException(
                    "verbosity: Invalid value: " + verbosity + ": Must be <= " + Integer.MAX_VALUE);
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
