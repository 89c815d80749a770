package io.kubepekko.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A private containerd started by {@code cluster-config/bin/containerd-local} in a directory of the
 * test's, for tests of the node agent and of the script itself. {@link #close()} runs the script's
 * {@code stop}: no container, shim, mount or cgroup of it outlives the test.
 */
public final class LocalContainerd implements AutoCloseable {
    /**
     * The first start may install Debian packages and builds the two images; later ones take about
     * a second.
     */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(10);

    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration CTR_TIMEOUT = Duration.ofMinutes(2);
    private static final String ENDPOINT_SCHEME = "unix://";

    private final Path dir;
    private final String endpoint;
    private final ProcessResult started;
    private boolean closed;

    private LocalContainerd(Path dir, String endpoint, ProcessResult started) {
        this.dir = dir;
        this.endpoint = endpoint;
        this.started = started;
    }

    /** The script, found from the repository root. */
    public static Path script() {
        return RepositoryRoot.find().resolve("cluster-config/bin/containerd-local");
    }

    /** Runs the script with {@code args} (e.g. {@code start --dir D}), to completion. */
    public static ProcessResult run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(script().toString());
        command.addAll(List.of(args));
        return Processes.run(command, null, Map.of(), timeout);
    }

    /**
     * Starts containerd in {@code dir} (or finds it running there) and returns once it answers.
     *
     * @throws IllegalStateException when the script fails or does not end with an endpoint
     */
    public static LocalContainerd start(Path dir) {
        ProcessResult start = run(START_TIMEOUT, "start", "--dir", dir.toString());
        String endpoint =
                endpointOf(start)
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                "containerd-local start failed\n"
                                                        + start.describe()));
        return new LocalContainerd(dir, endpoint, start);
    }

    /**
     * The last line of standard output when the script succeeded and that line is a {@code unix://}
     * endpoint.
     */
    public static Optional<String> endpointOf(ProcessResult start) {
        if (start.timedOut() || start.exitCode() != 0) {
            return Optional.empty();
        }
        List<String> lines = start.stdoutText().lines().toList();
        if (lines.isEmpty() || !lines.get(lines.size() - 1).startsWith(ENDPOINT_SCHEME)) {
            return Optional.empty();
        }
        return Optional.of(lines.get(lines.size() - 1));
    }

    /**
     * The CRI endpoint, {@code unix:///…/containerd.sock}, as the agent's {@code
     * --container-runtime-endpoint}.
     */
    public String endpoint() {
        return endpoint;
    }

    /** The unix socket the endpoint names. */
    public Path socket() {
        return Path.of(endpoint.substring(ENDPOINT_SCHEME.length()));
    }

    /** The directory everything lives in. */
    public Path dir() {
        return dir;
    }

    /** What {@code start} printed, for failure messages. */
    public ProcessResult startResult() {
        return started;
    }

    /** The containerd process's id, from the script's pid file. */
    public long pid() {
        try {
            return Long.parseLong(Files.readString(dir.resolve("containerd.pid")).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code ctr --address SOCKET args…} to completion. */
    public ProcessResult ctr(String... args) {
        return ctr(CTR_TIMEOUT, args);
    }

    /** As {@link #ctr(String...)}, with a deadline of {@code timeout}. */
    public ProcessResult ctr(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("ctr", "--address", socket().toString()));
        command.addAll(List.of(args));
        return Processes.run(command, null, Map.of(), timeout);
    }

    /**
     * Stops only the containerd daemon ({@code stop --keep-containers}): its containers keep
     * running under their shims, as after {@code systemctl stop containerd}. {@link #startAgain()}
     * brings it back.
     */
    public ProcessResult stopDaemon() {
        return run(STOP_TIMEOUT, "stop", "--keep-containers", "--dir", dir.toString());
    }

    /**
     * Starts the daemon again on the same directory (after {@link #stopDaemon()}); it takes its
     * containers back.
     */
    public ProcessResult startAgain() {
        return run(START_TIMEOUT, "start", "--dir", dir.toString());
    }

    /** Runs the script's {@code stop}; the result says whether everything went. */
    public ProcessResult stop() {
        closed = true;
        return run(STOP_TIMEOUT, "stop", "--dir", dir.toString());
    }

    /** Stops containerd and everything it ran, unless {@link #stop()} already did. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        ProcessResult stop = stop();
        if (stop.timedOut() || stop.exitCode() != 0) {
            throw new IllegalStateException("containerd-local stop failed\n" + stop.describe());
        }
    }
}
