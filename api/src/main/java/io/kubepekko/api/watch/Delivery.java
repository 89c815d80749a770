package io.kubepekko.api.watch;

/**
 * What one watcher receives for one {@link CachedEvent}: the type as seen through its selection
 * (see {@link CacheState#deliver}) and the object to send.
 */
public record Delivery(WatchEvent.Type type, long resourceVersion, CachedObject object)
        implements StreamEvent {}
