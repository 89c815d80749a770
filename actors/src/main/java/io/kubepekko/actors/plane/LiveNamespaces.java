package io.kubepekko.actors.plane;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers for a short while which namespaces were seen to exist and not be terminating, so that a
 * burst of creates does not ask the namespaces collection once per object.
 *
 * <p>Like Kubernetes' NamespaceLifecycle admission, which answers from an informer cache, this
 * trades a short window for throughput: a create that races with the namespace's deletion may be
 * admitted. Every write to a namespace through this node forgets it at once, so on one node a
 * namespace deleted before a create began is never admitted; only entries younger than the
 * time-to-live are trusted. The cache is per node: a namespace deleted through another node is not
 * forgotten here, so for up to the time-to-live after that delete this node may still admit a
 * create into it (the namespace controller then deletes what was created, as it does for the race
 * above).
 */
final class LiveNamespaces {
    private final ConcurrentHashMap<String, Long> seenLiveAt = new ConcurrentHashMap<>();
    private final Clock clock;
    private final long ttlMillis;
    private static final int MAX_ENTRIES = 10_000;

    LiveNamespaces(Clock clock, Duration ttl) {
        this.clock = clock;
        this.ttlMillis = ttl.toMillis();
    }

    boolean isKnownLive(String namespace) {
        Long at = seenLiveAt.get(namespace);
        return at != null && clock.millis() - at < ttlMillis;
    }

    void markLive(String namespace) {
        if (seenLiveAt.size() >= MAX_ENTRIES) {
            seenLiveAt
                    .clear(); // a cache, not a registry: start over rather than grow without bound
        }
        seenLiveAt.put(namespace, clock.millis());
    }

    void forget(String namespace) {
        seenLiveAt.remove(namespace);
    }
}
