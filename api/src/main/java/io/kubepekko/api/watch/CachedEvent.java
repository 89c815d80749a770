package io.kubepekko.api.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * A {@link WatchEvent} as the cache retains it: both states already read into {@link CachedObject}s
 * so that every watcher's selection is evaluated without parsing JSON.
 *
 * <p>Confined to the cache's owner: {@link #previousAtThisVersion()} is computed once on first use.
 */
public final class CachedEvent {

    private final WatchEvent.Type type;
    private final long resourceVersion;
    private final CachedObject object;
    private final CachedObject previous;
    private CachedObject previousAtThisVersion;

    /**
     * @param object the state after the change (for a deletion, the final state)
     * @param previous the state before the change, or {@code null} for a creation or when unknown
     */
    public CachedEvent(
            WatchEvent.Type type,
            long resourceVersion,
            CachedObject object,
            CachedObject previous) {
        this.type = Objects.requireNonNull(type, "type");
        this.resourceVersion = resourceVersion;
        this.object = Objects.requireNonNull(object, "object");
        this.previous = previous;
    }

    public WatchEvent.Type type() {
        return type;
    }

    public long resourceVersion() {
        return resourceVersion;
    }

    public CachedObject object() {
        return object;
    }

    public CachedObject previous() {
        return previous;
    }

    public ObjectKey key() {
        return object.key();
    }

    /**
     * The state before the change, carrying this event's resourceVersion: what kube-apiserver sends
     * as DELETED to a watcher whose selection the object stopped matching (so the watcher resumes
     * from the right version). Re-serialized once, on first use.
     */
    public CachedObject previousAtThisVersion() {
        if (previousAtThisVersion == null) {
            ObjectNode tree = Json.parseTrusted(previous.json());
            ObjectMeta.of(tree).put("resourceVersion", Long.toString(resourceVersion));
            previousAtThisVersion =
                    new CachedObject(
                            previous.key(),
                            resourceVersion,
                            Json.bytes(tree),
                            previous.labels(),
                            previous.fields());
        }
        return previousAtThisVersion;
    }

    @Override
    public String toString() {
        return "CachedEvent[" + type + " " + object.key() + "@" + resourceVersion + "]";
    }
}
