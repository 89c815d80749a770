package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;

/**
 * A RoleBinding (namespaced) or ClusterRoleBinding (namespace empty), parsed once from its stored
 * object.
 *
 * @param namespace the RoleBinding's namespace; empty for a ClusterRoleBinding
 * @param name the name
 * @param roleRef the granted role
 * @param subjects to whom, in order (the first that applies names the grant in reasons)
 */
public record RbacBinding(String namespace, String name, RoleRef roleRef, List<Subject> subjects) {

    public RbacBinding {
        namespace = namespace == null ? "" : namespace;
        subjects = List.copyOf(subjects);
    }

    /** Reads a RoleBinding or ClusterRoleBinding object. */
    public static RbacBinding fromJson(JsonNode obj) {
        JsonNode meta = obj.path("metadata");
        List<Subject> subjects = new ArrayList<>();
        for (JsonNode s : obj.path("subjects")) {
            subjects.add(Subject.fromJson(s));
        }
        return new RbacBinding(
                meta.path("namespace").asText(""),
                meta.path("name").asText(""),
                RoleRef.fromJson(obj.path("roleRef")),
                subjects);
    }

    /** Whether this is a ClusterRoleBinding. */
    public boolean clusterWide() {
        return namespace.isEmpty();
    }

    /** The index of the first subject that applies to the user, or -1. */
    int firstSubjectFor(UserInfo user) {
        for (int i = 0; i < subjects.size(); i++) {
            if (subjects.get(i).appliesTo(user, namespace)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * kube's source describer for reasons: {@code ClusterRoleBinding "x" of ClusterRole "y" to User
     * "z"} or {@code RoleBinding "x/ns" of Role "y" to Group "g"}.
     */
    String describe(int subjectIndex) {
        StringBuilder b = new StringBuilder(96);
        if (clusterWide()) {
            b.append("ClusterRoleBinding ").append(FieldError.quote(name));
        } else {
            b.append("RoleBinding ").append(FieldError.quote(name + "/" + namespace));
        }
        b.append(" of ")
                .append(roleRef.kind())
                .append(' ')
                .append(FieldError.quote(roleRef.name()))
                .append(" to ")
                .append(subjects.get(subjectIndex).describe(namespace));
        return b.toString();
    }
}
