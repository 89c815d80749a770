package io.kubepekko.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Helpers shared by the two child processes: free ports, readiness polling, teardown. */
final class Processes {

    private static final long POLL_MILLIS = 100;

    private Processes() {}

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /**
     * Polls {@code GET path} until {@code ready} accepts the response, the process dies, or the
     * deadline passes. Polling at a short interval, not sleeping a fixed time, keeps start-up as
     * fast as the server allows.
     */
    static void awaitHttp(
            URI base,
            String path,
            Predicate<HttpConn.Response> ready,
            Process process,
            Duration timeout)
            throws IOException, InterruptedException {
        awaitHttp(Endpoint.plain(base), path, ready, process, timeout);
    }

    /** {@link #awaitHttp(URI, String, Predicate, Process, Duration)} over TLS too. */
    static void awaitHttp(
            Endpoint endpoint,
            String path,
            Predicate<HttpConn.Response> ready,
            Process process,
            Duration timeout)
            throws IOException, InterruptedException {
        URI base = endpoint.base();
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no response";
        while (System.nanoTime() < deadline) {
            if (process != null && !process.isAlive()) {
                throw new IOException(
                        "process exited with code "
                                + process.exitValue()
                                + " before "
                                + base
                                + path
                                + " was ready");
            }
            try (HttpConn conn = new HttpConn(endpoint)) {
                HttpConn.Response response = conn.get(path);
                if (ready.test(response)) {
                    return;
                }
                last = "HTTP " + response.status() + " " + response.text().strip();
            } catch (IOException e) {
                last = e.toString();
            }
            if (process != null) {
                process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS);
            } else {
                Thread.sleep(POLL_MILLIS);
            }
        }
        throw new IOException(
                base + path + " not ready after " + timeout.toSeconds() + "s: " + last);
    }

    /** Stops the child process even when the run is interrupted with Ctrl-C. */
    static <T extends AutoCloseable> T closeOnExit(T process) {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    try {
                                        process.close();
                                    } catch (Exception e) {
                                        // exiting anyway
                                    }
                                }));
        return process;
    }

    /**
     * Ends the process and everything it started: politely first, forcibly after a grace period.
     */
    static void killTree(Process process, Duration grace) {
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroy();
        tree.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        for (ProcessHandle handle :
                Stream.concat(Stream.of(process.toHandle()), tree.stream()).toList()) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                handle.onExit().get(left, TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            p -> {
                                try {
                                    Files.delete(p);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("warning: could not delete " + dir + ": " + e);
        }
    }

    /** The executable's path if it is on PATH. */
    static Path onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
