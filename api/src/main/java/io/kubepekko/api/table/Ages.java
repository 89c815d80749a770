package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Ages as {@code kubectl get} shows them ({@code 5s}, {@code 3m2s}, {@code 4h}, {@code 12d}):
 * Kubernetes' human-readable duration, which keeps two units while the larger is small and one
 * after.
 */
public final class Ages {
    private Ages() {}

    /**
     * A timestamp's age at {@code now}; {@code <unknown>} when it is missing or malformed, as kube
     * prints.
     */
    public static String since(JsonNode timestamp, Instant now) {
        if (timestamp == null || !timestamp.isTextual() || timestamp.asText().isEmpty()) {
            return "<unknown>";
        }
        try {
            return human(Duration.between(Instant.parse(timestamp.asText()), now));
        } catch (DateTimeParseException e) {
            return "<unknown>";
        }
    }

    /** The age of the object's {@code metadata.creationTimestamp}. */
    public static String of(JsonNode object, Instant now) {
        return since(object.path("metadata").get("creationTimestamp"), now);
    }

    /**
     * A duration in Kubernetes' human-readable form; a clock a little behind reads as {@code 0s}.
     */
    public static String human(Duration d) {
        long seconds = d.getSeconds(); // floor, as Go's int(d.Seconds()) for whole-second stamps
        if (d.isNegative() && d.getNano() > 0) {
            seconds++; // truncate towards zero like Go
        }
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 60 * 2) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        }
        if (minutes < 60 * 3) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        }
        if (hours < 48) {
            return hours + "h";
        }
        if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? hours / 24 + "d" : hours / 24 + "d" + h + "h";
        }
        if (hours < 24 * 365 * 2) {
            return hours / 24 + "d";
        }
        if (hours < 24 * 365 * 8) {
            long days = (hours / 24) % 365;
            return days == 0 ? hours / 24 / 365 + "y" : hours / 24 / 365 + "y" + days + "d";
        }
        return hours / 24 / 365 + "y";
    }
}
