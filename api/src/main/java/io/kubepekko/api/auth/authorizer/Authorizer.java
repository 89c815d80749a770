package io.kubepekko.api.auth.authorizer;

/**
 * Decides whether a request may proceed: kube's {@code authorizer.Authorizer}. Implementations are
 * pure over the state they were built with, never throw for any input, and answer {@link
 * Decision.Outcome#NO_OPINION} for requests they have nothing to say about so a union can ask the
 * next one.
 */
@FunctionalInterface
public interface Authorizer {

    /** The decision for one request. */
    Decision authorize(AuthorizationAttributes attributes);
}
