package io.kubepekko.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The production script {@code cluster-config/cassandra/schema.cql} is exactly what the server
 * creates in development (the plugin's own statements for the default keyspace), with the
 * keyspace's replication left as a placeholder. Regenerate it with {@link #script} when the plugin
 * changes.
 */
class CassandraSchemaTest {
    static final Path SCRIPT = Path.of("..", "cluster-config", "cassandra", "schema.cql");
    static final String REPLICATION_PLACEHOLDER = "{{REPLICATION}}";

    private static ActorTestKit kit;

    @BeforeAll
    static void start() {
        // The profile's configuration; no journal starts: statements are built from settings alone.
        Config config =
                new StorageSettings.Cassandra(List.of("127.0.0.1:9042"), "kubepekko").toConfig();
        kit = ActorTestKit.create(ConfigFactory.load(config));
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    static String script(List<String> statements) {
        String header = Files.exists(SCRIPT) ? header() : "";
        return header
                + statements.stream()
                        .map(
                                s ->
                                        s.strip()
                                                .replaceFirst(
                                                        "(?is)WITH REPLICATION = \\{[^}]*}",
                                                        "WITH REPLICATION = "
                                                                + REPLICATION_PLACEHOLDER))
                        .map(s -> s.endsWith(";") ? s : s + ";")
                        .collect(Collectors.joining("\n\n"))
                + "\n";
    }

    private static String header() {
        try {
            String text = Files.readString(SCRIPT);
            int firstStatement = text.indexOf("\nCREATE");
            return firstStatement < 0 ? text : text.substring(0, firstStatement + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theProductionScriptIsWhatDevelopmentCreates() throws Exception {
        List<String> statements = CassandraSchema.statements(kit.system());
        assertTrue(
                statements.get(0).startsWith("CREATE KEYSPACE IF NOT EXISTS kubepekko"),
                statements.get(0));
        assertTrue(
                statements.stream().anyMatch(s -> s.contains("kubepekko.tag_views")),
                statements.toString());
        assertTrue(
                statements.stream().anyMatch(s -> s.contains("kubepekko.snapshots")),
                statements.toString());
        String expected = script(statements);
        if (Boolean.getBoolean("kubepekko.regenerate-schema")) {
            Files.createDirectories(SCRIPT.getParent());
            Files.writeString(SCRIPT, expected);
        }
        assertEquals(
                expected,
                Files.readString(SCRIPT),
                "regenerate with -Dkubepekko.regenerate-schema=true");
        assertEquals(
                1,
                Pattern.compile(Pattern.quote("WITH REPLICATION = " + REPLICATION_PLACEHOLDER))
                        .matcher(expected)
                        .results()
                        .count(),
                "the keyspace's replication is the one placeholder");
    }
}
