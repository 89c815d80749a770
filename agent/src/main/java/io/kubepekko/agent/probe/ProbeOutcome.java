package io.kubepekko.agent.probe;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What one run of a probe's handler gave (the kubelet's {@code probe.Result} and output): {@link
 * ProbeResult#UNKNOWN} when the prober itself could not run the check (a port name not found, the
 * runtime refused the exec); the kubelet throws such a result away and keeps the one before.
 *
 * @param result success, failure, or unknown
 * @param output what the check said (the command's output, the HTTP body or the failure's words),
 *     at most 10 KiB
 */
public record ProbeOutcome(ProbeResult result, String output) {

    /** The kubelet keeps at most 10 KiB of a probe's output. */
    public static final int MAX_OUTPUT_BYTES = 10 * 1024;

    public ProbeOutcome {
        output = truncate(output);
    }

    public static ProbeOutcome success(String output) {
        return new ProbeOutcome(ProbeResult.SUCCESS, output);
    }

    public static ProbeOutcome failure(String output) {
        return new ProbeOutcome(ProbeResult.FAILURE, output);
    }

    /** The prober failed; {@code why} is for the log only. */
    public static ProbeOutcome error(String why) {
        return new ProbeOutcome(ProbeResult.UNKNOWN, why);
    }

    /** What {@link ProbeWorker#record} takes: empty when the result is to be thrown away. */
    public Optional<ProbeResult> counted() {
        return result == ProbeResult.UNKNOWN ? Optional.empty() : Optional.of(result);
    }

    static String truncate(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_OUTPUT_BYTES) {
            return text;
        }
        // Cut on a byte count as the kubelet's limit writer does; a split character decodes as a
        // replacement.
        return new String(bytes, 0, MAX_OUTPUT_BYTES, StandardCharsets.UTF_8);
    }
}
