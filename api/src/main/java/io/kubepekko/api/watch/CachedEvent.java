package io.kubepekko.api.watch;

import java.util.Objects;

/**
 * A {@link WatchEvent} as the cache retains it: both states already read into
 * {@link CachedObject}s so that every watcher's selection is evaluated without parsing JSON.
 *
 * @param object   the state after the change (for a deletion, the final state)
 * @param previous the state before the change, or {@code null} for a creation or when unknown
 */
public record CachedEvent(WatchEvent.Type type, long resourceVersion, CachedObject object, CachedObject previous) {

    public CachedEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(object, "object");
    }

    public ObjectKey key() {
        return object.key();
    }
}
