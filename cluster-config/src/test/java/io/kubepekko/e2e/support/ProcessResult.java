package io.kubepekko.e2e.support;

import java.util.List;

/**
 * What a finished (or timed-out and killed) child process left behind.
 *
 * @param command the command line, for failure messages
 * @param exitCode the exit code; meaningless when {@code timedOut}
 * @param stdout everything written to standard output
 * @param stderr everything written to standard error
 * @param timedOut whether the process was killed because it ran past its deadline
 */
public record ProcessResult(
        List<String> command, int exitCode, String stdout, String stderr, boolean timedOut) {

    /** Standard error without the trailing newline, the usual form of a one-message error. */
    public String stderrText() {
        return stderr.strip();
    }

    /** Standard output without the trailing newline. */
    public String stdoutText() {
        return stdout.strip();
    }

    /**
     * A multi-line description to attach to assertion failures, so a failing test shows what the
     * client saw.
     */
    public String describe() {
        return "command: "
                + String.join(" ", command)
                + (timedOut ? "\n(timed out and killed)" : "\nexit code: " + exitCode)
                + "\n--- stdout ---\n"
                + stdout
                + "\n--- stderr ---\n"
                + stderr;
    }
}
