package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.FieldError;

/**
 * Whom a binding grants its role: a User, a Group or a ServiceAccount ({@code rbac/v1 Subject}).
 *
 * @param kind {@code User}, {@code Group} or {@code ServiceAccount}; any other kind never applies
 * @param name the user, group or service-account name
 * @param namespace a service account's namespace; empty in a RoleBinding means the binding's
 */
public record Subject(String kind, String name, String namespace) {

    public static final String USER = "User";
    public static final String GROUP = "Group";
    public static final String SERVICE_ACCOUNT = "ServiceAccount";

    /** kube's prefix of a service account's user name: {@code system:serviceaccount:ns:name}. */
    public static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

    public Subject {
        kind = kind == null ? "" : kind;
        name = name == null ? "" : name;
        namespace = namespace == null ? "" : namespace;
    }

    public static Subject user(String name) {
        return new Subject(USER, name, "");
    }

    public static Subject group(String name) {
        return new Subject(GROUP, name, "");
    }

    public static Subject serviceAccount(String namespace, String name) {
        return new Subject(SERVICE_ACCOUNT, name, namespace);
    }

    static Subject fromJson(JsonNode s) {
        return new Subject(
                s.path("kind").asText(""),
                s.path("name").asText(""),
                s.path("namespace").asText(""));
    }

    /**
     * kube's {@code appliesToUser}. A service account without a namespace takes the binding's, and
     * never applies from a ClusterRoleBinding (whose namespace is empty).
     */
    public boolean appliesTo(UserInfo user, String bindingNamespace) {
        return switch (kind) {
            case USER -> user.name().equals(name);
            case GROUP -> user.inGroup(name);
            case SERVICE_ACCOUNT -> {
                String userName = serviceAccountUserName(bindingNamespace);
                yield userName != null && user.name().equals(userName);
            }
            default -> false;
        };
    }

    /**
     * The user name a service-account subject stands for in a binding of {@code bindingNamespace};
     * null when it has no namespace.
     */
    String serviceAccountUserName(String bindingNamespace) {
        String ns = namespace.isEmpty() ? bindingNamespace : namespace;
        return ns.isEmpty() ? null : SERVICE_ACCOUNT_PREFIX + ns + ":" + name;
    }

    /**
     * kube's {@code describeSubject} for reasons: {@code User "alice"}, {@code ServiceAccount
     * "name/ns"}.
     */
    String describe(String bindingNamespace) {
        if (kind.equals(SERVICE_ACCOUNT)) {
            String ns = namespace.isEmpty() ? bindingNamespace : namespace;
            return kind + " " + FieldError.quote(name + "/" + ns);
        }
        return kind + " " + FieldError.quote(name);
    }
}
