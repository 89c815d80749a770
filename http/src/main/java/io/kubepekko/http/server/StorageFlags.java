package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.persistence.StorageSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The storage flags the operator gave; a null one was not given, and the configuration decides
 * ({@code kubepekko.storage.profile}, {@code kubepekko.storage.cassandra.contact-points} and {@code
 * .keyspace}: by default embedded, 127.0.0.1:9042, kubepekko).
 *
 * @param profile {@code --storage}: embedded or cassandra
 * @param cassandraContactPoints {@code --cassandra-contact-points}: {@code host:port} of Cassandra
 *     nodes
 * @param cassandraKeyspace {@code --cassandra-keyspace}
 * @param quotaBytes {@code --storage-quota-bytes}: the storage quota; 0 for the default (a share of
 *     the heap, see {@link #QUOTA_BYTES})
 */
public record StorageFlags(
        StorageSettings.Profile profile,
        List<String> cassandraContactPoints,
        String cassandraKeyspace,
        Long quotaBytes) {
    /** No storage flag given. */
    public static final StorageFlags DEFAULT = new StorageFlags(null, null, null, null);

    /**
     * The setting {@code --storage-quota-bytes} sets (reference.conf says how its default is
     * derived).
     */
    public static final String QUOTA_BYTES = "kubepekko.storage.quota-bytes";

    public StorageFlags {
        cassandraContactPoints =
                cassandraContactPoints == null ? null : List.copyOf(cassandraContactPoints);
    }

    public StorageFlags(
            StorageSettings.Profile profile,
            List<String> cassandraContactPoints,
            String cassandraKeyspace) {
        this(profile, cassandraContactPoints, cassandraKeyspace, null);
    }

    public StorageFlags withQuotaBytes(Long bytes) {
        return new StorageFlags(profile, cassandraContactPoints, cassandraKeyspace, bytes);
    }

    /** The cassandra profile on these contact points and keyspace. */
    public static StorageFlags cassandra(List<String> contactPoints, String keyspace) {
        return new StorageFlags(StorageSettings.Profile.CASSANDRA, contactPoints, keyspace, null);
    }

    /** The storage configuration of the flags given. */
    public Config toConfig() {
        Map<String, Object> given = new LinkedHashMap<>();
        if (profile != null) {
            given.put(StorageSettings.PROFILE, profile.flagValue());
        }
        if (cassandraContactPoints != null) {
            given.put(StorageSettings.CASSANDRA_CONTACT_POINTS, cassandraContactPoints);
        }
        if (cassandraKeyspace != null) {
            given.put(StorageSettings.CASSANDRA_KEYSPACE, cassandraKeyspace);
        }
        if (quotaBytes != null) {
            given.put(QUOTA_BYTES, quotaBytes);
        }
        return ConfigFactory.parseMap(given, "storage flags");
    }
}
