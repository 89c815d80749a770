package io.kubepekko.api.watch;

import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Where a watch starts, decided from its {@link ReadOptions} (SPEC's watch table and WatchList),
 * and how that resolves against a watch cache: the initial events (synthetic ADDED for the current
 * state), the retained events to replay, and the version after which live events follow.
 *
 * @param target whether the watch starts from the latest state or after a version
 * @param version with {@link Target#LATEST}, the version the state must have reached (0: any); with
 *     {@link Target#AFTER}, the version the watcher has seen
 * @param sendInitialEvents whether the current state is sent first as ADDED events
 */
public record WatchStart(Target target, long version, boolean sendInitialEvents) {

    /** The kinds of starting point. */
    public enum Target {
        /** The latest state once the cache reached {@code version}; live events after it. */
        LATEST,
        /** The events strictly after {@code version}, then live ones; no initial state. */
        AFTER
    }

    /** What a watch resolves to against the cache as it is now. */
    public sealed interface Outcome {
        /**
         * @param initial the initial ADDED events (lazily read from an immutable snapshot)
         * @param replay retained events after the start that the watcher must see
         * @param startVersion the version the initial state is at; {@code replay} follows it
         * @param liveAfter the version after which live events follow {@code replay}; a watch from
         *     a version the cache has not reached yet skips live events up to it
         */
        record Ready(
                Iterable<Delivery> initial,
                long startVersion,
                List<Delivery> replay,
                long liveAfter)
                implements Outcome {}

        /** The cache has not reached the version yet (or is still loading). */
        record Wait() implements Outcome {}

        /**
         * The version is older than the retained history: 410 Expired, unless older history can be
         * read.
         */
        record TooOld(ApiStatus status, long oldestRetained) implements Outcome {}
    }

    private static final Outcome WAIT = new Outcome.Wait();

    /**
     * The start a watch's options ask for.
     *
     * @param latestCommitted for {@link ReadOptions.Mode.MostRecent}: the highest committed version
     */
    public static WatchStart of(ReadOptions options, long latestCommitted) {
        ReadOptions.Mode mode = options.mode();
        boolean initial = options.sendInitialEvents();
        if (mode instanceof ReadOptions.Mode.MostRecent) {
            return new WatchStart(Target.LATEST, latestCommitted, initial);
        }
        if (mode instanceof ReadOptions.Mode.Any) {
            return new WatchStart(Target.LATEST, 0, initial);
        }
        if (mode instanceof ReadOptions.Mode.NotOlderThan n) {
            return new WatchStart(Target.LATEST, n.resourceVersion(), initial);
        }
        if (mode instanceof ReadOptions.Mode.Exact e) {
            return new WatchStart(Target.AFTER, e.resourceVersion(), false);
        }
        throw new IllegalArgumentException("a watch has no start for " + mode);
    }

    /** Resolves against {@code state} for a watcher of {@code filter}. */
    public Outcome resolve(CacheState state, WatchFilter filter) {
        if (state == null || !state.ready()) {
            return WAIT;
        }
        if (target == Target.AFTER && version >= state.resourceVersion()) {
            // Nothing to replay yet; kube-apiserver does not wait either: live events after the
            // version follow as they come.
            return new Outcome.Ready(List.of(), version, List.of(), version);
        }
        if (version > state.resourceVersion()) {
            return WAIT;
        }
        if (target == Target.LATEST) {
            Snapshot snapshot = state.snapshotLatest();
            Iterable<Delivery> initial =
                    sendInitialEvents
                            ? added(snapshot.matching(filter.namespace(), filter.selection()))
                            : List.of();
            return new Outcome.Ready(
                    initial, snapshot.resourceVersion(), List.of(), snapshot.resourceVersion());
        }
        Optional<List<Delivery>> retained = state.eventsAfter(version, filter.selection());
        if (retained.isEmpty()) {
            return new Outcome.TooOld(
                    ReadErrors.tooOldResourceVersion(version, state.oldestVersion()),
                    state.oldestVersion());
        }
        List<Delivery> replay = new ArrayList<>(retained.get().size());
        for (Delivery d : retained.get()) {
            if (filter.inNamespace(d.object())) {
                replay.add(d);
            }
        }
        return new Outcome.Ready(List.of(), version, replay, state.resourceVersion());
    }

    /**
     * The answer when the cache did not reach the version in time: kube-apiserver has already
     * answered 200, so it is the stream's one ERROR event (504 Too large resource version).
     */
    public ApiStatus timedOut(CacheState state) {
        return ReadErrors.tooLargeResourceVersion(
                version, state == null ? 0 : state.resourceVersion());
    }

    private static Iterable<Delivery> added(Iterable<CachedObject> objects) {
        return () ->
                new Iterator<>() {
                    private final Iterator<CachedObject> it = objects.iterator();

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Delivery next() {
                        CachedObject o = it.next();
                        return new Delivery(WatchEvent.Type.ADDED, o.resourceVersion(), o);
                    }
                };
    }
}
