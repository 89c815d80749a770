package io.kubepekko.persistence;

import com.typesafe.config.Config;
import io.kubepekko.api.status.Failures;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.connectors.cassandra.javadsl.CassandraSession;
import org.apache.pekko.stream.connectors.cassandra.javadsl.CassandraSessionRegistry;

/**
 * Checks that the journal's database answers. Blocking: call it from a thread meant for blocking
 * work, never from a Pekko dispatcher.
 */
public interface StorageProbe {

    /** Empty when storage answered, otherwise the reason it did not. */
    Optional<String> check();

    /** A probe of the embedded H2 database that the jdbc plugins use. */
    static StorageProbe embedded(Config config) {
        String url = config.getString("kubepekko.storage.embedded.url");
        return () -> {
            try (Connection c = DriverManager.getConnection(url, "sa", "")) {
                return c.isValid(2)
                        ? Optional.empty()
                        : Optional.of("database connection is not valid");
            } catch (Exception e) {
                return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        };
    }

    /**
     * A probe of the cassandra profile's session (the one the plugins share): a query any live
     * coordinator answers, at the read profile's consistency.
     */
    static StorageProbe cassandra(ActorSystem<?> system) {
        CassandraSession session =
                CassandraSessionRegistry.get(system).sessionFor(CassandraSchema.PLUGIN);
        return () -> {
            try {
                return session.selectOne("SELECT now() FROM system.local")
                                .toCompletableFuture()
                                .get(5, TimeUnit.SECONDS)
                                .isPresent()
                        ? Optional.empty()
                        : Optional.of("system.local answered no row");
            } catch (ExecutionException e) {
                Throwable cause = Failures.unwrap(e);
                return Optional.of(cause.getClass().getSimpleName() + ": " + cause.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted");
            } catch (Exception e) {
                return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        };
    }
}
