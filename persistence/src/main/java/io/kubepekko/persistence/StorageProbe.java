package io.kubepekko.persistence;

import com.typesafe.config.Config;

import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Optional;

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
                return c.isValid(2) ? Optional.empty() : Optional.of("database connection is not valid");
            } catch (Exception e) {
                return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        };
    }
}
