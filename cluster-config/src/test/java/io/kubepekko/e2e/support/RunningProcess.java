package io.kubepekko.e2e.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child process the test keeps running while it acts (a {@code kubectl get -w}, a {@code kubectl
 * wait}): its output goes to files the test polls with a deadline, and {@link #close()} kills it
 * with everything it started.
 */
public final class RunningProcess implements AutoCloseable {

    private final List<String> command;
    private final Process process;
    private final Path out;
    private final Path err;

    private RunningProcess(List<String> command, Process process, Path out, Path err) {
        this.command = command;
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts {@code command}; a null value in {@code environment} removes that variable. */
    public static RunningProcess start(
            List<String> command, Path workDir, Map<String, String> environment) {
        try {
            Path out = Files.createTempFile("kubepekko-e2e-", ".out");
            Path err = Files.createTempFile("kubepekko-e2e-", ".err");
            return new RunningProcess(
                    List.copyOf(command),
                    Processes.builder(command, workDir, environment, out, err).start(),
                    out,
                    err);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    /** Everything written to standard output so far, line by line. */
    public List<String> lines() {
        return read(out).lines().toList();
    }

    /** Everything written to standard error so far, line by line. */
    public List<String> errorLines() {
        return read(err).lines().toList();
    }

    /**
     * Waits until some output line satisfies {@code line}, failing with the output after {@code
     * within}.
     */
    public void awaitLine(Predicate<String> line, Duration within) {
        awaitIn(out, line, within);
    }

    /**
     * Waits until some line of standard error (a client's verbose log, say) satisfies {@code line}.
     */
    public void awaitErrorLine(Predicate<String> line, Duration within) {
        awaitIn(err, line, within);
    }

    private void awaitIn(Path file, Predicate<String> line, Duration within) {
        await().atMost(within)
                .pollInterval(Duration.ofMillis(50))
                .alias("output of " + String.join(" ", command))
                .until(
                        () -> {
                            if (read(file).lines().anyMatch(line)) {
                                return true;
                            }
                            if (!process.isAlive() && read(file).lines().noneMatch(line)) {
                                throw new AssertionError(
                                        "the process ended first\n" + result(false).describe());
                            }
                            return false;
                        });
    }

    /**
     * Waits for the process to end by itself within {@code within}; kills it and fails otherwise.
     */
    public ProcessResult awaitExit(Duration within) {
        try {
            if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                Processes.killTree(process);
                throw new AssertionError(
                        "still running after " + within + "\n" + result(true).describe());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return result(false);
    }

    /**
     * Asks the process to stop (SIGTERM, as a supervisor does) and waits for it to end; kills it
     * with everything it started, and fails, if it is still running after {@code within}.
     */
    public ProcessResult terminate(Duration within) {
        process.destroy();
        return awaitExit(within);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    private ProcessResult result(boolean killed) {
        return new ProcessResult(
                command,
                process.isAlive() || killed ? -1 : process.exitValue(),
                read(out),
                read(err),
                killed);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            Processes.killTree(process);
        }
        try {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        } catch (IOException e) {
            // leftover temp files are harmless
        }
    }
}
