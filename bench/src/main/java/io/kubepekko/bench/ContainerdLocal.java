package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The project's own containerd ({@code cluster-config/bin/containerd-local}) in a directory of the
 * bench's. The script imports the pause and busybox images at start, so no pod start of the bench
 * pulls an image. {@link #stop()} runs the script's {@code stop}: every container, shim, mount and
 * cgroup of it goes.
 */
final class ContainerdLocal {

    /**
     * A first start may install Debian packages and build the images; later ones take about a
     * second.
     */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(10);

    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

    private final Path script;
    private final Path dir;
    private final String endpoint;

    private ContainerdLocal(Path script, Path dir, String endpoint) {
        this.script = script;
        this.dir = dir;
        this.endpoint = endpoint;
    }

    static ContainerdLocal start(Path script, Path dir) throws IOException, InterruptedException {
        String out = run(script, START_TIMEOUT, "start", "--dir", dir.toString());
        List<String> lines = out.strip().lines().toList();
        String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
        if (!last.startsWith("unix://")) {
            throw new IOException("containerd-local start printed no endpoint:\n" + out);
        }
        return new ContainerdLocal(script, dir, last);
    }

    /** {@code unix://<dir>/containerd.sock}. */
    String endpoint() {
        return endpoint;
    }

    /** containerd's own pid, from the script's pid file. */
    Optional<Long> pid() {
        try {
            return Optional.of(
                    Long.parseLong(Files.readString(dir.resolve("containerd.pid")).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code containerd --version}'s version, for the report. */
    static String version() {
        try {
            Process p =
                    new ProcessBuilder("containerd", "--version").redirectErrorStream(true).start();
            String text =
                    new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor(10, TimeUnit.SECONDS);
            String[] words = text.split("\\s+");
            return words.length >= 3 ? words[2] : text;
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /**
     * Stops it and everything it ran; true when the script says so (then nothing of it is mounted
     * any more).
     */
    boolean stop() {
        try {
            run(script, STOP_TIMEOUT, "stop", "--dir", dir.toString());
            return true;
        } catch (IOException e) {
            System.err.println("warning: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String run(Path script, Duration timeout, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        // Read on another thread: a process that fills its pipe would never end.
        CompletableFuture<byte[]> out =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return p.getInputStream().readAllBytes();
                            } catch (IOException e) {
                                return new byte[0];
                            }
                        });
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException(
                    "containerd-local "
                            + args[0]
                            + " did not finish in "
                            + timeout.toSeconds()
                            + " s");
        }
        String text = new String(out.join(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(
                    "containerd-local " + args[0] + " failed (" + p.exitValue() + "): " + text);
        }
        return text;
    }
}
