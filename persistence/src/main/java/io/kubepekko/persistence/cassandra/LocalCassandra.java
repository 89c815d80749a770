package io.kubepekko.persistence.cassandra;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
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
 */
public final class LocalCassandra implements AutoCloseable {
    /** The log line Cassandra writes once its native transport accepts connections. */
    static final String READY_LINE = "Starting listening for CQL clients";

    static final String STATE_FILE = "local-cassandra.properties";
    static final String MAIN_CLASS = "org.apache.cassandra.service.CassandraDaemon";

    /**
     * The JPMS flags of Cassandra 5.0's {@code jvm17-server.options}: without them it dies at start
     * on Java 17 (it reaches into JDK internals for off-heap memory, file channels and jamm).
     */
    static final List<String> JAVA17_FLAGS =
            List.of(
                    "-Djdk.attach.allowAttachSelf=true",
                    "--add-exports",
                    "java.base/jdk.internal.misc=ALL-UNNAMED",
                    "--add-exports",
                    "java.base/jdk.internal.ref=ALL-UNNAMED",
                    "--add-exports",
                    "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
                    "--add-exports",
                    "java.rmi/sun.rmi.registry=ALL-UNNAMED",
                    "--add-exports",
                    "java.rmi/sun.rmi.server=ALL-UNNAMED",
                    "--add-exports",
                    "java.sql/java.sql=ALL-UNNAMED",
                    "--add-exports",
                    "java.base/java.lang.ref=ALL-UNNAMED",
                    "--add-exports",
                    "jdk.unsupported/sun.misc=ALL-UNNAMED",
                    "--add-exports",
                    "jdk.attach/sun.tools.attach=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/java.lang.module=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.loader=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.ref=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.reflect=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.math=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.module=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/jdk.internal.util.jar=ALL-UNNAMED",
                    "--add-opens",
                    "jdk.management/com.sun.management.internal=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/sun.nio.ch=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/java.io=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/java.lang.reflect=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/java.lang=ALL-UNNAMED",
                    "--add-opens",
                    "java.base/java.util=ALL-UNNAMED",
                    "-Dio.netty.tryReflectionSetAccessible=true");

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

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + options.heap());
        command.add("-Xmx" + options.heap());
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.addAll(JAVA17_FLAGS);
        command.add("-Dcassandra.config=" + CassandraNodeFiles.yaml(dir).toUri());
        command.add("-Dcassandra-foreground=yes");
        command.add("-Dlogback.configurationFile=" + CassandraNodeFiles.logback(dir).toUri());
        command.add("-Dcassandra.logdir=" + log.getParent());
        // A lone seed has no peers to wait for: skip the gossip settling pause (about 5 s of
        // start-up), and
        // it has none to tell that it shuts down (a 2 s pause of every stop).
        command.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
        command.add("-Dcassandra.shutdown_announce_in_ms=0");
        // Each schema change (CREATE KEYSPACE/TABLE) otherwise flushes every system_schema table to
        // new
        // sstables and waits for it: ~1.9 s per table on a shared 2-core machine, ~18 s for a
        // server's fresh
        // keyspace, paid by every test class that starts one. The change is in the commit log
        // either way (a
        // killed process loses nothing the OS has; a drain at stop flushes); the flush only spares
        // a replay.
        command.add("-Dcassandra.test.flush_local_schema_changes=false");
        command.add("-cp");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        if (options.stopWithThisJvm()) {
            // Tied to this JVM through a pipe on its standard input (see ParentWatch).
            command.add(classpath + File.pathSeparator + launcherLocation());
            command.add(ParentWatch.class.getName());
        } else {
            command.add(classpath);
            command.add(MAIN_CLASS);
            builder.redirectInput(ProcessBuilder.Redirect.from(devNull()));
        }
        Process child = builder.start();
        Thread hook = null;
        if (options.stopWithThisJvm()) {
            // A graceful exit of this JVM also stops it, and waits for it to be gone.
            hook = new Thread(() -> kill(child.toHandle()), "local-cassandra-stop");
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
        Path state = dir.resolve(STATE_FILE);
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            p.load(in);
        }
        Optional<ProcessHandle> handle =
                ProcessHandle.of(Long.parseLong(p.getProperty("pid")))
                        .filter(ProcessHandle::isAlive)
                        .filter(h -> sameStart(h, p.getProperty("started", "")));
        if (handle.isEmpty()) {
            Files.deleteIfExists(state); // left behind by a node that died or was killed
            return Optional.empty();
        }
        return Optional.of(
                new LocalCassandra(
                        dir,
                        p.getProperty("host"),
                        Integer.parseInt(p.getProperty("cqlPort")),
                        Integer.parseInt(p.getProperty("storagePort")),
                        handle.get(),
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
        kill(process);
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook runs anyway; the process is already gone
            }
        }
        try {
            Files.deleteIfExists(dataDir.resolve(STATE_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static void kill(ProcessHandle process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(process, Duration.ofSeconds(60))) {
            process.destroyForcibly();
            if (!awaitExit(process, Duration.ofSeconds(30))) {
                throw new IllegalStateException(
                        "local Cassandra (pid " + process.pid() + ") did not exit");
            }
        }
    }

    private static boolean awaitExit(ProcessHandle process, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        CompletableFuture<ProcessHandle> exit = process.onExit();
        while (true) {
            try {
                exit.get(100, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                if (zombie(process.pid()) && !childOfThisJvm(process)) {
                    return true; // a child of this JVM is reaped by the JDK at once, and onExit
                    // completes
                }
                if (System.nanoTime() > deadline) {
                    return false;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !process.isAlive();
            } catch (ExecutionException e) {
                return !process.isAlive();
            }
        }
    }

    private static boolean childOfThisJvm(ProcessHandle process) {
        return process.parent().map(p -> p.pid() == ProcessHandle.current().pid()).orElse(false);
    }

    /**
     * Whether the process has exited but is not reaped yet: a detached node's parent is pid 1,
     * which may take seconds to reap it, and the JDK counts it alive until then. Linux only;
     * elsewhere false.
     */
    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // "pid (command) state ...": the command may hold spaces and parentheses.
            int end = stat.lastIndexOf(')');
            return end > 0 && stat.length() > end + 2 && stat.charAt(end + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
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
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(pid()));
        p.setProperty("host", host);
        p.setProperty("cqlPort", Integer.toString(cqlPort));
        p.setProperty("storagePort", Integer.toString(storagePort));
        process.info().startInstant().ifPresent(at -> p.setProperty("started", at.toString()));
        Path partial = dataDir.resolve(STATE_FILE + ".part");
        try (OutputStream out = Files.newOutputStream(partial)) {
            p.store(
                    out,
                    "a running local Cassandra (written by "
                            + LocalCassandra.class.getName()
                            + ")");
        }
        Files.move(
                partial,
                dataDir.resolve(STATE_FILE),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Guards against a recycled pid: only the process that started when the recorded one did is
     * ours to stop (the command line cannot tell: the OS cuts it off long before the main class).
     */
    private static boolean sameStart(ProcessHandle handle, String recorded) {
        return handle.info()
                .startInstant()
                .map(Object::toString)
                .map(recorded::equals)
                .orElse(true);
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
     * The directory or jar this class was loaded from: it holds ParentWatch for the child's
     * classpath.
     */
    private static String launcherLocation() {
        try {
            return Path.of(
                            LocalCassandra.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static File devNull() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
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
