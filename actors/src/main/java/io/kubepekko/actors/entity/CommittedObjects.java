package io.kubepekko.actors.entity;

import java.util.concurrent.ConcurrentHashMap;
import org.pcollections.TreePMap;

/**
 * The committed objects of the collections whose entities run on this node, readable without a
 * message: a "Most Recent" GET of one object is the hottest read there is, and asking the entity
 * through sharding costs three actor hand-offs each way for a map lookup.
 *
 * <p>An entity publishes its objects once recovered and after each persisted batch, <em>before</em>
 * it acknowledges the batch's writes, so a read that starts after an acknowledgement sees the write
 * (what a "Most Recent" read promises). It withdraws them when it stops or restarts; a collection
 * with nothing published here is read by asking its entity, which starts it. The maps are
 * persistent (immutable) maps, so publishing shares, never copies.
 */
public final class CommittedObjects {

    /** One entity incarnation's objects; withdrawing checks the owner so a successor's stay. */
    private record View(Object owner, TreePMap<String, byte[]> objects) {}

    private final ConcurrentHashMap<String, View> views = new ConcurrentHashMap<>();

    /**
     * Publishes {@code objects} as the committed state of collection {@code entityId}, owned by
     * {@code owner}.
     */
    void publish(String entityId, Object owner, TreePMap<String, byte[]> objects) {
        views.put(entityId, new View(owner, objects));
    }

    /**
     * Withdraws {@code owner}'s view of collection {@code entityId}, if it is still the published
     * one.
     */
    void withdraw(String entityId, Object owner) {
        views.computeIfPresent(entityId, (k, v) -> v.owner() == owner ? null : v);
    }

    /**
     * The committed objects of collection {@code entityId}, or {@code null} when its entity does
     * not run here.
     */
    public TreePMap<String, byte[]> of(String entityId) {
        View v = views.get(entityId);
        return v == null ? null : v.objects();
    }
}
