package io.kubepekko.persistence.cassandra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A single-node Apache Cassandra for development and tests, run as its own JVM on loopback with
 * every file under one data directory. {@link #start} returns once it accepts CQL clients; {@link
 * #stop} ends it by its process id. Only the JDK is used here, so the launcher runs from the
 * persistence module's classes alone ({@code cluster-config/bin/cassandra}).
 *
 * <p>While it runs, the data directory holds {@value #STATE_FILE} (pid, host, ports), so another
 * process can {@link #attach} to it and stop it.
 *
 * <p>This class runs the node's life (ports, start, readiness, stop); what the process runs as is
 * {@link CassandraCommand}, how it is ended is {@link NodeProcessStop}, and the record it leaves in
 * the data directory is {@link NodeStateFile}.
 */
public final class LocalCassandra implements AutoCloseable {
    /** The log line Cassandra writes once its native transport accepts connections. */
    static final String READY_LINE = "Starting listening for CQL clients";

    static final String STATE_FILE = NodeStateFile.NAME;

    /**
     * How to start one.
     *
     * @param heap {@code -Xms}/{@code -Xmx} of Cassandra's JVM, e.g. {@code 512M}
     * @param startTimeout how long to wait for CQL clients to be accepted before giving up (and
     *     killing it)
     * @param cacheDir where the resolved classpath is remembered
     * @param stopWithThisJvm whether a shutdown hook of this JVM stops it (tests); off for a
     *     detached start
     * @param reusePorts whether to listen on the ports of the data directory's previous run (when
     *     it had one) instead of free ones: clients that know the old CQL port reconnect by
     *     themselves
     * @param ports ports to listen on whatever the previous run used; 0 for one not given
     */
    public record Options(
            String heap,
            Duration startTimeout,
            Path cacheDir,
            boolean stopWithThisJvm,
            boolean reusePorts,
            NodePorts ports) {
        public static Options defaults() {
            return new Options(
                    "512M", Duration.ofSeconds(120), defaultCacheDir(), true, false, NodePorts.ANY);
        }

        public Options detached() {
            return new Options(heap, startTimeout, cacheDir, false, reusePorts, ports);
        }

        public Options withCacheDir(Path dir) {
            return new Options(heap, startTimeout, dir, stopWithThisJvm, reusePorts, ports);
        }

        /**
         * The storage and CQL ports of the data directory's previous run, if any; free ones
         * otherwise. A remembered port that another process holds fails the start ({@link
         * PortInUseException}): a free one instead would leave the clients that know the old one
         * retrying it for good.
         */
        public Options reusingPorts() {
            return new Options(heap, startTimeout, cacheDir, stopWithThisJvm, true, ports);
        }

        /** These ports (0: the remembered or a free one), whatever the previous run used. */
        public Options onPorts(NodePorts given) {
            return new Options(heap, startTimeout, cacheDir, stopWithThisJvm, reusePorts, given);
        }
    }

    /**
     * A port the node must listen on (given, or remembered from its previous run) is held by
     * another process.
     */
    public static final class PortInUseException extends IOException {
        private static final long serialVersionUID = 1L;

        public PortInUseException(String message) {
            super(message);
        }
    }

    private final Path dataDir;
    private final String host;
    private final int cqlPort;
    private final int storagePort;
    private final ProcessHandle process;
    private final Thread shutdownHook;

    /**
     * Held so the pipe to the child's standard input stays open (its end is the child's signal to
     * exit).
     */
    @SuppressWarnings({"unused", "FieldCanBeLocal"})
    private final Process child;

    private LocalCassandra(
            Path dataDir,
            String host,
            int cqlPort,
            int storagePort,
            ProcessHandle process,
            Thread shutdownHook,
            Process child) {
        this.dataDir = dataDir;
        this.host = host;
        this.cqlPort = cqlPort;
        this.storagePort = storagePort;
        this.process = process;
        this.shutdownHook = shutdownHook;
        this.child = child;
    }

    /** Starts a node with the default options and waits until it accepts CQL clients. */
    public static LocalCassandra start(Path dataDir)
            throws IOException, InterruptedException, TimeoutException {
        return start(dataDir, Options.defaults());
    }

    /**
     * Starts a node keeping its files under {@code dataDir} (data from an earlier run is kept) and
     * waits until it accepts CQL clients. Refuses a data directory whose node still runs.
     */
    public static LocalCassandra start(Path dataDir, Options options)
            throws IOException, InterruptedException, TimeoutException {
        Path dir = dataDir.toAbsolutePath().normalize();
        Optional<LocalCassandra> running = attach(dir);
        if (running.isPresent()) {
            throw new IllegalStateException(
                    "a local Cassandra already runs on "
                            + dir
                            + " (pid "
                            + running.get().pid()
                            + ", CQL port "
                            + running.get().cqlPort()
                            + ")");
        }
        String host = "127.0.0.1";
        NodePorts wanted =
                NodePorts.choose(
                        options.ports(), CassandraNodeFiles.ports(dir), options.reusePorts());
        int storagePort =
                wanted.storage() != 0
                        ? requireFree(host, wanted.storage(), "storage", options, dir)
                        : freePort(host);
        int cqlPort =
                wanted.cql() != 0
                        ? requireFree(host, wanted.cql(), "CQL", options, dir)
                        : freePort(host);
        String classpath =
                CassandraClasspath.resolve(
                        options.cacheDir(), options.startTimeout().toSeconds() + 600);
        CassandraNodeFiles.write(dir, host, storagePort, cqlPort);
        Path log = dir.resolve("logs").resolve("cassandra.out");
        Files.createDirectories(log.getParent());

        Process child =
                CassandraCommand.builder(
                                dir, log, options.heap(), classpath, options.stopWithThisJvm())
                        .start();
        Thread hook = null;
        if (options.stopWithThisJvm()) {
            // A graceful exit of this JVM also stops it, and waits for it to be gone.
            hook = new Thread(() -> NodeProcessStop.kill(child.toHandle()), "local-cassandra-stop");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        LocalCassandra node =
                new LocalCassandra(dir, host, cqlPort, storagePort, child.toHandle(), hook, child);
        try {
            awaitReady(child, log, options.startTimeout());
            node.writeState();
            return node;
        } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
            node.stop();
            throw e;
        }
    }

    /** The node recorded in {@code dataDir}, if its process still runs. */
    public static Optional<LocalCassandra> attach(Path dataDir) throws IOException {
        Path dir = dataDir.toAbsolutePath().normalize();
        return NodeStateFile.read(dir)
                .map(
                        node ->
                                new LocalCassandra(
                                        dir,
                                        node.host(),
                                        node.cqlPort(),
                                        node.storagePort(),
                                        node.process(),
                                        null,
                                        null));
    }

    public String host() {
        return host;
    }

    public int cqlPort() {
        return cqlPort;
    }

    public int storagePort() {
        return storagePort;
    }

    public long pid() {
        return process.pid();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** {@code host:port} of the CQL listener, as a contact point. */
    public String contactPoint() {
        return host + ":" + cqlPort;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Blocks until the node's process has exited, however it ends. */
    public void awaitExit() throws InterruptedException {
        try {
            process.onExit().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stops the node: SIGTERM (Cassandra drains and flushes), then a forced kill if it has not
     * exited within a minute. Returns once the process is gone.
     */
    public void stop() {
        NodeProcessStop.kill(process);
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook runs anyway; the process is already gone
            }
        }
        try {
            NodeStateFile.delete(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** Waits for the ready line in the log, failing early with the log's end if the JVM exits. */
    private static void awaitReady(Process child, Path log, Duration timeout)
            throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            if (text.contains(READY_LINE)) {
                return;
            }
            if (!child.isAlive()) {
                throw new IOException(
                        "local Cassandra exited with code "
                                + child.exitValue()
                                + " before accepting CQL clients; its log ends:\n"
                                + tail(text));
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(
                        "local Cassandra did not accept CQL clients within "
                                + timeout
                                + "; its log ends:\n"
                                + tail(text));
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            // Polls a file another process writes: nothing to be notified by.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private static String tail(String text) {
        String[] lines = text.split("\n");
        return String.join(
                "\n", Arrays.asList(lines).subList(Math.max(0, lines.length - 30), lines.length));
    }

    private void writeState() throws IOException {
        NodeStateFile.write(
                dataDir, new NodeStateFile.Recorded(host, cqlPort, storagePort, process));
    }

    /**
     * {@code port}, if nothing listens on it; else fails naming it. Binds as Cassandra will
     * (address reuse on): connections its previous run left in TIME_WAIT do not count.
     */
    private static int requireFree(String host, int port, String name, Options options, Path dir)
            throws PortInUseException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(host, port));
            return port;
        } catch (IOException e) {
            boolean given =
                    name.equals("CQL")
                            ? options.ports().cql() != 0
                            : options.ports().storage() != 0;
            throw new PortInUseException(
                    name
                            + " port "
                            + port
                            + " is in use by another process; the local Cassandra"
                            + " on "
                            + dir
                            + " must listen there ("
                            + (given
                                    ? "as asked"
                                    : "as in its previous run: its clients look for it there")
                            + ")");
        }
    }

    private static int freePort(String host) throws IOException {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(host, 0));
            return socket.getLocalPort();
        }
    }

    /**
     * {@code .cache/cassandra} of the repository: from {@code -Dkubepekko.cassandra.cache} when set
     * (the build and scripts set it), else under the nearest ancestor of the working directory that
     * holds {@code .git}, else under the user's home.
     */
    static Path defaultCacheDir() {
        String configured = System.getProperty("kubepekko.cassandra.cache");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git"))) {
                return p.resolve(".cache").resolve("cassandra");
            }
        }
        return Path.of(System.getProperty("user.home"), ".cache", "kubepekko", "cassandra");
    }

    /**
     * {@code start|stop|status [--data-dir D]}: start runs a detached node and prints its CQL port;
     * stop ends the node of the data directory; status prints the port of a running node or exits
     * 1.
     */
    public static void main(String[] args) throws Exception {
        System.exit(LocalCassandraCli.run(args, System.out, System.err));
    }
}
