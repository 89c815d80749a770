package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The role a binding grants ({@code rbac/v1 RoleRef}): a Role in the binding's namespace or a
 * ClusterRole.
 *
 * @param kind {@code Role} or {@code ClusterRole}
 * @param name the role's name
 */
public record RoleRef(String kind, String name) {

    public static final String ROLE = "Role";
    public static final String CLUSTER_ROLE = "ClusterRole";

    public RoleRef {
        kind = kind == null ? "" : kind;
        name = name == null ? "" : name;
    }

    static RoleRef fromJson(JsonNode ref) {
        return new RoleRef(ref.path("kind").asText(""), ref.path("name").asText(""));
    }
}
