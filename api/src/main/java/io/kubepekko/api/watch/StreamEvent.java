package io.kubepekko.api.watch;

import io.kubepekko.api.status.ApiStatus;

/**
 * One element of a watch stream, before the HTTP layer frames it: a change as the watcher's
 * selection sees it ({@link Delivery}), a {@link Bookmark}, or a terminal {@link Failure}.
 */
public sealed interface StreamEvent permits Delivery, StreamEvent.Bookmark, StreamEvent.Failure {

    /**
     * Every change up to {@code resourceVersion} has been sent. {@code initialEventsEnd} marks the
     * end of a WatchList's initial events (annotation {@code k8s.io/initial-events-end: "true"}).
     */
    record Bookmark(long resourceVersion, boolean initialEventsEnd) implements StreamEvent {}

    /** The watch cannot go on (for example 410 Expired); the stream ends after it. */
    record Failure(ApiStatus status) implements StreamEvent {}
}
