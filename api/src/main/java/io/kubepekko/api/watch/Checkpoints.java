package io.kubepekko.api.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where a watch older than the cache's window starts reading the journal: journal positions paired
 * with the cache's version. A position is noted every {@code interval}; only once {@code margin}
 * has passed is it paired with the version the cache has reached then, because a change committed
 * before the position may still be on its way to the cache for that long. So every change after a
 * checkpoint's version lies after its position in the journal.
 *
 * <p>Checkpoints inside the retention are kept, and the newest one older: it proves that versions
 * below it are older than the retention.
 *
 * @param <P> a journal position (opaque here)
 */
public final class Checkpoints<P> {

    /**
     * A journal position paired with the cache's version: every change after the version is after
     * it.
     */
    public record Checkpoint<P>(long version, P position, Instant at) {}

    private final Duration interval;
    private final Duration margin;
    private final Duration retention;
    private final TreeMap<Long, Checkpoint<P>> byVersion = new TreeMap<>();

    /** A position noted at {@code pendingAt}, waiting for its margin to pass; null when none. */
    private P pending;

    private Instant pendingAt;
    private Instant lastRequest = Instant.MIN;

    /**
     * @param interval how often a position is noted
     * @param margin how long after noting a position it is paired with the cache's version
     * @param retention how long a watch may resume from the journal
     */
    public Checkpoints(Duration interval, Duration margin, Duration retention) {
        this.interval = interval;
        this.margin = margin;
        this.retention = retention;
    }

    /**
     * The timers of a serving cache at version {@code version}: pairs a pending position whose
     * margin has passed, drops checkpoints past the retention, and says whether a new position
     * should be read now (then it counts as requested).
     */
    public boolean tick(Instant now, long version) {
        if (pending != null && !now.isBefore(pendingAt.plus(margin))) {
            byVersion.put(version, new Checkpoint<>(version, pending, now));
            pending = null;
        }
        boolean request = false;
        if (pending == null && !now.isBefore(lastRequest.plus(interval))) {
            lastRequest = now;
            request = true;
        }
        Instant horizon = now.minus(retention);
        while (byVersion.size() > 1) {
            Map.Entry<Long, Checkpoint<P>> oldest = byVersion.firstEntry();
            Map.Entry<Long, Checkpoint<P>> next = byVersion.higherEntry(oldest.getKey());
            if (next == null || !next.getValue().at().isBefore(horizon)) {
                break;
            }
            byVersion.pollFirstEntry();
        }
        return request;
    }

    /**
     * Where the journal was at {@code at}; null when reading it failed (a new one is read next
     * interval).
     */
    public void positionRead(Instant at, P position) {
        pending = position;
        pendingAt = position == null ? null : at;
    }

    /**
     * Whether a watch from {@code version} is past the retention: the cache was already beyond it
     * at a checkpoint older than {@code horizon}, and no checkpoint is at or below it.
     */
    public boolean expired(long version, Instant horizon) {
        Map.Entry<Long, Checkpoint<P>> first = byVersion.firstEntry();
        return byVersion.floorEntry(version) == null
                && first != null
                && first.getValue().at().isBefore(horizon);
    }

    /**
     * The journal position a watch from {@code version} reads from: the newest checkpoint at or
     * below it; empty to read the journal from its beginning.
     */
    public Optional<P> readFrom(long version) {
        return Optional.ofNullable(byVersion.floorEntry(version)).map(e -> e.getValue().position());
    }

    /** The checkpoints, oldest first. */
    public Collection<Checkpoint<P>> all() {
        return List.copyOf(byVersion.values());
    }
}
