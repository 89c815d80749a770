package io.kubepekko.http;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * The switch that runs the HTTP ITs on the cassandra profile: {@code
 * -Dkubepekko.it.storage=cassandra}. Servers then get a fresh keyspace each, on the Cassandra at
 * {@code -Dkubepekko.it.cassandra.contact-points} or, without it, on one local Cassandra started
 * for the whole test JVM (stopped when it exits).
 */
final class TestCassandra {
    private TestCassandra() {}

    private static LocalCassandra shared;

    static boolean requested() {
        return "cassandra".equals(System.getProperty("kubepekko.it.storage"));
    }

    /** The cassandra profile on a keyspace no other server uses. */
    static StorageFlags freshKeyspace() throws Exception {
        return StorageFlags.cassandra(contactPoints(), keyspace());
    }

    /** A keyspace name no other test uses. */
    static String keyspace() {
        return "it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    private static List<String> contactPoints() throws Exception {
        String configured = System.getProperty("kubepekko.it.cassandra.contact-points", "");
        if (!configured.isBlank()) {
            return Arrays.asList(configured.split(","));
        }
        return List.of(local().contactPoint());
    }

    /**
     * Creates {@code keyspace} and its tables as production does, with {@code
     * cluster-config/cassandra/schema.cql} (its keyspace renamed, {@code replication} filled in:
     * e.g. {@code {'class': 'SimpleStrategy', 'replication_factor': 1}}), for servers running with
     * schema creation off.
     */
    static void applySchemaScript(LocalCassandra cassandra, String keyspace, String replication)
            throws Exception {
        String script =
                Files.readString(Path.of("..", "cluster-config", "cassandra", "schema.cql"))
                        .replaceAll("(?m)^--.*$", "")
                        .replace("{{REPLICATION}}", replication)
                        .replaceAll("\\bkubepekko\\b", keyspace);
        // Each statement completes once the driver has refreshed its schema metadata, which it
        // holds back for
        // this window (1 s by default, for bursts of other clients' changes): the servers' own
        // setting.
        DriverConfigLoader config =
                DriverConfigLoader.programmaticBuilder()
                        .withDuration(
                                DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ofMillis(100))
                        .build();
        try (CqlSession session =
                CqlSession.builder()
                        .addContactPoint(
                                new InetSocketAddress(cassandra.host(), cassandra.cqlPort()))
                        .withLocalDatacenter("datacenter1")
                        .withConfigLoader(config)
                        .build()) {
            for (String statement : script.split(";")) {
                if (!statement.isBlank()) {
                    session.execute(
                            SimpleStatement.newInstance(statement)
                                    .setTimeout(Duration.ofSeconds(30)));
                }
            }
        }
    }

    /**
     * The local Cassandra of this test JVM, started on first use and shared by every test that
     * needs one (each uses keyspaces of its own): one ~1 GB JVM and one 7 s start instead of one
     * per test class.
     */
    static synchronized LocalCassandra local() throws Exception {
        if (shared == null || !shared.isAlive()) {
            Path dir = Files.createTempDirectory("kubepekko-it-cassandra-");
            shared = LocalCassandra.start(dir); // its shutdown hook stops it with this JVM
        }
        return shared;
    }
}
