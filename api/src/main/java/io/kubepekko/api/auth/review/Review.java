package io.kubepekko.api.auth.review;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;

/**
 * How one review resource answers a create: validates the decoded body, asks {@link AccessReviews}
 * and returns the object kube would answer with 201. Nothing is stored. Implementations are pure
 * and live in {@link Reviews}; the HTTP layer finds a kind's on its registry entry.
 */
public interface Review {

    /**
     * The answer to a create of {@code body}: the object kube answers with 201, or kube's 400 or
     * 422 for a body it refuses, as a value.
     *
     * @param body the decoded request body (kind and apiVersion checked, namespace aligned with the
     *     URL's as for every create); the method may change and return it
     */
    Answer answer(ObjectNode body, Context context);

    /** A review's answer. */
    sealed interface Answer {
        /** The object to answer with 201. */
        record Answered(ObjectNode object) implements Answer {}

        /** The body is refused with {@code status}. */
        record Refused(ApiStatus status) implements Answer {}
    }

    /**
     * What a review knows of its request.
     *
     * @param namespace the URL's namespace, {@code null} for a cluster-scoped review
     * @param requester who sent the request (the subject of the Self* reviews)
     * @param reviews the authenticators and authorizers to ask
     * @param now the request's time
     */
    record Context(String namespace, UserInfo requester, AccessReviews reviews, Instant now) {}
}
