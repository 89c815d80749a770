package io.kubepekko.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

import java.nio.file.Path;

/**
 * The storage profile a server runs on. Only the embedded profile exists so far; it keeps the H2
 * database file under the server's data directory.
 */
public record StorageSettings(Path dataDir) {

    /** Config overrides that point the embedded journal at {@code <dataDir>/kubepekko.mv.db}. */
    public Config toConfig() {
        Path db = dataDir.toAbsolutePath().resolve("kubepekko");
        String url = "jdbc:h2:file:" + db + ";DATABASE_TO_UPPER=false;WRITE_DELAY=0";
        String quoted = "\"" + url.replace("\\", "\\\\") + "\"";
        // The slick URL is set too: reference.conf's ${kubepekko.storage.embedded.url} substitution is
        // already resolved (to ./data) when ConfigFactory.load() returns, so overriding only the source
        // key left the journal in the working directory whatever --data-dir said.
        return ConfigFactory.parseString("kubepekko.storage.embedded.url = " + quoted + "\n"
                + "pekko-persistence-jdbc.shared-databases.slick.db.url = " + quoted);
    }
}
