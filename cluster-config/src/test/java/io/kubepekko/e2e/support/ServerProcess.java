package io.kubepekko.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An API server in a JVM of its own ({@code io.kubepekko.http.server.ApiServerMain} on the test
 * classpath), so a test can kill it the hard way and start it again on the same data directory and
 * port. It serves HTTPS on {@code --secure-port} of 127.0.0.1; its clients trust the CA and present
 * the admin certificate of the {@code admin.kubeconfig} it writes ({@link #tls()}). Its output goes
 * to {@code server-<n>.log} next to the data directory.
 */
public final class ServerProcess implements AutoCloseable {
    /**
     * How long a (re)start may take until /readyz answers 200: JVM start, cluster formation,
     * journal.
     */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    private static final String MAIN_CLASS = "io.kubepekko.http.server.ApiServerMain";

    private final Path dataDir;
    private final int port;
    private final List<String> extraArgs;

    /** The readiness probe's client, made once the server has written its kubeconfig. */
    private HttpClient probeClient;

    /** What must answer 200 for the server to count as ready. */
    private String readyPath = "/readyz";

    private Process process;
    private int starts;

    /**
     * How the server's JVM compiles: a few seconds of server are over before C2 pays back its
     * compile time, minutes of megabytes through TLS and the encoders are not.
     */
    public enum Jit {
        /** C1 only: quick to start, for the usual short-lived test server. */
        QUICK,
        /** The JVM's default tiered compilation, for a server that moves hundreds of megabytes. */
        FULL
    }

    private Jit jit = Jit.QUICK;

    private ServerProcess(Path dataDir, int port, List<String> extraArgs) {
        this.dataDir = dataDir;
        this.port = port;
        this.extraArgs = List.copyOf(extraArgs);
    }

    /** Starts a server on {@code dataDir} and a free port, and returns once /readyz answers 200. */
    public static ServerProcess start(Path dataDir) {
        return start(dataDir, List.of());
    }

    /**
     * Starts a server on {@code dataDir} and a free port with flags of its own ({@code --storage},
     * the cluster's), and returns once /readyz answers 200. A restart passes the same flags again.
     */
    public static ServerProcess start(Path dataDir, List<String> extraArgs) {
        ServerProcess server = spawn(dataDir, freePort(), extraArgs);
        server.awaitReady();
        return server;
    }

    /**
     * Starts a server on {@code dataDir} and a free port with flags of its own, and returns once
     * {@code readyPath} (e.g. {@code /readyz?exclude=storage-quota}: a full server is up, not ready
     * for more data) answers 200, as every restart then does.
     */
    public static ServerProcess start(Path dataDir, List<String> extraArgs, String readyPath) {
        return start(dataDir, extraArgs, readyPath, Jit.QUICK);
    }

    /**
     * As {@link #start(Path, List, String)}, its JVM (and every restart's) compiling as {@code jit}
     * says.
     */
    public static ServerProcess start(
            Path dataDir, List<String> extraArgs, String readyPath, Jit jit) {
        ServerProcess server = new ServerProcess(dataDir, freePort(), extraArgs);
        server.readyPath = readyPath;
        server.jit = jit;
        server.launchProcess();
        server.awaitReady();
        return server;
    }

    /**
     * Starts a server on {@code dataDir} and {@code port} with flags of its own, without waiting
     * for it: several can start side by side, then each is {@link #awaitReady() awaited}.
     */
    public static ServerProcess spawn(Path dataDir, int port, List<String> extraArgs) {
        ServerProcess server = new ServerProcess(dataDir, port, extraArgs);
        server.launchProcess();
        return server;
    }

    /**
     * The command line that runs the server's entry point with {@code args}, on the test classpath
     * (without the tests' own classes; see {@link ServerArchive}).
     */
    public static List<String> command(String... args) {
        return command(Jit.QUICK, args);
    }

    private static List<String> command(Jit jit, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Small heap: these servers hold little data and the machine is shared.
        command.add("-Xms64m");
        command.add("-Xmx512m");
        if (jit == Jit.QUICK) {
            command.add("-XX:TieredStopAtLevel=1");
        }
        command.add("-XX:+ExitOnOutOfMemoryError"); // as cluster-config/bin/apiserver runs it
        // Its classes mapped from the tests' class-data archive, as bin/apiserver maps its own.
        String classpath = ServerArchive.classpath();
        command.addAll(ServerArchive.options(classpath));
        command.add("-cp");
        command.add(classpath);
        command.add(MAIN_CLASS);
        command.addAll(List.of(args));
        return command;
    }

    /** {@code https://127.0.0.1:<port>}: the serving certificate names 127.0.0.1. */
    public String url() {
        return "https://127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The kubeconfig the server writes into its data directory. */
    public Path kubeconfig() {
        return dataDir.resolve("admin.kubeconfig");
    }

    /**
     * The admin's TLS from {@link #kubeconfig()}: it trusts the server's CA and presents the admin
     * certificate ({@code kubernetes-admin} in {@code system:masters}); the same across restarts,
     * since the server keeps its CAs. Available once the server has started.
     */
    public ClientTls tls() {
        return ClientTls.fromKubeconfig(kubeconfig());
    }

    /** The log file of the current (or last) run. */
    public Path log() {
        return logOf(starts);
    }

    /** SIGKILL to the server and anything it started: no shutdown hook, no flush, no goodbye. */
    public void kill9() {
        if (process != null) {
            Processes.killTree(process);
            process = null;
        }
    }

    /**
     * SIGSTOP to the server's JVM: it stays alive but answers nothing, as a machine in a long pause
     * or cut off by a partition, until {@link #resume()}.
     */
    public void pause() {
        signal("STOP");
    }

    /**
     * SIGTERM, as a process manager stops the server: its graceful shutdown runs; see {@link
     * #awaitExit}.
     */
    public void terminate() {
        signal("TERM");
    }

    /** SIGCONT: a {@link #pause() paused} server goes on from where it stopped. */
    public void resume() {
        signal("CONT");
    }

    private void signal(String name) {
        if (process == null) {
            throw new IllegalStateException("the server is not running");
        }
        try {
            Process kill =
                    new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                            .inheritIO()
                            .start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until the server's JVM exits by itself and returns its exit code; fails after {@code
     * timeout}.
     */
    public int awaitExit(Duration timeout) {
        try {
            if (process == null || !process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "the server did not exit within " + timeout + "\n" + logTail());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return process.exitValue();
    }

    /**
     * Starts the server again on the same data directory, port and flags; kills a running one
     * first.
     */
    public void restart() {
        relaunch();
        awaitReady();
    }

    /**
     * Starts the server again as {@link #restart()} does, without waiting for it: several can start
     * side by side, then each is {@link #awaitReady() awaited}.
     */
    public void relaunch() {
        kill9();
        launchProcess();
    }

    /** Whether the server's JVM runs. */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    @Override
    public void close() {
        kill9();
    }

    private void launchProcess() {
        starts++;
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--data-dir",
                                dataDir.toString(),
                                "--bind-address",
                                "127.0.0.1",
                                "--secure-port",
                                Integer.toString(port)));
        args.addAll(extraArgs);
        try {
            Files.createDirectories(dataDir);
            process =
                    new ProcessBuilder(command(jit, args.toArray(String[]::new)))
                            .redirectInput(
                                    ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                            .redirectErrorStream(true)
                            .redirectOutput(logOf(starts).toFile())
                            .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the server JVM", e);
        }
    }

    /**
     * Returns once /readyz answers 200; kills the server and fails with its log's end if it exits
     * first or is not ready in time.
     */
    public void awaitReady() {
        try {
            pollReady();
        } catch (RuntimeException | Error e) {
            kill9();
            throw e;
        }
    }

    private void pollReady() {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        HttpRequest probe =
                HttpRequest.newBuilder(URI.create(url() + readyPath))
                        .timeout(PROBE_TIMEOUT)
                        .GET()
                        .build();
        String last = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the server exited with code "
                                + process.exitValue()
                                + " before it was ready\n"
                                + logTail());
            }
            try {
                HttpClient http = probeClient();
                if (http == null) {
                    last = "no " + kubeconfig().getFileName() + " yet";
                    process.waitFor(100, TimeUnit.MILLISECONDS);
                    continue;
                }
                HttpResponse<String> response =
                        http.send(probe, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = response.statusCode() + " " + response.body();
            } catch (ConnectException e) {
                last = "connection refused";
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the server", e);
            }
            // Waiting on the process rather than sleeping: it returns at once if the server dies
            // meanwhile.
            try {
                process.waitFor(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the server", e);
            }
        }
        throw new IllegalStateException(
                "the server was not ready within "
                        + READY_TIMEOUT
                        + " (last "
                        + readyPath
                        + ": "
                        + last
                        + ")\n"
                        + logTail());
    }

    /**
     * The admin's client once the server has written its kubeconfig (which names the CA the probe
     * must trust), else null.
     */
    private HttpClient probeClient() {
        if (probeClient == null && Files.isRegularFile(kubeconfig())) {
            probeClient = tls().httpClient();
        }
        return probeClient;
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log(), StandardCharsets.UTF_8);
            return "--- "
                    + log()
                    + " (last 40 lines) ---\n"
                    + String.join(
                            "\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private Path logOf(int run) {
        return dataDir.resolveSibling(dataDir.getFileName() + "-server-" + run + ".log");
    }

    /** A port nobody listens on at this moment, on loopback. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
