package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.kubepekko.persistence.StorageSettings;
import java.util.List;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;

/**
 * Adds {@link ApiServerSettings} up to the configuration a server runs with (see {@link
 * ApiServerSettings#resolve()} for the layers and their order) and refuses layers that together
 * make no valid server. Kept apart from the settings record so the record stays the data read from
 * the flags, and the layering rules, the one part with logic, read on their own.
 */
final class ConfigLayering {
    private ConfigLayering() {}

    private static final String SEED_NODES = ApiServerSettings.SEED_NODES;
    private static final String INVALID = ApiServerSettings.INVALID;
    private static final String SYSTEM_NAME = ApiServerSettings.SYSTEM_NAME;

    static ApiServerSettings.Resolved resolve(ApiServerSettings settings) {
        ClusterFlags cluster = settings.cluster();
        Config given =
                cluster.toConfig()
                        .withFallback(settings.storage().toConfig())
                        .withFallback(settings.overrides());
        Config builtIn =
                ConfigFactory.parseResources(
                        "kubepekko-server.conf",
                        ConfigParseOptions.defaults().setAllowMissing(false));
        StorageSettings profile;
        try {
            profile =
                    StorageSettings.fromConfig(
                            ConfigFactory.load(given.withFallback(builtIn)), settings.dataDir());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(INVALID + e.getMessage(), e);
        }
        // The embedded database follows --data-dir (a flag: above the file); the cassandra
        // profile's wiring is built-in configuration (below the file, which may tune the driver),
        // its values those selected. load(...) resolves substitutions after layering, so
        // reference.conf's ${kubepekko.storage...} sees the data directory's URL rather than its
        // default.
        Config config =
                profile instanceof StorageSettings.Embedded
                        ? ConfigFactory.load(
                                profile.toConfig().withFallback(given).withFallback(builtIn))
                        : ConfigFactory.load(
                                given.withFallback(profile.toConfig()).withFallback(builtIn));
        List<String> seeds = config.getStringList(SEED_NODES);
        for (String seed : seeds) {
            checkSeedNode(seed, config);
        }
        if (!seeds.isEmpty() && profile instanceof StorageSettings.Embedded) {
            // Each node's embedded journal is its own H2 file: nodes sharing sharding but not the
            // journal would each recover an entity from different histories.
            throw new IllegalArgumentException(
                    cluster.seedNodes() != null
                            ? "invalid argument \""
                                    + String.join(",", cluster.seedNodes())
                                    + "\" for \"--cluster-seed-nodes\" "
                                    + "flag: a cluster of several servers needs --storage=cassandra"
                            : INVALID
                                    + SEED_NODES
                                    + " ("
                                    + config.getValue(SEED_NODES).origin().description()
                                    + ") on the embedded storage profile: a cluster of several servers needs "
                                    + StorageSettings.PROFILE
                                    + " = cassandra (or --storage=cassandra)");
        }
        return new ApiServerSettings.Resolved(config, profile, seeds);
    }

    /**
     * A seed node must be a member of this system: Pekko refuses to join one of another name, and a
     * node given only such seeds would wait for ever.
     */
    private static void checkSeedNode(String seed, Config config) {
        Address address;
        try {
            address = AddressFromURIString.parse(seed);
        } catch (RuntimeException e) {
            address = null;
        }
        if (address == null
                || !address.system().equals(SYSTEM_NAME)
                || address.getHost().isEmpty()
                || address.getPort().isEmpty()) {
            throw new IllegalArgumentException(
                    INVALID
                            + SEED_NODES
                            + " ("
                            + config.getValue(SEED_NODES).origin().description()
                            + "): \""
                            + seed
                            + "\" is not pekko://"
                            + SYSTEM_NAME
                            + "@host:port");
        }
    }
}
