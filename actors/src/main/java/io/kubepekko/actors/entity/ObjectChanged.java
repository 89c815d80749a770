package io.kubepekko.actors.entity;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.api.watch.WatchEvent;

/**
 * One object changed at {@code resourceVersion}. {@code after} is its state after the change — for
 * a removal, its final state, which a DELETED watch event carries. {@code committedAt} (epoch
 * milliseconds, 0 in events written before it existed) is when the change was made: how old a
 * watch's missed history is, when it resumes from the journal.
 */
public record ObjectChanged(
        long resourceVersion,
        String name,
        byte[] before,
        byte[] after,
        boolean removed,
        long committedAt)
        implements CollectionEvent {

    /** The change as the ordered stream publishes it. */
    public PublishedEvent published(String namespace) {
        WatchEvent.Type type =
                removed
                        ? WatchEvent.Type.DELETED
                        : before == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED;
        return new PublishedEvent(resourceVersion, namespace, name, type, after, before);
    }
}
