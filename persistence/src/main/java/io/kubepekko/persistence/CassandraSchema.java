package io.kubepekko.persistence;

import io.kubepekko.persistence.fencing.FormationTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.persistence.cassandra.KeyspaceAndTableStatements;
import org.apache.pekko.persistence.cassandra.PluginSettings;
import org.apache.pekko.stream.connectors.cassandra.javadsl.CassandraSession;
import org.apache.pekko.stream.connectors.cassandra.javadsl.CassandraSessionRegistry;

/**
 * The cassandra profile's keyspace and tables, as the plugin itself defines them (its {@link
 * KeyspaceAndTableStatements}, from the configured keyspace, replication and table settings). The
 * plugin would create them lazily on its journal's first use; creating them at start instead means
 * the read side (watch cache rebuilds, journal-backed resume) never queries a table that does not
 * exist yet.
 */
public final class CassandraSchema {
    static final String PLUGIN = "pekko.persistence.cassandra";
    static final String AUTOCREATE = "kubepekko.storage.cassandra.schema-autocreate";

    private CassandraSchema() {}

    /** Every statement, keyspace first, in order; {@code IF NOT EXISTS} throughout. */
    public static List<String> statements(ActorSystem<?> system) {
        KeyspaceAndTableStatements s =
                new KeyspaceAndTableStatements(
                        system, PLUGIN, PluginSettings.apply(system.classicSystem()));
        List<String> all = new ArrayList<>();
        all.add(s.createJournalKeyspaceStatement());
        all.addAll(s.getCreateJournalTablesStatements());
        all.add(s.createSnapshotKeyspaceStatement());
        all.addAll(s.getCreateSnapshotTablesStatements());
        // Which cluster owns the keyspace (io.kubepekko.persistence.fencing.FormationTable).
        all.addAll(
                FormationTable.statements(
                        system.settings()
                                .config()
                                .getString("kubepekko.storage.cassandra.keyspace")));
        // The journal and the snapshots share the keyspace: its statement comes twice (spaced
        // differently).
        Set<String> seen = new HashSet<>();
        List<String> distinct = new ArrayList<>();
        for (String statement : all) {
            if (seen.add(statement.strip().replaceAll("\\s+", " "))) {
                distinct.add(statement.strip());
            }
        }
        return distinct;
    }

    /**
     * With {@code schema-autocreate} on, creates what is missing; with it off, fails unless the
     * tables exist (they come from {@code cluster-config/cassandra/schema.cql}).
     */
    public static CompletionStage<Done> prepare(ActorSystem<?> system) {
        CassandraSession session = CassandraSessionRegistry.get(system).sessionFor(PLUGIN);
        if (system.settings().config().getBoolean(AUTOCREATE)) {
            CompletionStage<Done> done = CompletableFuture.completedFuture(Done.getInstance());
            // One at a time: Cassandra applies schema changes one after the other anyway, and a
            // table
            // statement must not run before its keyspace exists.
            for (String statement : statements(system)) {
                done = done.thenCompose(d -> session.executeDDL(statement));
            }
            return done;
        }
        String keyspace =
                system.settings().config().getString("kubepekko.storage.cassandra.keyspace");
        return session.selectAll(
                        "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?",
                        keyspace)
                .thenApply(
                        rows -> {
                            Set<String> tables = new TreeSet<>();
                            rows.forEach(r -> tables.add(r.getString("table_name")));
                            for (String needed :
                                    List.of(
                                            "messages",
                                            "tag_views",
                                            "snapshots",
                                            "cluster_formation",
                                            "cluster_beats")) {
                                if (!tables.contains(needed)) {
                                    throw new IllegalStateException(
                                            "keyspace "
                                                    + keyspace
                                                    + " has no table "
                                                    + needed
                                                    + " (found "
                                                    + tables
                                                    + "): create the schema with cluster-config/cassandra/schema.cql"
                                                    + " or turn "
                                                    + AUTOCREATE
                                                    + " on");
                                }
                            }
                            return Done.getInstance();
                        });
    }
}
