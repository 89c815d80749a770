package io.kubepekko.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Our API server as a separate process, started through {@code cluster-config/bin/apiserver
 * --data-dir <tmp> --secure-port 0 --bind-address 127.0.0.1}. Its address comes from the log line
 * {@code listening on https://127.0.0.1:<port>}, or from {@code server:} in {@code
 * <data-dir>/admin.kubeconfig}, whichever shows first; it is ready when {@code /readyz} answers
 * 200. The server serves only HTTPS: {@link #endpoint()} talks to it as the admin kubeconfig does
 * (its CA, its {@code system:masters} client certificate).
 *
 * <p>For a restart on the same data (a warm start), start it on a data directory and fixed port of
 * the caller's choosing, {@link #stop(Duration)} it (the data stays), and start it again with the
 * same two. {@link #close()} always deletes the data directory.
 */
final class ServerProcess implements AutoCloseable {

    private static final Pattern LISTENING =
            Pattern.compile("listening on (https?://[^\\s/]+:\\d+)");
    private static final Pattern KUBECONFIG_SERVER = Pattern.compile("(?m)^\\s*server:\\s*(\\S+)");
    private static final int LOG_TAIL_LINES = 40;
    private static final long KUBECONFIG_POLL_MILLIS = 20;

    private final Process process;
    private final Path dataDir;
    private final Deque<String> logTail = new ArrayDeque<>();
    private final CompletableFuture<URI> announced = new CompletableFuture<>();
    private volatile boolean ready;

    /** When the launch script exec'd java, by System.nanoTime(); 0 until seen. */
    private volatile long jvmStartNanos;

    private volatile boolean rebuilt;
    private volatile Path logFile;
    private Endpoint endpoint;

    private ServerProcess(Process process, Path dataDir) {
        this.process = process;
        this.dataDir = dataDir;
    }

    static ServerProcess start(Path script, Duration timeout)
            throws IOException, InterruptedException {
        return start(script, Files.createTempDirectory("bench-apiserver-"), 0, timeout);
    }

    /** {@link #start(Path, Duration)} with more of the server's flags. */
    static ServerProcess start(Path script, List<String> flags, Duration timeout)
            throws IOException, InterruptedException {
        return start(script, Files.createTempDirectory("bench-apiserver-"), 0, flags, timeout);
    }

    /**
     * Starts the server on {@code dataDir}. With a fixed {@code port} (not 0) the address is known
     * up front, so readiness is polled on {@code /readyz} from the start instead of waiting for the
     * log line, which the server prints only once it is ready; a warm start is timed by the former.
     */
    static ServerProcess start(Path script, Path dataDir, int port, Duration timeout)
            throws IOException, InterruptedException {
        return start(script, dataDir, port, List.of(), timeout);
    }

    /**
     * {@link #start(Path, Path, int, Duration)} with more of the server's flags, e.g. the storage
     * or cluster ones.
     */
    static ServerProcess start(
            Path script, Path dataDir, int port, List<String> flags, Duration timeout)
            throws IOException, InterruptedException {
        return start(script, dataDir, port, flags, timeout, null);
    }

    /**
     * {@link #start(Path, Path, int, List, Duration)} that also appends every line the server logs
     * to {@code logFile} (when not null), for a look at what happened afterwards.
     */
    static ServerProcess start(
            Path script, Path dataDir, int port, List<String> flags, Duration timeout, Path logFile)
            throws IOException, InterruptedException {
        return start(script, dataDir, port, flags, timeout, logFile, Map.of());
    }

    /**
     * {@link #start(Path, Path, int, List, Duration, Path)} with environment variables set for the
     * server on top of the bench's own (e.g. {@code KUBEPEKKO_JAVA_OPTS}).
     */
    static ServerProcess start(
            Path script,
            Path dataDir,
            int port,
            List<String> flags,
            Duration timeout,
            Path logFile,
            Map<String, String> env)
            throws IOException, InterruptedException {
        if (!Files.isExecutable(script)) {
            throw new IOException(
                    script
                            + " is missing or not executable; use --server-url to target"
                            + " a running server");
        }
        List<String> command =
                new ArrayList<>(
                        List.of(
                                script.toString(),
                                "--data-dir",
                                dataDir.toString(),
                                "--secure-port",
                                Integer.toString(port),
                                // loopback only: the default, 0.0.0.0, would open the machine
                                "--bind-address",
                                "127.0.0.1"));
        command.addAll(flags);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        ServerProcess server = new ServerProcess(process, dataDir);
        server.logFile = logFile;
        Thread reader = new Thread(server::readLog, "apiserver-log");
        reader.setDaemon(true);
        reader.start();
        Thread exec = new Thread(server::awaitJvm, "apiserver-exec");
        exec.setDaemon(true);
        exec.start();
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            URI url =
                    port > 0
                            ? URI.create("https://127.0.0.1:" + port)
                            : server.awaitAddress(deadline);
            server.endpoint = server.awaitKubeconfig(deadline).at(url);
            Processes.awaitHttp(
                    server.endpoint,
                    "/readyz",
                    r -> r.status() == 200,
                    process,
                    Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            server.ready = true;
            System.err.println("apiserver ready at " + url);
            return server;
        } catch (IOException | RuntimeException e) {
            server.printLogTail();
            server.close();
            throw e;
        }
    }

    /** The server's process (the launch script, which becomes the JVM). */
    Process process() {
        return process;
    }

    /** The JVM's process id: the launch script {@code exec}s java, so it is the child's own. */
    long pid() {
        return process.pid();
    }

    /**
     * When the JVM started, as {@link System#nanoTime()}, or 0 if that could not be seen. The
     * launch script may build the project before it execs java (it does whenever any source, the
     * bench's included, is newer than its last build), so a start timed from the process's start
     * would time Maven too; this is the server's own start.
     */
    long jvmStartNanos() {
        return jvmStartNanos;
    }

    /** Whether the launch script built the project before starting the server. */
    boolean rebuilt() {
        return rebuilt;
    }

    /**
     * Watches for the script's {@code exec java}: the process keeps its pid, and its executable
     * ({@code /proc/<pid>/exe}, Linux) turns from bash into java. Polled every 2 ms.
     */
    private void awaitJvm() {
        Path exe = Path.of("/proc", Long.toString(process.pid()), "exe");
        try {
            while (process.isAlive() && !ready) {
                try {
                    if (Files.readSymbolicLink(exe).getFileName().toString().equals("java")) {
                        jvmStartNanos = System.nanoTime();
                        return;
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // not readable (yet, or not Linux): try again, or give up when the server is
                    // ready
                }
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the server politely (SIGTERM, which runs its shutdown hook) and waits for it to exit,
     * keeping the data directory for a restart. Returns the exit code (143 after a clean SIGTERM).
     */
    int stop(Duration grace) throws InterruptedException {
        Processes.killTree(process, grace);
        return process.waitFor(5, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    URI url() {
        return endpoint.base();
    }

    /** The server as its admin kubeconfig reaches it: its CA, the admin's client certificate. */
    Endpoint endpoint() {
        return endpoint;
    }

    /** Where the server keeps its data and its PKI ({@code pki/}). */
    Path dataDir() {
        return dataDir;
    }

    /**
     * The admin kubeconfig the server writes into its data directory (for a client process such as
     * the agent).
     */
    Path kubeconfig() {
        return dataDir.resolve("admin.kubeconfig");
    }

    /** Echoes the start-up output (it may include a build) and keeps a tail for failure reports. */
    private void readLog() {
        try (BufferedReader lines =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            Writer log =
                    logFile == null
                            ? Writer.nullWriter()
                            : Files.newBufferedWriter(
                                    logFile,
                                    StandardCharsets.UTF_8,
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.APPEND);
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                log.write(line + "\n");
                log.flush();
                if (!ready) {
                    System.err.println("[apiserver] " + line);
                    if (line.contains("building kubepekko")) {
                        rebuilt = true;
                    }
                }
                synchronized (logTail) {
                    logTail.addLast(line);
                    if (logTail.size() > LOG_TAIL_LINES) {
                        logTail.removeFirst();
                    }
                }
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    announced.complete(URI.create(m.group(1)));
                }
            }
        } catch (IOException e) {
            // the stream closes when the process ends; nothing more to read
        }
    }

    private URI awaitAddress(long deadline) throws IOException, InterruptedException {
        Path kubeconfig = dataDir.resolve("admin.kubeconfig");
        while (System.nanoTime() < deadline) {
            try {
                return announced.get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                Optional<URI> fromFile = serverIn(kubeconfig);
                if (fromFile.isPresent()) {
                    return fromFile.get();
                }
                if (!process.isAlive()) {
                    throw new IOException(
                            "apiserver exited with code "
                                    + process.exitValue()
                                    + " before announcing its address");
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new IOException("apiserver did not announce its address in time");
    }

    /**
     * The admin kubeconfig's server, CA and client certificate, once the server has written it
     * (before {@code /readyz} can answer 200; on a restart it is there from the last run, with the
     * same CAs).
     */
    private Endpoint awaitKubeconfig(long deadline) throws IOException, InterruptedException {
        Path kubeconfig = kubeconfig();
        while (true) {
            if (Files.exists(kubeconfig)) {
                return ClientTls.kubeconfig(kubeconfig);
            }
            if (!process.isAlive()) {
                throw new IOException(
                        "apiserver exited with code "
                                + process.exitValue()
                                + " before writing "
                                + kubeconfig);
            }
            if (System.nanoTime() >= deadline) {
                throw new IOException("apiserver did not write " + kubeconfig + " in time");
            }
            process.waitFor(KUBECONFIG_POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private static Optional<URI> serverIn(Path kubeconfig) {
        try {
            if (!Files.exists(kubeconfig)) {
                return Optional.empty();
            }
            Matcher m = KUBECONFIG_SERVER.matcher(Files.readString(kubeconfig));
            return m.find()
                    ? Optional.of(URI.create(m.group(1).replace("\"", "")))
                    : Optional.empty();
        } catch (IOException | UncheckedIOException e) {
            // being written right now; try again on the next poll
            return Optional.empty();
        }
    }

    private void printLogTail() {
        System.err.println("--- apiserver output (last lines) ---");
        synchronized (logTail) {
            logTail.forEach(System.err::println);
        }
    }

    @Override
    public void close() {
        Processes.killTree(process, Duration.ofSeconds(15));
        Processes.deleteTree(dataDir);
    }
}
