package io.kubepekko.persistence.cassandra;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line a local Cassandra runs as: the JDK running this JVM, the heap, the JPMS flags
 * Cassandra 5.0 needs on Java 17, its files (see {@link CassandraNodeFiles}) and the start-up
 * shortcuts a lone development node may take; then Cassandra's main class (a detached node) or
 * {@link ParentWatch} in front of it (a node tied to this JVM). Kept apart from {@link
 * LocalCassandra}, which runs and stops the process, so what the process is reads in one place.
 */
final class CassandraCommand {
    private CassandraCommand() {}

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
     * A process builder for the node of {@code dir}, its output to {@code log}.
     *
     * @param tiedToThisJvm whether the node exits with this JVM (through a pipe on its standard
     *     input, see {@link ParentWatch}); otherwise it reads nothing and outlives this JVM
     */
    static ProcessBuilder builder(
            Path dir, Path log, String heap, String classpath, boolean tiedToThisJvm) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + heap);
        command.add("-Xmx" + heap);
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.addAll(JAVA17_FLAGS);
        command.add("-Dcassandra.config=" + CassandraNodeFiles.yaml(dir).toUri());
        command.add("-Dcassandra-foreground=yes");
        command.add("-Dlogback.configurationFile=" + CassandraNodeFiles.logback(dir).toUri());
        command.add("-Dcassandra.logdir=" + log.getParent());
        // A lone seed has no peers to wait for: skip the gossip settling pause (about 5 s of
        // start-up), and it has none to tell that it shuts down (a 2 s pause of every stop).
        command.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
        command.add("-Dcassandra.shutdown_announce_in_ms=0");
        // Each schema change (CREATE KEYSPACE/TABLE) otherwise flushes every system_schema table to
        // new sstables and waits for it: ~1.9 s per table on a shared 2-core machine, ~18 s for a
        // server's fresh keyspace, paid by every test class that starts one. The change is in the
        // commit log either way (a killed process loses nothing the OS has; a drain at stop
        // flushes); the flush only spares a replay.
        command.add("-Dcassandra.test.flush_local_schema_changes=false");
        // At start Cassandra estimates a memtable row's heap overhead by filling a throw-away
        // memtable with 100,000 rows: 1-5 s of every start on a shared 2-core machine, and a test
        // run starts Cassandra a dozen times (restarts included). An estimate from 100 rows, as
        // Cassandra's own test suite takes, serves a node holding test data as well: it only
        // weighs memtables against their flush threshold.
        command.add("-Dcassandra.memtable_row_overhead_computation_step=100");
        command.add("-cp");
        if (tiedToThisJvm) {
            command.add(classpath + File.pathSeparator + launcherLocation());
            command.add(ParentWatch.class.getName());
        } else {
            command.add(classpath);
            command.add(MAIN_CLASS);
        }
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        if (!tiedToThisJvm) {
            builder.redirectInput(ProcessBuilder.Redirect.from(devNull()));
        }
        return builder;
    }

    /**
     * The directory or jar this class was loaded from: it holds ParentWatch for the child's
     * classpath.
     */
    private static String launcherLocation() {
        try {
            return Path.of(
                            CassandraCommand.class
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
}
