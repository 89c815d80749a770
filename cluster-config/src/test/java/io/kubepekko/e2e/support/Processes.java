package io.kubepekko.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs short-lived child processes with a deadline. Output goes to files rather than pipes so a
 * chatty process can never block on a full pipe buffer, and a process that outlives its deadline is
 * killed together with everything it started.
 */
public final class Processes {
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    private Processes() {}

    /**
     * Runs {@code command} to completion or until {@code timeout} passes, whichever comes first.
     *
     * @param workDir the working directory, or null to inherit ours
     * @param environment variables to set (a null value removes the variable)
     */
    public static ProcessResult run(
            List<String> command, Path workDir, Map<String, String> environment, Duration timeout) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("kubepekko-e2e-", ".out");
            err = Files.createTempFile("kubepekko-e2e-", ".err");
            Process process = builder(command, workDir, environment, out, err).start();
            boolean finished;
            try {
                finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                killTree(process);
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running " + command, e);
            }
            if (!finished) {
                killTree(process);
            }
            return new ProcessResult(
                    List.copyOf(command),
                    finished ? process.exitValue() : -1,
                    Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8),
                    !finished);
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /**
     * A child process reading nothing, writing to {@code out} and {@code err}, in {@code workDir}
     * (null: ours), with {@code environment} applied (a null value removes the variable).
     */
    static ProcessBuilder builder(
            List<String> command,
            Path workDir,
            Map<String, String> environment,
            Path out,
            Path err) {
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
        if (workDir != null) {
            builder.directory(workDir.toFile());
        }
        environment.forEach(
                (name, value) -> {
                    if (value == null) {
                        builder.environment().remove(name);
                    } else {
                        builder.environment().put(name, value);
                    }
                });
        return builder;
    }

    /**
     * Kills a process and all its descendants at once (SIGKILL), then waits for them to be gone.
     * Descendants are collected first: once the parent dies they are re-parented and can no longer
     * be found through it. Waits a bounded time for each to exit.
     */
    public static void killTree(Process process) {
        killTree(process.toHandle());
    }

    /** As {@link #killTree(Process)}, for a process handle. */
    public static void killTree(ProcessHandle root) {
        List<ProcessHandle> all = new ArrayList<>(root.descendants().toList());
        all.add(0, root);
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // SIGKILL cannot be refused; a re-parented descendant may linger as a zombie until
                // its new
                // parent reaps it, which is no longer ours to wait for.
            }
        }
    }

    private static void deleteQuietly(Path file) {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // A leftover temp file is harmless; the result has already been read.
        }
    }
}
