package io.kubepekko.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StorageSettingsTest {

    @Test
    void theEmbeddedUrlCarriesTheDurabilitySettingsForTheDataDirectory() {
        Path dir = Path.of("/tmp/somewhere");
        Config config = new StorageSettings.Embedded(dir).toConfig();
        String url = config.getString("kubepekko.storage.embedded.url");
        assertTrue(url.startsWith("jdbc:h2:file:/tmp/somewhere/kubepekko;"), url);
        // Acknowledged writes must be written (kill -9) and the database open until the graceful
        // shutdown is done.
        assertTrue(url.contains(";WRITE_DELAY=0"), url);
        assertTrue(url.contains(";DB_CLOSE_ON_EXIT=FALSE"), url);
        assertEquals(url, config.getString("pekko-persistence-jdbc.shared-databases.slick.db.url"));
    }

    @Test
    void theReferenceUrlUsesTheSameSettings() {
        Config reference = ConfigFactory.defaultReference();
        assertEquals(
                "jdbc:h2:file:./data/kubepekko"
                        + reference.getString("kubepekko.storage.embedded.options"),
                reference.getString("kubepekko.storage.embedded.url"));
    }
}
