package io.kubepekko.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.pattern.Patterns;
import org.apache.pekko.persistence.DeleteSnapshotsFailure;
import org.apache.pekko.persistence.DeleteSnapshotsSuccess;
import org.apache.pekko.persistence.Persistence;
import org.apache.pekko.persistence.SaveSnapshotFailure;
import org.apache.pekko.persistence.SaveSnapshotSuccess;
import org.apache.pekko.persistence.SelectedSnapshot;
import org.apache.pekko.persistence.SnapshotMetadata;
import org.apache.pekko.persistence.SnapshotProtocol;
import org.apache.pekko.persistence.SnapshotSelectionCriteria;
import org.apache.pekko.persistence.snapshot.japi.SnapshotStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.concurrent.Future;
import scala.jdk.javaapi.FutureConverters;

/**
 * The snapshot store of both storage profiles: the profile's own store ({@code underlying}: the
 * JDBC or the Cassandra plugin), with snapshots that are {@link SnapshotInParts} larger than {@code
 * part-bytes} saved and loaded in parts. Everything else passes through unchanged, and snapshots
 * written before this store existed (a collection saved whole) load as they are.
 *
 * <p>Why: a collection's state was saved as one value, which the serializer wrote into one array,
 * the JDBC driver copied and H2 buffered again: 2-3 times the collection's size in transient heap
 * (a 280 MB collection) on a heap that already held the collection; and on Cassandra one snapshot
 * is one row written in one request, which Cassandra 5.0 refuses above 12.8 MiB (and any version
 * above half a commit log segment, 16 MiB by default), so a large collection could not be
 * snapshotted at all. Parts are saved one after another, each once the previous one is stored, and
 * loaded the same way: the transient heap of a save or a load is about one part.
 *
 * <p>Layout: part {@code i} of the snapshot of {@code pid} at sequence number {@code n} is the
 * underlying store's snapshot of {@code pid + "#snapshot-part-" + i} at {@code n}; the {@link
 * SnapshotInParts.Header}, saved last, is the snapshot of {@code pid} at {@code n}. A save that
 * dies half-way leaves parts without a header, which nothing loads and the next save deletes. A
 * header whose part is missing (deleted under a slow load) is passed over for the snapshot before
 * it, or none: the journal keeps every event, so a replay from further back reaches the same state.
 *
 * <p>After saving a {@link SnapshotInParts} (split or not) the store deletes the actor's older
 * snapshots and their parts: only the newest is ever loaded, and parted ones are large.
 */
public final class PartedSnapshotStore extends SnapshotStore {
    private static final Logger log = LoggerFactory.getLogger(PartedSnapshotStore.class);

    /** What a part's persistence id adds to the actor's. */
    static final String PART = "#snapshot-part-";

    private final ActorRef underlying;
    private final long partBytes;
    private final Duration timeout;

    /**
     * The most parts seen (saved or loaded) in the newest snapshot of each persistence id: which
     * part ids a save cleans up.
     */
    private final Map<String, Integer> partsSeen = new ConcurrentHashMap<>();

    /**
     * @param config this plugin's configuration: {@code underlying} (the plugin id of the profile's
     *     store), {@code part-bytes} and {@code part-timeout} (how long one part's save or load may
     *     take)
     */
    public PartedSnapshotStore(Config config) {
        this.underlying =
                Persistence.get(context().system())
                        .snapshotStoreFor(config.getString("underlying"), ConfigFactory.empty());
        this.partBytes = config.getBytes("part-bytes");
        this.timeout = config.getDuration("part-timeout");
    }

    static String partId(String persistenceId, int part) {
        return persistenceId + PART + part;
    }

    @Override
    public Future<Optional<SelectedSnapshot>> doLoadAsync(
            String persistenceId, SnapshotSelectionCriteria criteria) {
        return FutureConverters.asScala(load(persistenceId, criteria));
    }

    @Override
    public Future<Void> doSaveAsync(SnapshotMetadata metadata, Object snapshot) {
        if (!(snapshot instanceof SnapshotInParts whole)) {
            return FutureConverters.asScala(save(metadata, snapshot));
        }
        CompletionStage<Integer> saved =
                whole.sizeInBytes() <= partBytes
                        ? save(metadata, snapshot).thenApply(v -> 0)
                        : saveParts(metadata, whole.parts(partBytes), 0)
                                .thenCompose(
                                        count ->
                                                save(metadata, whole.header(count))
                                                        .thenApply(v -> count));
        return FutureConverters.asScala(
                saved.thenApply(
                        count -> {
                            deleteOlder(metadata, count);
                            return null;
                        }));
    }

    @Override
    public Future<Void> doDeleteAsync(SnapshotMetadata metadata) {
        // The parts go with the header: deleting it alone would leave them to the next save's
        // clean-up.
        SnapshotSelectionCriteria exactly =
                new SnapshotSelectionCriteria(
                        metadata.sequenceNr(), Long.MAX_VALUE, metadata.sequenceNr(), 0L);
        return doDeleteAsync(metadata.persistenceId(), exactly);
    }

    @Override
    public Future<Void> doDeleteAsync(String persistenceId, SnapshotSelectionCriteria criteria) {
        CompletionStage<Void> all = delete(persistenceId, criteria);
        for (int i = 0; i < partsSeen.getOrDefault(persistenceId, 0); i++) {
            CompletionStage<Void> part = delete(partId(persistenceId, i), criteria);
            all = all.thenCombine(part, (a, b) -> null);
        }
        return FutureConverters.asScala(all);
    }

    // ---- saving ----

    private CompletionStage<Integer> saveParts(
            SnapshotMetadata metadata, Iterator<?> parts, int saved) {
        if (!parts.hasNext()) {
            return CompletableFuture.completedFuture(saved);
        }
        Object part = parts.next();
        SnapshotMetadata at =
                new SnapshotMetadata(
                        partId(metadata.persistenceId(), saved),
                        metadata.sequenceNr(),
                        metadata.timestamp());
        return save(at, part).thenCompose(v -> saveParts(metadata, parts, saved + 1));
    }

    private CompletionStage<Void> save(SnapshotMetadata metadata, Object snapshot) {
        return Patterns.ask(
                        underlying, new SnapshotProtocol.SaveSnapshot(metadata, snapshot), timeout)
                .thenApply(
                        reply -> {
                            if (reply instanceof SaveSnapshotSuccess) {
                                return null;
                            }
                            if (reply instanceof SaveSnapshotFailure f) {
                                throw new CompletionException(f.cause());
                            }
                            throw new IllegalStateException(
                                    "unexpected answer of the snapshot store: " + reply);
                        });
    }

    /**
     * Deletes the snapshots of the actor older than the one just saved (with {@code count} parts),
     * their parts, and parts numbered {@code count} or more at any version up to it (left by larger
     * snapshots or by a save that died). A failure is logged: the next save tries again.
     */
    private void deleteOlder(SnapshotMetadata saved, int count) {
        String pid = saved.persistenceId();
        long n = saved.sequenceNr();
        SnapshotSelectionCriteria older =
                new SnapshotSelectionCriteria(n - 1, Long.MAX_VALUE, 0L, 0L);
        SnapshotSelectionCriteria upToThis =
                new SnapshotSelectionCriteria(n, Long.MAX_VALUE, 0L, 0L);
        int seen = Math.max(count, partsSeen.getOrDefault(pid, 0));
        partsSeen.put(pid, count);
        CompletionStage<Void> all = delete(pid, older);
        for (int i = 0; i < seen; i++) {
            CompletionStage<Void> part = delete(partId(pid, i), i < count ? older : upToThis);
            all = all.thenCombine(part, (a, b) -> null);
        }
        all.whenComplete(
                (v, e) -> {
                    if (e != null) {
                        log.warn(
                                "deleting the snapshots of {} before {} failed (the next snapshot tries again): {}",
                                pid,
                                n,
                                e.toString());
                    }
                });
    }

    private CompletionStage<Void> delete(String persistenceId, SnapshotSelectionCriteria criteria) {
        return Patterns.ask(
                        underlying,
                        new SnapshotProtocol.DeleteSnapshots(persistenceId, criteria),
                        timeout)
                .thenApply(
                        reply -> {
                            if (reply instanceof DeleteSnapshotsSuccess) {
                                return null;
                            }
                            if (reply instanceof DeleteSnapshotsFailure f) {
                                throw new CompletionException(f.cause());
                            }
                            throw new IllegalStateException(
                                    "unexpected answer of the snapshot store: " + reply);
                        });
    }

    // ---- loading ----

    private CompletionStage<Optional<SelectedSnapshot>> load(
            String persistenceId, SnapshotSelectionCriteria criteria) {
        if (criteria.maxSequenceNr() < criteria.minSequenceNr()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return loadOne(persistenceId, criteria)
                .thenCompose(
                        found -> {
                            if (found.isEmpty()
                                    || !(found.get().snapshot()
                                            instanceof SnapshotInParts.Header header)) {
                                return CompletableFuture.completedFuture(found);
                            }
                            SnapshotMetadata metadata = found.get().metadata();
                            partsSeen.merge(persistenceId, header.parts(), Math::max);
                            return loadParts(metadata, header.assemble(), header.parts(), 0)
                                    .thenCompose(
                                            assembled -> {
                                                if (assembled.isPresent()) {
                                                    return CompletableFuture.completedFuture(
                                                            Optional.of(
                                                                    new SelectedSnapshot(
                                                                            metadata,
                                                                            assembled.get())));
                                                }
                                                log.warn(
                                                        "the snapshot of {} at {} misses a part; recovering from an earlier one",
                                                        persistenceId,
                                                        metadata.sequenceNr());
                                                return load(
                                                        persistenceId,
                                                        new SnapshotSelectionCriteria(
                                                                metadata.sequenceNr() - 1,
                                                                criteria.maxTimestamp(),
                                                                criteria.minSequenceNr(),
                                                                criteria.minTimestamp()));
                                            });
                        });
    }

    /** The assembled snapshot, or empty when a part is missing. */
    private CompletionStage<Optional<Object>> loadParts(
            SnapshotMetadata metadata, SnapshotInParts.Assembly assembly, int count, int next) {
        if (next == count) {
            return CompletableFuture.completedFuture(Optional.of(assembly.result()));
        }
        long n = metadata.sequenceNr();
        String pid = partId(metadata.persistenceId(), next);
        return loadOne(pid, new SnapshotSelectionCriteria(n, Long.MAX_VALUE, n, 0L))
                .thenCompose(
                        part -> {
                            // The JDBC plugin ignores the lower bound: an older part is as missing
                            // as none.
                            if (part.isEmpty() || part.get().metadata().sequenceNr() != n) {
                                return CompletableFuture.completedFuture(Optional.empty());
                            }
                            assembly.add(part.get().snapshot());
                            return loadParts(metadata, assembly, count, next + 1);
                        });
    }

    private CompletionStage<Optional<SelectedSnapshot>> loadOne(
            String persistenceId, SnapshotSelectionCriteria criteria) {
        return Patterns.ask(
                        underlying,
                        new SnapshotProtocol.LoadSnapshot(persistenceId, criteria, Long.MAX_VALUE),
                        timeout)
                .thenApply(
                        reply -> {
                            if (reply instanceof SnapshotProtocol.LoadSnapshotResult r) {
                                return r.snapshot().isDefined()
                                        ? Optional.of(r.snapshot().get())
                                        : Optional.<SelectedSnapshot>empty();
                            }
                            if (reply instanceof SnapshotProtocol.LoadSnapshotFailed f) {
                                throw new CompletionException(f.cause());
                            }
                            throw new IllegalStateException(
                                    "unexpected answer of the snapshot store: " + reply);
                        });
    }
}
