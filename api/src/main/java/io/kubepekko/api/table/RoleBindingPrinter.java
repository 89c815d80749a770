package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * rbac.authorization.k8s.io RoleBinding and ClusterRoleBinding: Name, Role, Age, and in wide output
 * the Users, Groups and ServiceAccounts among the subjects. The two kinds print alike and differ
 * only in their column descriptions.
 */
public final class RoleBindingPrinter implements TablePrinter {

    public static final RoleBindingPrinter ROLE_BINDING =
            new RoleBindingPrinter(
                    "roleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. "
                            + "If the RoleRef cannot be resolved, the Authorizer must return an error.",
                    "roleBinding");

    public static final RoleBindingPrinter CLUSTER_ROLE_BINDING =
            new RoleBindingPrinter(
                    "roleRef can only reference a ClusterRole in the global namespace. "
                            + "If the RoleRef cannot be resolved, the Authorizer must return an error.",
                    "clusterRoleBinding");

    private final List<Column> columns;

    private RoleBindingPrinter(String roleDescription, String bindingWord) {
        this.columns =
                List.of(
                        Column.NAME,
                        Column.string("Role", roleDescription),
                        ClusterCells.AGE,
                        Column.string("Users", "Users in the " + bindingWord).wide(),
                        Column.string("Groups", "Groups in the " + bindingWord).wide(),
                        Column.string("ServiceAccounts", "ServiceAccounts in the " + bindingWord)
                                .wide());
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode roleRef = object.path("roleRef");
        List<String> users = new ArrayList<>();
        List<String> groups = new ArrayList<>();
        List<String> serviceAccounts = new ArrayList<>();
        JsonNode subjects = object.path("subjects");
        if (subjects.isArray()) {
            for (JsonNode subject : subjects) {
                String name = ClusterCells.text(subject.path("name"), "");
                // Subjects of any other kind are not shown in any column.
                switch (ClusterCells.text(subject.path("kind"), "")) {
                    case "User" -> users.add(name);
                    case "Group" -> groups.add(name);
                    case "ServiceAccount" ->
                            serviceAccounts.add(
                                    ClusterCells.text(subject.path("namespace"), "") + "/" + name);
                    default -> {}
                }
            }
        }
        return List.of(
                ClusterCells.name(object),
                ClusterCells.text(roleRef.path("kind"), "")
                        + "/"
                        + ClusterCells.text(roleRef.path("name"), ""),
                Ages.of(object, now),
                String.join(", ", users),
                String.join(", ", groups),
                String.join(", ", serviceAccounts));
    }
}
