package io.kubepekko.api.watch;

import java.util.Objects;

/**
 * A committed change of one object, as the ordered stream feeds it to the watch cache.
 *
 * @param object the object after the change; for {@link Type#DELETED} its final state
 * @param previous the object before the change, or {@code null} when the producer does not have it
 *     (the cache then uses its own current entry)
 */
public record WatchEvent(
        Type type, long resourceVersion, ObjectKey key, byte[] object, byte[] previous) {

    /** The change kinds a store produces (bookmarks are the watch layer's business). */
    public enum Type {
        ADDED,
        MODIFIED,
        DELETED
    }

    public WatchEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(object, "object");
    }

    @Override
    public String toString() {
        return "WatchEvent[" + type + " " + key + "@" + resourceVersion + "]";
    }
}
