package io.kubepekko.persistence.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LocalCassandraIT {

    @TempDir
    Path dir;

    @Test
    void startsAnsweringCqlAndStopsLeavingNoProcessNorListener() throws Exception {
        LocalCassandra node = LocalCassandra.start(dir);
        try {
            assertEquals("127.0.0.1", node.host());
            assertTrue(Files.isRegularFile(dir.resolve(LocalCassandra.STATE_FILE)), "state file written");
            assertEquals(node.pid(), LocalCassandra.attach(dir).orElseThrow().pid(), "another process finds it");
            try (CqlSession session = CqlSession.builder()
                    .addContactPoint(new InetSocketAddress(node.host(), node.cqlPort()))
                    .withLocalDatacenter("datacenter1")
                    .build()) {
                String version = session.execute("SELECT release_version FROM system.local").one().getString(0);
                assertTrue(version.startsWith("5.0."), version);
            }
            assertThrows(IllegalStateException.class, () -> LocalCassandra.start(dir),
                    "a second node on the same data directory is refused");
        } finally {
            node.stop();
        }
        assertFalse(ProcessHandle.of(node.pid()).map(ProcessHandle::isAlive).orElse(false), "process gone");
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
}
