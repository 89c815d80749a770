package io.kubepekko.api.auth.authorizer;

import io.kubepekko.api.auth.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's built-in authorizers and the union that chains the configured modes ({@code
 * --authorization-mode}), with kube's semantics.
 */
public final class Authorizers {

    /** kube's reason of the AlwaysDeny mode (a no opinion, so a later mode may still allow). */
    static final String EVERYTHING_IS_FORBIDDEN = "Everything is forbidden.";

    private static final Authorizer ALWAYS_ALLOW = attributes -> Decision.allow("");
    private static final Authorizer ALWAYS_DENY =
            attributes -> Decision.noOpinion(EVERYTHING_IS_FORBIDDEN);

    private Authorizers() {}

    /** The AlwaysAllow mode. */
    public static Authorizer alwaysAllow() {
        return ALWAYS_ALLOW;
    }

    /**
     * The AlwaysDeny mode. As in kube it answers no opinion with "Everything is forbidden.", not a
     * deny: a union that holds it after another mode still lets that mode allow.
     */
    public static Authorizer alwaysDeny() {
        return ALWAYS_DENY;
    }

    /**
     * kube's privileged-group authorizer, put first in the chain for {@code system:masters}: a
     * member of any of the groups is allowed everything, with an empty reason; anyone else gets no
     * opinion.
     */
    public static Authorizer privilegedGroups(String... groups) {
        Set<String> privileged = Set.of(groups);
        return attributes -> {
            for (String g : attributes.user().groups()) {
                if (privileged.contains(g)) {
                    return Decision.allow("");
                }
            }
            return Decision.noOpinion("");
        };
    }

    /** The allow-all for {@link UserInfo#MASTERS} every kube-apiserver puts first. */
    public static Authorizer systemMasters() {
        return privilegedGroups(UserInfo.MASTERS);
    }

    /**
     * kube's union: asks each authorizer in order; the first allow or deny is the answer with its
     * reason. When all have no opinion, the answer is no opinion with the non-empty reasons joined
     * by a newline.
     */
    public static Authorizer union(List<Authorizer> authorizers) {
        List<Authorizer> chain = List.copyOf(authorizers);
        return attributes -> {
            List<String> reasons = new ArrayList<>(0);
            for (Authorizer a : chain) {
                Decision d = a.authorize(attributes);
                if (d.outcome() != Decision.Outcome.NO_OPINION) {
                    return d;
                }
                if (!d.reason().isEmpty()) {
                    reasons.add(d.reason());
                }
            }
            return Decision.noOpinion(String.join("\n", reasons));
        };
    }

    /** {@link #union(List)} of the arguments. */
    public static Authorizer union(Authorizer... authorizers) {
        return union(List.of(authorizers));
    }
}
