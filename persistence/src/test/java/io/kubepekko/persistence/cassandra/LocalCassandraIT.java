package io.kubepekko.persistence.cassandra;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCassandraIT {

    @TempDir Path dir;

    @Test
    void startsAnsweringCqlAndStopsLeavingNoProcessNorListener() throws Exception {
        LocalCassandra node = LocalCassandra.start(dir);
        try {
            assertEquals("127.0.0.1", node.host());
            assertTrue(
                    Files.isRegularFile(dir.resolve(LocalCassandra.STATE_FILE)),
                    "state file written");
            assertEquals(
                    node.pid(),
                    LocalCassandra.attach(dir).orElseThrow().pid(),
                    "another process finds it");
            try (CqlSession session =
                    CqlSession.builder()
                            .addContactPoint(new InetSocketAddress(node.host(), node.cqlPort()))
                            .withLocalDatacenter("datacenter1")
                            .build()) {
                String version =
                        session.execute("SELECT release_version FROM system.local")
                                .one()
                                .getString(0);
                assertTrue(version.startsWith("5.0."), version);
            }
            assertThrows(
                    IllegalStateException.class,
                    () -> LocalCassandra.start(dir),
                    "a second node on the same data directory is refused");
        } finally {
            node.stop();
        }
        assertFalse(
                ProcessHandle.of(node.pid()).map(ProcessHandle::isAlive).orElse(false),
                "process gone");
        assertFalse(Files.exists(dir.resolve(LocalCassandra.STATE_FILE)), "state file removed");
        assertTrue(LocalCassandra.attach(dir).isEmpty());
        // The listener goes with the process; a connect must be refused, not merely slow.
        await().atMost(Duration.ofSeconds(10)).until(() -> !accepts(node.host(), node.cqlPort()));
    }

    private static boolean accepts(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A Cassandra started by a JVM that is then killed with SIGKILL (no shutdown hook runs) still
     * ends.
     */
    @Test
    void endsWhenTheJvmThatStartedItIsKilled(@TempDir Path data) throws Exception {
        String launcherClasses =
                Path.of(
                                LocalCassandra.class
                                        .getProtectionDomain()
                                        .getCodeSource()
                                        .getLocation()
                                        .toURI())
                        .toString();
        Process launcher =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Dkubepekko.cassandra.cache=" + LocalCassandra.defaultCacheDir(),
                                "-cp",
                                launcherClasses,
                                LocalCassandra.class.getName(),
                                "run",
                                "--data-dir",
                                data.toString())
                        .redirectError(data.resolve("launcher.err").toFile())
                        .start();
        Optional<LocalCassandra> node = Optional.empty();
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(
                                    launcher.getInputStream(), StandardCharsets.UTF_8));
            String port =
                    CompletableFuture.supplyAsync(
                                    () -> {
                                        try {
                                            return out.readLine();
                                        } catch (IOException e) {
                                            throw new UncheckedIOException(e);
                                        }
                                    })
                            .get(180, TimeUnit.SECONDS);
            assertTrue(
                    port != null && port.matches("[0-9]+"),
                    "the launcher printed its CQL port: "
                            + port
                            + " "
                            + Files.readString(data.resolve("launcher.err")));
            node = LocalCassandra.attach(data);
            ProcessHandle cassandra = ProcessHandle.of(node.orElseThrow().pid()).orElseThrow();

            launcher.destroyForcibly().waitFor();

            cassandra.onExit().get(90, TimeUnit.SECONDS);
            assertFalse(cassandra.isAlive());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !accepts("127.0.0.1", Integer.parseInt(port)));
        } finally {
            launcher.destroyForcibly();
            if (node.isPresent() && node.get().isAlive()) {
                node.get().stop();
            }
        }
    }
}
