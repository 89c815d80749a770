package io.kubepekko.api.auth.node;

import io.kubepekko.api.auth.UserInfo;
import java.util.Optional;

/**
 * Which node a user is, as kube's default {@code nodeidentifier}: a user is a node only when it is
 * in the group {@value #NODES_GROUP} and named {@code system:node:<nodeName>}. Kubelet client
 * certificates carry exactly that subject.
 */
public final class NodeIdentifier {

    /** kube's group of node users. */
    public static final String NODES_GROUP = "system:nodes";

    /** The user-name prefix of node users. */
    public static final String USER_PREFIX = "system:node:";

    private NodeIdentifier() {}

    /**
     * The node {@code user} stands for: empty when the user is not a node; a present but empty name
     * when the user is a node kube cannot name (user {@code system:node:}), which the node
     * authorizer refuses with its own reason.
     */
    public static Optional<String> nodeName(UserInfo user) {
        if (user == null || !user.name().startsWith(USER_PREFIX) || !user.inGroup(NODES_GROUP)) {
            return Optional.empty();
        }
        return Optional.of(user.name().substring(USER_PREFIX.length()));
    }

    /** The user name of node {@code nodeName}. */
    public static String userName(String nodeName) {
        return USER_PREFIX + nodeName;
    }
}
