package io.kubepekko.agent.logs;

import io.kubepekko.agent.flags.AgentSettings;

/**
 * The kubelet's {@code LogRotatePolicy}: a live log file is rotated once it holds {@code
 * maxSizeBytes}, and at most {@code maxFiles} files (the live one included) are kept per container.
 *
 * @param maxSizeBytes {@code --container-log-max-size}; 0 or less: no rotation
 * @param maxFiles {@code --container-log-max-files}, at least 2 (the live file and the one just
 *     rotated)
 */
public record LogRotationPolicy(long maxSizeBytes, int maxFiles) {

    public LogRotationPolicy {
        if (maxFiles < 2) {
            throw new IllegalArgumentException("invalid MaxFiles " + maxFiles + ", must be > 1");
        }
    }

    public static LogRotationPolicy of(AgentSettings settings) {
        return new LogRotationPolicy(
                settings.containerLogMaxSizeBytes(), settings.containerLogMaxFiles());
    }

    /** Whether logs are rotated at all (the kubelet runs a stub manager otherwise). */
    public boolean enabled() {
        return maxSizeBytes > 0;
    }
}
