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
        String url = "jdbc:h2:file:" + db + ";DATABASE_TO_UPPER=false;WRITE_DELAY=0;MAX_LENGTH_INPLACE_LOB=1048576";
        String quoted = "\"" + url.replace("\\", "\\\\") + "\"";
        // The slick URL is set too, so the override holds even for a caller that layers it over an
        // already-resolved config (where reference.conf's substitution would have picked ./data).
        return ConfigFactory.parseString("kubepekko.storage.embedded.url = " + quoted + "\n"
                + "pekko-persistence-jdbc.shared-databases.slick.db.url = " + quoted);
    }
}
