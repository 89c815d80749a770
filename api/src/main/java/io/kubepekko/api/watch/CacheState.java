package io.kubepekko.api.watch;

import io.kubepekko.api.registry.ResourceType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.pcollections.TreePMap;

/**
 * The data of one group-resource's watch cache: the current objects sorted by key, and a window of
 * recent events, each with the collection's state right after it. Serves lists at the latest
 * version or at an exact recent one, paging snapshots, and watch replay.
 *
 * <p><b>Immutable.</b> Every change ({@link #apply}, {@link #advance}, {@link #expire}, {@link
 * #rebuild}) returns a new state; the maps are persistent, so a new version costs a few tree nodes
 * and older versions ({@link Snapshot}s) stay valid and may be read from any thread while the owner
 * moves on.
 *
 * <p><b>Versions.</b> Events must arrive in strictly increasing resourceVersion; anything else
 * means the ordering protocol broke, so it is an {@link IllegalStateException}, never skipped. The
 * state is known at every version from {@link #oldestVersion()} to {@link #resourceVersion()}
 * (versions are global, so the versions between this collection's events are known too); outside
 * that range callers answer 410 Expired (too old) or wait (too new).
 */
public final class CacheState {

    /**
     * One retained event, when it was applied, and the objects right after it; {@code bytes} is
     * what only the window keeps alive because of it (the version it superseded, or the object it
     * deleted), and {@code bytesUpTo} the sum of that over the window's events up to this one
     * (since the window began).
     */
    private record Retained(
            CachedEvent event,
            Instant appliedAt,
            TreePMap<ObjectKey, CachedObject> objectsAfter,
            long bytes,
            long bytesUpTo) {}

    private final CachedObjectReader reader;
    private final Retention retention;
    private final TreePMap<ObjectKey, CachedObject> objects;
    private final long resourceVersion;
    private final TreePMap<Long, Retained> window;

    /**
     * The version just before the oldest retained event: the last dropped event's, or the start.
     */
    private final long oldestVersion;

    private final TreePMap<ObjectKey, CachedObject> oldestObjects;

    /**
     * During a warm start ({@link #warmStart}), the version the cache must reach before it may
     * serve; 0 once it is ready.
     */
    private final long readyAt;

    /** The JSON bytes of {@link #objects}: what the collection's live objects take, as stored. */
    private final long bytes;

    private CacheState(
            CachedObjectReader reader,
            Retention retention,
            TreePMap<ObjectKey, CachedObject> objects,
            long bytes,
            long resourceVersion,
            TreePMap<Long, Retained> window,
            long oldestVersion,
            TreePMap<ObjectKey, CachedObject> oldestObjects) {
        this(
                reader,
                retention,
                objects,
                bytes,
                resourceVersion,
                window,
                oldestVersion,
                oldestObjects,
                0);
    }

    private CacheState(
            CachedObjectReader reader,
            Retention retention,
            TreePMap<ObjectKey, CachedObject> objects,
            long bytes,
            long resourceVersion,
            TreePMap<Long, Retained> window,
            long oldestVersion,
            TreePMap<ObjectKey, CachedObject> oldestObjects,
            long readyAt) {
        this.readyAt = readyAt;
        this.bytes = bytes;
        this.reader = reader;
        this.retention = retention;
        this.objects = objects;
        this.resourceVersion = resourceVersion;
        this.window = window;
        this.oldestVersion = oldestVersion;
        this.oldestObjects = oldestObjects;
    }

    /** An empty collection known up to {@code resourceVersion}. */
    public static CacheState empty(ResourceType type, Retention retention, long resourceVersion) {
        return build(new CachedObjectReader(type), retention, List.of(), resourceVersion);
    }

    /**
     * A state holding {@code storedObjects} (their JSON as persisted) as of {@code
     * resourceVersion}, with no history: watches must start at or after that version.
     *
     * @throws IllegalStateException if two objects share a key or one is newer than {@code
     *     resourceVersion}
     */
    public static CacheState build(
            ResourceType type,
            Retention retention,
            Iterable<byte[]> storedObjects,
            long resourceVersion) {
        return build(new CachedObjectReader(type), retention, storedObjects, resourceVersion);
    }

    /** The same type and retention, started afresh from durable state (after an epoch change). */
    public CacheState rebuild(Iterable<byte[]> storedObjects, long resourceVersion) {
        return build(reader, retention, storedObjects, resourceVersion);
    }

    private static CacheState build(
            CachedObjectReader reader,
            Retention retention,
            Iterable<byte[]> storedObjects,
            long resourceVersion) {
        Objects.requireNonNull(retention, "retention");
        TreePMap<ObjectKey, CachedObject> objects = TreePMap.empty();
        long bytes = 0;
        for (byte[] json : storedObjects) {
            CachedObject o = reader.read(json);
            if (o.resourceVersion() > resourceVersion) {
                throw new IllegalStateException(
                        o + " is newer than the rebuild version " + resourceVersion);
            }
            if (objects.containsKey(o.key())) {
                throw new IllegalStateException("two stored objects for " + o.key());
            }
            objects = objects.plus(o.key(), o);
            bytes += json.length;
        }
        return new CacheState(
                reader,
                retention,
                objects,
                bytes,
                resourceVersion,
                TreePMap.empty(),
                resourceVersion,
                objects);
    }

    /**
     * Applies one committed event at {@code now} and retires history that has grown too old or too
     * long.
     *
     * @throws IllegalStateException if the event is not newer than {@link #resourceVersion()}
     */
    public CacheState apply(WatchEvent event, Instant now) {
        if (event.resourceVersion() <= resourceVersion) {
            throw new IllegalStateException(
                    "event " + event + " is not after the cache's version " + resourceVersion);
        }
        ObjectKey key = event.key();
        CachedObject held = objects.get(key);
        CachedObject previous = held;
        if (previous == null && event.previous() != null) {
            previous = reader.read(event.previous());
        }
        CachedObject object = reader.read(event.object(), key, event.resourceVersion());
        boolean deleted = event.type() == WatchEvent.Type.DELETED;
        TreePMap<ObjectKey, CachedObject> next =
                deleted ? objects.minus(key) : objects.plus(key, object);
        long nextBytes =
                bytes
                        - (held == null ? 0 : held.json().length)
                        + (deleted ? 0 : object.json().length);
        CachedEvent cached =
                new CachedEvent(event.type(), event.resourceVersion(), object, previous);
        long superseded =
                (previous == null ? 0 : previous.json().length)
                        + (deleted ? object.json().length : 0);
        long upTo = (window.isEmpty() ? 0 : window.lastEntry().getValue().bytesUpTo()) + superseded;
        TreePMap<Long, Retained> grown =
                window.plus(
                        event.resourceVersion(), new Retained(cached, now, next, superseded, upTo));
        return new CacheState(
                        reader,
                        retention,
                        next,
                        nextBytes,
                        event.resourceVersion(),
                        grown,
                        oldestVersion,
                        oldestObjects,
                        readyAt)
                .trimmed(now);
    }

    /**
     * Records that every event up to {@code resourceVersion} has been applied although none of them
     * touched this collection (a progress notification), so a list waiting for that version can be
     * served.
     *
     * @throws IllegalStateException if {@code resourceVersion} is below the current one
     */
    public CacheState advance(long resourceVersion, Instant now) {
        if (resourceVersion < this.resourceVersion) {
            throw new IllegalStateException(
                    "cannot go back from " + this.resourceVersion + " to " + resourceVersion);
        }
        return new CacheState(
                        reader,
                        retention,
                        objects,
                        bytes,
                        resourceVersion,
                        window,
                        oldestVersion,
                        oldestObjects,
                        readyAt)
                .trimmed(now)
                .settledIfReady();
    }

    /**
     * Drops events that have become too old by {@code now}, for a cache that receives no writes.
     */
    public CacheState expire(Instant now) {
        return trimmed(now);
    }

    private CacheState trimmed(Instant now) {
        TreePMap<Long, Retained> w = window;
        long oldest = oldestVersion;
        TreePMap<ObjectKey, CachedObject> oldestState = oldestObjects;
        Instant cutoff = now.minus(retention.maxAge());
        while (!w.isEmpty()) {
            Map.Entry<Long, Retained> first = w.firstEntry();
            boolean tooMany = w.size() > retention.maxEvents();
            boolean tooOld = !first.getValue().appliedAt().isAfter(cutoff);
            boolean tooLarge = w.size() > 1 && retainedBytes(w) > retention.maxBytes();
            if (!tooMany && !tooOld && !tooLarge) {
                break;
            }
            oldest = first.getKey();
            oldestState = first.getValue().objectsAfter();
            w = w.minusFirstEntry();
        }
        if (w == window) {
            return this;
        }
        return new CacheState(
                reader,
                retention,
                objects,
                bytes,
                resourceVersion,
                w,
                oldest,
                oldestState,
                readyAt);
    }

    /**
     * What the window alone keeps alive: the versions its events superseded and the objects they
     * deleted.
     */
    private static long retainedBytes(TreePMap<Long, Retained> w) {
        Retained first = w.firstEntry().getValue();
        return w.lastEntry().getValue().bytesUpTo() - first.bytesUpTo() + first.bytes();
    }

    /**
     * The bytes of superseded and deleted objects the window of recent events keeps (see {@link
     * Retention#maxBytes}).
     */
    public long retainedBytes() {
        return window.isEmpty() ? 0 : retainedBytes(window);
    }

    /**
     * A cache started from objects read <em>after</em> subscribing to the ordered stream, which had
     * been released up to {@code startVersion}: some objects may already be newer than that. Feed
     * the stream through {@link #catchUp}; the cache is {@link #ready()} once it has reached the
     * newest object read, and its history starts there, so every snapshot it serves is exact.
     */
    public static CacheState warmStart(
            ResourceType type,
            Retention retention,
            Iterable<byte[]> storedObjects,
            long startVersion) {
        return warmStart(type, retention, storedObjects, startVersion, 0);
    }

    /**
     * {@link #warmStart(ResourceType, Retention, Iterable, long)} where the collections read had
     * applied changes up to {@code readVersion}. A removal leaves no object behind to say how new
     * the read was, so the readers report it; the cache is ready no earlier than that version.
     */
    public static CacheState warmStart(
            ResourceType type,
            Retention retention,
            Iterable<byte[]> storedObjects,
            long startVersion,
            long readVersion) {
        CachedObjectReader reader = new CachedObjectReader(type);
        TreePMap<ObjectKey, CachedObject> objects = TreePMap.empty();
        long newest = Math.max(startVersion, readVersion);
        long bytes = 0;
        for (byte[] json : storedObjects) {
            CachedObject o = reader.read(json);
            if (objects.containsKey(o.key())) {
                throw new IllegalStateException("two stored objects for " + o.key());
            }
            objects = objects.plus(o.key(), o);
            newest = Math.max(newest, o.resourceVersion());
            bytes += json.length;
        }
        CacheState s =
                new CacheState(
                        reader,
                        Objects.requireNonNull(retention, "retention"),
                        objects,
                        bytes,
                        startVersion,
                        TreePMap.empty(),
                        startVersion,
                        objects,
                        newest);
        return s.settledIfReady();
    }

    /**
     * Applies one event of the ordered stream to a warm-starting (or ready) cache: events at or
     * below the cache's version are already reflected; an event whose object the cache already
     * holds at that version or later only advances the version; anything else is applied.
     */
    public CacheState catchUp(WatchEvent event, Instant now) {
        if (event.resourceVersion() <= resourceVersion) {
            return this;
        }
        CachedObject cached = objects.get(event.key());
        CacheState next =
                cached != null && cached.resourceVersion() >= event.resourceVersion()
                        ? advance(event.resourceVersion(), now)
                        : apply(event, now);
        return next.settledIfReady();
    }

    /** Whether a warm start has caught up, so the cache may serve reads and watches. */
    public boolean ready() {
        return readyAt == 0;
    }

    /**
     * The version a warm start must reach before the cache serves; 0 once it is {@link #ready()}.
     */
    public long readyAt() {
        return readyAt;
    }

    /**
     * Once a warm start reaches its target, history restarts at that point so snapshots stay exact.
     */
    private CacheState settledIfReady() {
        if (readyAt == 0 || resourceVersion < readyAt) {
            return this;
        }
        return new CacheState(
                reader,
                retention,
                objects,
                bytes,
                resourceVersion,
                TreePMap.empty(),
                resourceVersion,
                objects,
                0);
    }

    /**
     * The JSON bytes of the live objects, as stored: what the collection's objects take in memory
     * here and in their collections, and what the storage quota counts.
     */
    public long bytes() {
        return bytes;
    }

    /** The latest version the cache has applied (or started from). */
    public long resourceVersion() {
        return resourceVersion;
    }

    /** The oldest version the cache can serve exactly or replay from; older ones are Expired. */
    public long oldestVersion() {
        return oldestVersion;
    }

    /** How many events the window holds. */
    public int retainedEvents() {
        return window.size();
    }

    /** The newest retained event (right after {@link #apply}, the one just applied). */
    public Optional<CachedEvent> latestEvent() {
        return window.isEmpty()
                ? Optional.empty()
                : Optional.of(window.lastEntry().getValue().event());
    }

    public Snapshot snapshotLatest() {
        return new Snapshot(resourceVersion, objects);
    }

    /**
     * The collection exactly at {@code resourceVersion}, or empty when that is outside [{@link
     * #oldestVersion()}, {@link #resourceVersion()}]: callers answer 410 Expired when it is older,
     * and wait for the cache when it is newer.
     */
    public Optional<Snapshot> snapshot(long resourceVersion) {
        if (resourceVersion < oldestVersion || resourceVersion > this.resourceVersion) {
            return Optional.empty();
        }
        Map.Entry<Long, Retained> atOrBefore = window.floorEntry(resourceVersion);
        return Optional.of(
                new Snapshot(
                        resourceVersion,
                        atOrBefore == null ? oldestObjects : atOrBefore.getValue().objectsAfter()));
    }

    /**
     * When version {@code resourceVersion} stopped being the latest: the time the first retained
     * event after it was applied. Empty while it is still the latest (or newer); a version older
     * than {@link #oldestVersion()} has no answer and is expired anyway.
     */
    public Optional<Instant> supersededAt(long resourceVersion) {
        Map.Entry<Long, Retained> next = window.higherEntry(resourceVersion);
        return next == null ? Optional.empty() : Optional.of(next.getValue().appliedAt());
    }

    /** {@link Snapshot#list}, for callers holding the cache. */
    public Page list(
            Snapshot snapshot,
            String namespace,
            Selection selection,
            int limit,
            String startAfterKey) {
        return snapshot.list(namespace, selection, limit, startAfterKey);
    }

    /**
     * What a watch started at {@code resourceVersion} replays: the retained events after it, in
     * order, as {@code selection} sees them ({@link #deliver}). Empty when events after that
     * version have been dropped (410 Expired). A version newer than {@link #resourceVersion()}
     * yields an empty list; callers wait for it instead.
     */
    public Optional<List<Delivery>> eventsAfter(long resourceVersion, Selection selection) {
        if (resourceVersion < oldestVersion) {
            return Optional.empty();
        }
        List<Delivery> out = new ArrayList<>();
        for (Retained r : window.tailMap(resourceVersion, false).values()) {
            deliver(r.event(), selection).ifPresent(out::add);
        }
        return Optional.of(out);
    }

    /**
     * How one event looks to a watcher with {@code selection}, comparing the states before and
     * after as kube-apiserver's cacher does: matching after but not before is ADDED, before but not
     * after (including any deletion of a matching object) is DELETED, both is MODIFIED, neither is
     * nothing.
     *
     * <p>A deletion sends the object's final state; an object that merely stopped matching is sent
     * in its previous state with the event's resourceVersion, as Kubernetes does.
     */
    public static Optional<Delivery> deliver(CachedEvent event, Selection selection) {
        boolean deleted = event.type() == WatchEvent.Type.DELETED;
        boolean matchesAfter = !deleted && selection.matches(event.object());
        CachedObject before =
                event.previous() != null ? event.previous() : deleted ? event.object() : null;
        boolean matchedBefore = before != null && selection.matches(before);
        if (matchesAfter) {
            return Optional.of(
                    new Delivery(
                            matchedBefore ? WatchEvent.Type.MODIFIED : WatchEvent.Type.ADDED,
                            event.resourceVersion(),
                            event.object()));
        }
        if (!matchedBefore) {
            return Optional.empty();
        }
        CachedObject sent = deleted ? event.object() : event.previousAtThisVersion();
        return Optional.of(new Delivery(WatchEvent.Type.DELETED, event.resourceVersion(), sent));
    }
}
