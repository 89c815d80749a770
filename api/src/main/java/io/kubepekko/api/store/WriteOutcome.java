package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The result of one write, before a resourceVersion is assigned.
 *
 * @param before the stored object before the write ({@code null} for a create)
 * @param after the object as it is after the write; when it {@link #removes}, its final state,
 *     which the DELETED event carries
 * @param answer which {@link WriteResult} the write answers
 * @param changed {@code false} for a no-op write: nothing is persisted and the resourceVersion
 *     stays (only an {@link Answer#ACCEPTED} delete may go either way)
 * @param view what the response body shows (see {@link ResponseView})
 * @param warnings {@code Warning} header texts (unknown fields under {@code Warn})
 */
public record WriteOutcome(
        ObjectNode before,
        ObjectNode after,
        Answer answer,
        boolean changed,
        ResponseView view,
        List<String> warnings)
        implements WriteDecision {

    public WriteOutcome {
        if (changed != (answer != Answer.UNCHANGED) && answer != Answer.ACCEPTED) {
            throw new IllegalArgumentException(answer + " with changed=" + changed);
        }
    }

    /** Which {@link WriteResult.Success} a write answers. */
    public enum Answer {
        CREATED,
        UPDATED,
        UNCHANGED,
        DELETED,
        ACCEPTED
    }

    /** Whether the write removes the object from the collection. */
    public boolean removes() {
        return answer == Answer.DELETED;
    }

    /** The same outcome answering with other warnings. */
    public WriteOutcome withWarnings(List<String> all) {
        return new WriteOutcome(before, after, answer, changed, view, all);
    }

    /**
     * The answer, once the write is persisted at {@code resourceVersion} (0: not persisted) and
     * rendered.
     */
    public WriteResult.Success result(byte[] body, long resourceVersion) {
        return switch (answer) {
            case CREATED -> new WriteResult.Created(body, warnings, resourceVersion);
            case UPDATED -> new WriteResult.Updated(body, warnings, resourceVersion);
            case UNCHANGED -> new WriteResult.Unchanged(body, warnings, resourceVersion);
            case DELETED -> new WriteResult.Deleted(body, warnings, resourceVersion);
            case ACCEPTED -> new WriteResult.Accepted(body, warnings, resourceVersion);
        };
    }

    /** What a successful write answers with, rendered once the resourceVersion is known. */
    public enum ResponseView {
        /** The stored object. */
        OBJECT,
        /** The stored object as an {@code autoscaling/v1 Scale}. */
        SCALE,
        /** The object just removed, as a {@code Status} of success. */
        DELETED,
        /**
         * Only a {@code Status} of success with the answer's code (a create through a subresource).
         */
        SUCCESS
    }
}
