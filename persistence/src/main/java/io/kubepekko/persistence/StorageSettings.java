package io.kubepekko.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The storage profile a server runs on, and what the server needs from it: configuration layered
 * over its own, the schema made sure of at start, a health probe and a journal reader.
 */
public sealed interface StorageSettings {

    /** The profiles, as {@code --storage} names them. */
    enum Profile {
        EMBEDDED,
        CASSANDRA;

        public String flagValue() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The profile {@code --storage} or {@code kubepekko.storage.profile} names, if any. */
        public static Optional<Profile> named(String value) {
            for (Profile p : values()) {
                if (p.flagValue().equals(value)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * The profile a resolved configuration selects with {@code kubepekko.storage.profile}, pointed
     * by {@code kubepekko.storage.cassandra.contact-points} and {@code .keyspace}; the embedded one
     * keeps its database in {@code dataDir}.
     *
     * @throws IllegalArgumentException when the setting names no profile (the message says where it
     *     was set)
     */
    static StorageSettings fromConfig(Config config, Path dataDir) {
        String name = config.getString(PROFILE);
        Profile profile =
                Profile.named(name)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                PROFILE
                                                        + " = \""
                                                        + name
                                                        + "\" ("
                                                        + config.getValue(PROFILE)
                                                                .origin()
                                                                .description()
                                                        + "): must be embedded or cassandra"));
        return switch (profile) {
            case EMBEDDED -> new Embedded(dataDir);
            case CASSANDRA ->
                    new Cassandra(
                            config.getStringList(CASSANDRA_CONTACT_POINTS),
                            config.getString(CASSANDRA_KEYSPACE));
        };
    }

    /** The setting that selects the profile. */
    String PROFILE = "kubepekko.storage.profile";

    /** The cassandra profile's contact points ({@code host:port} strings). */
    String CASSANDRA_CONTACT_POINTS = "kubepekko.storage.cassandra.contact-points";

    /** The cassandra profile's keyspace. */
    String CASSANDRA_KEYSPACE = "kubepekko.storage.cassandra.keyspace";

    /**
     * Config overrides that select and point this profile's plugins (to be layered over
     * reference.conf).
     */
    Config toConfig();

    /** Creates (or, where creation is off, checks) the journal's tables; idempotent. */
    CompletionStage<?> prepareSchema(ActorSystem<?> system);

    /** A probe of the journal's store, for /readyz. */
    StorageProbe probe(ActorSystem<?> system, Config config);

    /** The read side, for journal-backed watch resume. */
    JournalReader journalReader(ActorSystem<?> system, Config config);

    /**
     * The embedded profile: pekko-persistence-jdbc on an H2 file database under {@code dataDir}.
     */
    record Embedded(Path dataDir) implements StorageSettings {

        /** Points the embedded journal at {@code <dataDir>/kubepekko.mv.db}. */
        @Override
        public Config toConfig() {
            Path db = dataDir.toAbsolutePath().resolve("kubepekko");
            // The H2 settings, and why each, are in reference.conf: one list for both URLs.
            String url =
                    "jdbc:h2:file:"
                            + db
                            + ConfigFactory.defaultReference()
                                    .getString("kubepekko.storage.embedded.options");
            String quoted = "\"" + url.replace("\\", "\\\\") + "\"";
            // The slick URL is set too, so the override holds even for a caller that layers it over
            // an
            // already-resolved config (where reference.conf's substitution would have picked
            // ./data).
            return ConfigFactory.parseString(
                    "kubepekko.storage.embedded.url = "
                            + quoted
                            + "\n"
                            + "pekko-persistence-jdbc.shared-databases.slick.db.url = "
                            + quoted);
        }

        @Override
        public CompletionStage<?> prepareSchema(ActorSystem<?> system) {
            return EmbeddedSchema.createIfNotExists(system);
        }

        @Override
        public StorageProbe probe(ActorSystem<?> system, Config config) {
            return StorageProbe.embedded(config);
        }

        @Override
        public JournalReader journalReader(ActorSystem<?> system, Config config) {
            return JournalReader.embedded(system, config);
        }
    }

    /**
     * The cassandra profile: pekko-persistence-cassandra. Everything but the contact points and the
     * keyspace (replication, consistency levels, schema creation, events-by-tag) is configured
     * under {@code kubepekko.storage.cassandra}.
     *
     * @param contactPoints {@code host:port} of one or more nodes
     * @param keyspace the keyspace holding the journal, tag views and snapshots
     */
    record Cassandra(List<String> contactPoints, String keyspace) implements StorageSettings {
        public Cassandra {
            contactPoints = List.copyOf(contactPoints);
            if (contactPoints.isEmpty()) {
                throw new IllegalArgumentException("at least one contact point is needed");
            }
        }

        @Override
        public Config toConfig() {
            return ConfigFactory.empty()
                    .withValue(
                            PROFILE, ConfigValueFactory.fromAnyRef(Profile.CASSANDRA.flagValue()))
                    .withValue(
                            CASSANDRA_CONTACT_POINTS,
                            ConfigValueFactory.fromIterable(contactPoints))
                    .withValue(CASSANDRA_KEYSPACE, ConfigValueFactory.fromAnyRef(keyspace))
                    .withFallback(
                            ConfigFactory.parseResources(
                                    StorageSettings.class,
                                    "cassandra-profile.conf",
                                    ConfigParseOptions.defaults().setAllowMissing(false)));
        }

        @Override
        public CompletionStage<?> prepareSchema(ActorSystem<?> system) {
            return CassandraSchema.prepare(system);
        }

        @Override
        public StorageProbe probe(ActorSystem<?> system, Config config) {
            return StorageProbe.cassandra(system);
        }

        @Override
        public JournalReader journalReader(ActorSystem<?> system, Config config) {
            return JournalReader.cassandra(system, config);
        }
    }
}
