package io.kubepekko.persistence.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster-config/bin/cassandra}'s arguments, and the failures that come before any Cassandra
 * starts.
 */
class LocalCassandraCliTest {

    @TempDir Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return LocalCassandraCli.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aStartWhoseRememberedCqlPortAnotherProcessHoldsFailsWithOneLineNamingIt()
            throws Exception {
        try (ServerSocket other = new ServerSocket()) {
            other.bind(new InetSocketAddress("127.0.0.1", 0));
            int taken = other.getLocalPort();
            // The neighbouring port may belong to anyone (CI failed on that once): take one the
            // system just freed.
            int storage = freePort();
            CassandraNodeFiles.write(dir, "127.0.0.1", storage, taken);
            String before = Files.readString(CassandraNodeFiles.yaml(dir));

            assertEquals(1, run("start", "--data-dir", dir.toString()));

            List<String> lines = err().lines().toList();
            assertEquals(1, lines.size(), err());
            assertTrue(
                    lines.get(0)
                            .startsWith(
                                    "cassandra: CQL port "
                                            + taken
                                            + " is in use by another process"),
                    err());
            assertTrue(lines.get(0).contains("previous run"), err());
            assertEquals("", out.toString(StandardCharsets.UTF_8), "no port printed");
            assertEquals(
                    before,
                    Files.readString(CassandraNodeFiles.yaml(dir)),
                    "the remembered ports are kept");
            assertFalse(Files.exists(dir.resolve(LocalCassandra.STATE_FILE)), "nothing started");
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.0.1", 0));
            return probe.getLocalPort();
        }
    }

    @Test
    void aGivenPortAnotherProcessHoldsFailsTheSameWay() throws Exception {
        try (ServerSocket other = new ServerSocket()) {
            other.bind(new InetSocketAddress("127.0.0.1", 0));
            int taken = other.getLocalPort();

            assertEquals(
                    1, run("run", "--data-dir=" + dir, "--storage-port", Integer.toString(taken)));

            assertEquals(1, err().lines().count(), err());
            assertTrue(
                    err().startsWith(
                                    "cassandra: storage port "
                                            + taken
                                            + " is in use by another process"),
                    err());
            assertTrue(err().contains("as asked"), err());
        }
    }

    @Test
    void portFlagsAreCheckedAsUsageErrors() throws Exception {
        assertEquals(2, run("start", "--cql-port", "nine"));
        assertTrue(err().contains("--cql-port must be a port number (1-65535): nine"), err());
        assertEquals(2, run("start", "--storage-port=70000"));
        assertEquals(2, run("start", "--cql-port", "9042", "--storage-port", "9042"));
        assertEquals(2, run("start", "--cql-port"));
        assertTrue(err().contains("--cql-port needs a value"), err());
        assertEquals(2, run("stop", "--cql-port", "9042"));
        assertTrue(err().contains("are for start and run"), err());
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--cql-port P"));
    }
}
