package io.kubepekko.persistence.fencing;

import com.typesafe.config.Config;
import org.apache.pekko.persistence.SnapshotMetadata;
import org.apache.pekko.persistence.SnapshotSelectionCriteria;
import org.apache.pekko.persistence.cassandra.snapshot.CassandraSnapshotStore;
import scala.concurrent.Future;
import scala.runtime.BoxedUnit;

/**
 * The Cassandra snapshot store, refusing saves and deletions while this server's {@link
 * WritePermit} has lapsed, as {@link FencedCassandraJournal} refuses journal writes: a replaced
 * server must not delete the snapshots its successor recovers from. Loads are never refused.
 */
public final class FencedCassandraSnapshotStore extends CassandraSnapshotStore {
    private final WritePermit permit;

    /** Constructed by Pekko Persistence from the plugin's configuration section. */
    public FencedCassandraSnapshotStore(Config config, String configPath) {
        super(config, configPath);
        this.permit = WritePermit.ID.of(context().system());
    }

    @Override
    public Future<BoxedUnit> saveAsync(SnapshotMetadata metadata, Object snapshot) {
        return Fence.<BoxedUnit>refused(permit)
                .orElseGet(() -> super.saveAsync(metadata, snapshot));
    }

    @Override
    public Future<BoxedUnit> deleteAsync(SnapshotMetadata metadata) {
        return Fence.<BoxedUnit>refused(permit).orElseGet(() -> super.deleteAsync(metadata));
    }

    @Override
    public Future<BoxedUnit> deleteAsync(String persistenceId, SnapshotSelectionCriteria criteria) {
        return Fence.<BoxedUnit>refused(permit)
                .orElseGet(() -> super.deleteAsync(persistenceId, criteria));
    }
}
