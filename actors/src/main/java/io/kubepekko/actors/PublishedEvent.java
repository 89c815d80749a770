package io.kubepekko.actors;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.persistence.CborSerializable;

/**
 * One committed change as Revisions publishes it, in resourceVersion order, to the readers of a
 * group-resource.
 *
 * @param type the watch event type it becomes, from the entity's change to the wire
 * @param object the object's JSON after the change (for DELETED, its final state)
 * @param previous the object's JSON before the change, or {@code null} for ADDED
 */
public record PublishedEvent(
        long resourceVersion,
        String namespace,
        String name,
        WatchEvent.Type type,
        byte[] object,
        byte[] previous)
        implements CborSerializable {

    /** About how many bytes the event takes in a message: its objects' JSON. */
    @JsonIgnore
    public long size() {
        return (object == null ? 0 : object.length) + (previous == null ? 0 : previous.length);
    }
}
