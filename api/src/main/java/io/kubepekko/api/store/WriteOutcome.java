package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * The result of one write, before a resourceVersion is assigned.
 *
 * @param before   the stored object before the write ({@code null} for a create)
 * @param after    the object as it is after the write; when {@code removes}, its final state, which the
 *                 DELETED event carries
 * @param removes  whether the write removes the object from the collection
 * @param view     what the response body shows (see {@link ResponseView})
 * @param created  whether the answer is 201 Created
 * @param changed  {@code false} for a no-op write: nothing is persisted and the resourceVersion stays
 * @param warnings {@code Warning} header texts (unknown fields under {@code Warn})
 * @param accepted whether the answer is 202 Accepted: a delete that asked for cascading deletion with
 *                 {@code orphanDependents=false} and left the object in place
 */
public record WriteOutcome(ObjectNode before, ObjectNode after, boolean removes, ResponseView view, boolean created,
                           boolean changed, List<String> warnings, boolean accepted) {

    public WriteOutcome(ObjectNode before, ObjectNode after, boolean removes, ResponseView view, boolean created,
                        boolean changed, List<String> warnings) {
        this(before, after, removes, view, created, changed, warnings, false);
    }

    /** The HTTP status of the answer. */
    public int code() {
        return created ? 201 : accepted ? 202 : 200;
    }

    /** What a successful write answers with, rendered once the resourceVersion is known. */
    public enum ResponseView {
        /** The stored object. */
        OBJECT,
        /** The stored object as an {@code autoscaling/v1 Scale}. */
        SCALE,
        /** The object just removed, as a {@code Status} of success. */
        DELETED,
        /** Only a {@code Status} of success with the answer's code (a create through a subresource). */
        SUCCESS
    }
}
