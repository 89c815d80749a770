package io.kubepekko.api.watch;

import java.util.Objects;
import java.util.Optional;

/**
 * What one watcher sees: the objects of one namespace (or all) that its selection matches.
 *
 * @param namespace the watched namespace, or {@code null} for all namespaces
 */
public record WatchFilter(String namespace, Selection selection) {

    public WatchFilter {
        Objects.requireNonNull(selection, "selection");
    }

    public boolean inNamespace(CachedObject object) {
        return namespace == null || namespace.equals(object.key().namespace());
    }

    /**
     * How {@code event} looks to this watcher, if it sees it at all ({@link CacheState#deliver}).
     */
    public Optional<Delivery> deliver(CachedEvent event) {
        if (!inNamespace(event.object())) {
            return Optional.empty();
        }
        return CacheState.deliver(event, selection);
    }
}
