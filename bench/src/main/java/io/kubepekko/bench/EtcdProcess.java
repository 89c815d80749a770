package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A throw-away single-member etcd on loopback: free ports, a temporary data directory, and etcd's
 * defaults otherwise (in particular it fsyncs every write, as durability requires, which is what
 * our server is compared against).
 */
final class EtcdProcess implements AutoCloseable {

    private final Process process;
    private final Path dataDir;
    private final URI clientUrl;
    private final String version;
    private long startNanos;

    private EtcdProcess(Process process, Path dataDir, URI clientUrl, String version) {
        this.process = process;
        this.dataDir = dataDir;
        this.clientUrl = clientUrl;
        this.version = version;
    }

    static EtcdProcess start(Duration timeout) throws IOException, InterruptedException {
        Path etcd = ensureInstalled();
        Path dataDir = Files.createTempDirectory("bench-etcd-");
        String client = "http://127.0.0.1:" + Processes.freePort();
        String peer = "http://127.0.0.1:" + Processes.freePort();
        // Asked before the launch, so that the first readiness poll follows it without delay.
        String version = version(etcd);
        long launched = System.nanoTime();
        // Peer URLs are advertised consistently so nothing points at the default :2380, which
        // another
        // etcd on this machine may own; a single member never talks to peers anyway.
        Process process =
                new ProcessBuilder(
                                etcd.toString(),
                                "--name",
                                "bench",
                                "--data-dir",
                                dataDir.resolve("data").toString(),
                                "--listen-client-urls",
                                client,
                                "--advertise-client-urls",
                                client,
                                "--listen-peer-urls",
                                peer,
                                "--initial-advertise-peer-urls",
                                peer,
                                "--initial-cluster",
                                "bench=" + peer)
                        .redirectErrorStream(true)
                        .redirectOutput(dataDir.resolve("etcd.log").toFile())
                        .start();
        EtcdProcess started = new EtcdProcess(process, dataDir, URI.create(client), version);
        try {
            Processes.awaitHttp(
                    started.clientUrl,
                    "/health",
                    r -> r.ok() && r.text().contains("\"true\""),
                    process,
                    timeout);
            started.startNanos = System.nanoTime() - launched;
        } catch (IOException e) {
            started.printLogTail();
            started.close();
            throw e;
        }
        return started;
    }

    URI clientUrl() {
        return clientUrl;
    }

    /**
     * From launching the process to its first healthy {@code /health} (polled every 100 ms), in
     * nanoseconds.
     */
    long startNanos() {
        return startNanos;
    }

    /** etcd's own version line, for the report. */
    String version() {
        return version;
    }

    /** Installs Debian's etcd-server (3.4.x) when {@code etcd} is not on PATH. */
    static Path ensureInstalled() throws IOException, InterruptedException {
        Path etcd = Processes.onPath("etcd");
        if (etcd != null) {
            return etcd;
        }
        System.err.println("etcd not on PATH: installing Debian's etcd-server");
        for (List<String> command :
                List.of(
                        List.of("apt-get", "update"),
                        List.of("apt-get", "install", "-y", "etcd-server"))) {
            int code = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (code != 0) {
                throw new IOException(String.join(" ", command) + " failed with exit code " + code);
            }
        }
        etcd = Processes.onPath("etcd");
        if (etcd == null) {
            throw new IOException("etcd-server installed but no etcd on PATH");
        }
        return etcd;
    }

    private static String version(Path etcd) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(etcd.toString(), "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().findFirst().orElse("etcd (unknown version)").strip();
    }

    private void printLogTail() throws IOException {
        List<String> lines = Files.readAllLines(dataDir.resolve("etcd.log"));
        System.err.println("--- etcd log (last lines) ---");
        lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(System.err::println);
    }

    @Override
    public void close() {
        Processes.killTree(process, Duration.ofSeconds(10));
        Processes.deleteTree(dataDir);
    }
}
