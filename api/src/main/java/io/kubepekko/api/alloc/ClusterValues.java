package io.kubepekko.api.alloc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Set;

/**
 * Declared by a kind whose objects hold values that must be unique across the whole cluster, not
 * just within their collection (a Service's cluster IP and node ports). The kind's strategy returns
 * it ({@link io.kubepekko.api.registry.Strategy#clusterValues()}); the collection's writer then
 * claims the planned values from the named allocator before it persists a write, and tells the
 * allocator which values its objects stopped holding once the write is persisted.
 *
 * <p>All methods are pure. The protocol around them (who asks whom, what is durable when) belongs
 * to the actors; this interface only says what a kind needs and holds.
 */
public interface ClusterValues {

    /**
     * The allocator this kind claims from; kinds whose values must not collide name the same one.
     */
    String allocator();

    /**
     * The values a stored object holds, as {@link Claims#key} keys: what an allocator reconciles
     * against, and what a write releases when the object stops holding it.
     */
    Set<String> held(ObjectNode object);

    /**
     * Prepares a validated write for allocation: fills in {@code after} what allocation decides
     * without the allocator (a Service's IP families), and answers what must be claimed. Values
     * {@code before} already holds are never planned again.
     *
     * @param before the stored object, or {@code null} for a create
     * @param after the object the write would store; mutated
     * @throws io.kubepekko.api.status.ApiException when the object asks for something this server
     *     cannot give
     */
    ValuePlan plan(ObjectNode before, ObjectNode after);

    /** Writes the granted values (in plan order) into {@code after}. */
    void fill(ObjectNode after, ValuePlan plan, List<String> granted);

    /**
     * The error a write answers with when request {@code index} of its plan was refused, worded as
     * Kubernetes words it.
     */
    ApiStatus refused(ObjectNode after, ValuePlan plan, int index, Refusal refusal);
}
