package io.kubepekko.api.auth.authorizer;

import java.util.Objects;

/**
 * An authorizer's answer, as kube's {@code authorizer.Decision} with its reason string. {@link
 * Outcome#NO_OPINION} lets the next authorizer in a union decide; when none allows, the request is
 * forbidden and the collected reasons are appended to kube's 403 message.
 *
 * @param outcome allow, deny or no opinion
 * @param reason why, for the 403 message, audit and SubjectAccessReview status; may be empty
 */
public record Decision(Outcome outcome, String reason) {

    /** kube's three decisions. */
    public enum Outcome {
        ALLOW,
        DENY,
        NO_OPINION
    }

    public Decision {
        Objects.requireNonNull(outcome, "outcome");
        reason = reason == null ? "" : reason;
    }

    public static Decision allow(String reason) {
        return new Decision(Outcome.ALLOW, reason);
    }

    public static Decision deny(String reason) {
        return new Decision(Outcome.DENY, reason);
    }

    public static Decision noOpinion(String reason) {
        return new Decision(Outcome.NO_OPINION, reason);
    }

    public boolean allowed() {
        return outcome == Outcome.ALLOW;
    }
}
