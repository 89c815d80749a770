package io.kubepekko.persistence.fencing;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.stream.connectors.cassandra.javadsl.CassandraSessionRegistry;

/**
 * The rows by which the servers sharing one keyspace agree which cluster owns it: a generation,
 * raised by a lightweight transaction by the one server that forms a new cluster, and a beat per
 * running member. A starting server that sees beats move joins the cluster that beats instead of
 * forming one of its own; a member that finds a newer generation than the one it joined under stops
 * writing (see {@link WritePermit#supersede}).
 */
public final class FormationTable {
    static final String PLUGIN = "pekko.persistence.cassandra";
    private static final String ROW = "cluster";

    private final CompletionStage<CqlSession> session;
    private final String keyspace;

    FormationTable(CompletionStage<CqlSession> session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
    }

    /** The table of {@code system}'s Cassandra profile (its journal's session and keyspace). */
    public static FormationTable of(ActorSystem<?> system) {
        return new FormationTable(
                CassandraSessionRegistry.get(system).sessionFor(PLUGIN).underlying(),
                system.settings().config().getString("kubepekko.storage.cassandra.keyspace"));
    }

    /**
     * The tables, {@code IF NOT EXISTS}. A beat lives a minute: rows of members long gone
     * disappear, and one that stops changing is all a starting server needs to tell a dead member
     * from a live one.
     */
    public static List<String> statements(String keyspace) {
        return List.of(
                "CREATE TABLE IF NOT EXISTS "
                        + keyspace
                        + ".cluster_formation (\n"
                        + "  id text PRIMARY KEY,\n  generation bigint,\n  former text)",
                "CREATE TABLE IF NOT EXISTS "
                        + keyspace
                        + ".cluster_beats (\n"
                        + "  member text PRIMARY KEY,\n  generation bigint,\n  beat bigint)\n"
                        + "  WITH default_time_to_live = 60");
    }

    /** Every member's last beat, by member (address and incarnation). */
    public CompletionStage<Map<String, Long>> beats() {
        return execute(
                        SimpleStatement.newInstance(
                                        "SELECT member, beat FROM " + keyspace + ".cluster_beats")
                                .setConsistencyLevel(ConsistencyLevel.QUORUM))
                .thenCompose(rs -> collect(rs, new HashMap<>()));
    }

    private static CompletionStage<Map<String, Long>> collect(
            AsyncResultSet rs, Map<String, Long> into) {
        for (Row row : rs.currentPage()) {
            into.put(row.getString("member"), row.getLong("beat"));
        }
        return rs.hasMorePages()
                ? rs.fetchNextPage().thenCompose(next -> collect(next, into))
                : CompletableFuture.completedFuture(into);
    }

    /**
     * The current generation, read linearizably with the transactions that raise it (empty: none
     * yet).
     */
    public CompletionStage<Optional<Long>> generation() {
        return execute(
                        SimpleStatement.newInstance(
                                        "SELECT generation FROM "
                                                + keyspace
                                                + ".cluster_formation WHERE id = ?",
                                        ROW)
                                .setConsistencyLevel(ConsistencyLevel.SERIAL))
                .thenApply(
                        rs -> {
                            Row row = rs.one();
                            return row == null || row.isNull("generation")
                                    ? Optional.empty()
                                    : Optional.of(row.getLong("generation"));
                        });
    }

    /**
     * Raises the generation from {@code expected} (empty: none yet) to {@code next}, naming {@code
     * former}; whether this call did it (false: another server raised it first).
     */
    public CompletionStage<Boolean> claim(Optional<Long> expected, long next, String former) {
        SimpleStatement statement =
                expected.isEmpty()
                        ? SimpleStatement.newInstance(
                                "INSERT INTO "
                                        + keyspace
                                        + ".cluster_formation (id, generation, former)"
                                        + " VALUES (?, ?, ?) IF NOT EXISTS",
                                ROW,
                                next,
                                former)
                        : SimpleStatement.newInstance(
                                "UPDATE "
                                        + keyspace
                                        + ".cluster_formation SET generation = ?, former = ?"
                                        + " WHERE id = ? IF generation = ?",
                                next,
                                former,
                                ROW,
                                expected.get());
        return execute(
                        statement
                                .setConsistencyLevel(ConsistencyLevel.QUORUM)
                                .setSerialConsistencyLevel(ConsistencyLevel.SERIAL))
                .thenApply(AsyncResultSet::wasApplied);
    }

    /** Records that {@code member}, of {@code generation}, is alive: its {@code beat}-th beat. */
    public CompletionStage<Void> beat(String member, long generation, long beat) {
        return execute(
                        SimpleStatement.newInstance(
                                        "INSERT INTO "
                                                + keyspace
                                                + ".cluster_beats (member, generation, beat) VALUES (?, ?, ?)",
                                        member,
                                        generation,
                                        beat)
                                .setConsistencyLevel(ConsistencyLevel.QUORUM)
                                .setTimeout(Duration.ofSeconds(2)))
                .thenApply(rs -> null);
    }

    private CompletionStage<AsyncResultSet> execute(SimpleStatement statement) {
        return session.thenCompose(s -> s.executeAsync(statement));
    }
}
