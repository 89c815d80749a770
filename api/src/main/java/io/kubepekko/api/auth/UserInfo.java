package io.kubepekko.api.auth;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who made a request, as an authenticator established it: kube's {@code user.Info}. The name is the
 * user name RBAC subjects of kind User match; groups are matched by subjects of kind Group; extra
 * carries authenticator-specific facts (a service-account token's pod name, for instance) that
 * reviews and audit report but authorization ignores.
 *
 * @param name the user name; empty only for the subject of an access review that names groups alone
 *     (authenticators never prove a nameless user)
 * @param uid the user's unique id, empty when the authenticator knows none
 * @param groups the groups in the order the authenticator listed them
 * @param extra extra attributes, keyed by their (lower-case) name
 */
public record UserInfo(
        String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    /** kube's group of every authenticated user. */
    public static final String AUTHENTICATED = "system:authenticated";

    /** kube's group of anonymous requests. */
    public static final String UNAUTHENTICATED = "system:unauthenticated";

    /** kube's user name of anonymous requests. */
    public static final String ANONYMOUS = "system:anonymous";

    /** kube's group whose members every authorizer allows everything. */
    public static final String MASTERS = "system:masters";

    public UserInfo {
        Objects.requireNonNull(name, "name");
        uid = uid == null ? "" : uid;
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }

    /** A user with a name and groups, no uid and no extra attributes. */
    public static UserInfo of(String name, List<String> groups) {
        return new UserInfo(name, "", groups, Map.of());
    }

    /** The user of a request that presented no credential, when anonymous requests are allowed. */
    public static UserInfo anonymous() {
        return of(ANONYMOUS, List.of(UNAUTHENTICATED));
    }

    /** Whether this user is in {@code group}. */
    public boolean inGroup(String group) {
        return groups.contains(group);
    }
}
