package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * RoleBindings and ClusterRoleBindings: a roleRef to an RBAC role (ClusterRole only for cluster
 * bindings) that can never change, and well-formed subjects.
 */
public final class RoleBindingStrategy implements Strategy {

    static final String RBAC_GROUP = "rbac.authorization.k8s.io";
    static final String CANNOT_CHANGE_ROLE_REF = "cannot change roleRef";

    private final boolean namespaced;

    public RoleBindingStrategy(boolean namespaced) {
        this.namespaced = namespaced;
    }

    /** rbac/v1 defaults: the RBAC group for roleRef and for User and Group subjects. */
    @Override
    public void applyDefaults(ObjectNode obj) {
        Nodes.defaultText(Nodes.obj(obj, "roleRef"), "apiGroup", RBAC_GROUP);
        for (JsonNode s : Nodes.items(obj, "subjects")) {
            if (s instanceof ObjectNode subject) {
                String kind = Nodes.text(subject, "kind");
                if ((kind.equals("User") || kind.equals("Group"))
                        && Nodes.text(subject, "apiGroup").isEmpty()) {
                    subject.put("apiGroup", RBAC_GROUP);
                }
            }
        }
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode ref = obj.path("roleRef");
        FieldPath refPath = FieldPath.of("roleRef");
        String group = Nodes.text(ref, "apiGroup");
        if (!group.equals(RBAC_GROUP)) {
            errs.add(
                    FieldError.notSupported(
                            refPath.child("apiGroup").toString(), group, List.of(RBAC_GROUP)));
        }
        String kind = Nodes.text(ref, "kind");
        List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
        if (!kinds.contains(kind)) {
            errs.add(FieldError.notSupported(refPath.child("kind").toString(), kind, kinds));
        }
        String name = Nodes.text(ref, "name");
        if (name.isEmpty()) {
            errs.add(FieldError.required(refPath.child("name").toString(), ""));
        } else {
            NameValidation.pathSegmentName(name)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    refPath.child("name").toString(), name, m)));
        }
        List<JsonNode> subjects = Nodes.items(obj, "subjects");
        for (int i = 0; i < subjects.size(); i++) {
            errs.addAll(subject(subjects.get(i), FieldPath.of("subjects").index(i)));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        if (!Nodes.same(obj.get("roleRef"), old.get("roleRef"))) {
            JsonNode ref = obj.path("roleRef");
            ObjectNode shown =
                    Nodes.F.objectNode()
                            .put("APIGroup", Nodes.text(ref, "apiGroup"))
                            .put("Kind", Nodes.text(ref, "kind"))
                            .put("Name", Nodes.text(ref, "name"));
            errs.add(FieldError.invalid("roleRef", BadValue.of(shown), CANNOT_CHANGE_ROLE_REF));
        }
        return errs;
    }

    private List<FieldError> subject(JsonNode s, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(s, "name");
        String group = Nodes.text(s, "apiGroup");
        if (name.isEmpty()) {
            errs.add(FieldError.required(path.child("name").toString(), ""));
        }
        switch (Nodes.text(s, "kind")) {
            case "ServiceAccount" -> {
                if (!name.isEmpty()) {
                    NameValidation.dns1123Subdomain(name)
                            .forEach(
                                    m ->
                                            errs.add(
                                                    FieldError.invalid(
                                                            path.child("name").toString(),
                                                            name,
                                                            m)));
                }
                if (!group.isEmpty()) {
                    errs.add(
                            FieldError.notSupported(
                                    path.child("apiGroup").toString(), group, List.of("")));
                }
                if (!namespaced && Nodes.text(s, "namespace").isEmpty()) {
                    errs.add(FieldError.required(path.child("namespace").toString(), ""));
                }
            }
            case "User", "Group" -> {
                if (!group.equals(RBAC_GROUP)) {
                    errs.add(
                            FieldError.notSupported(
                                    path.child("apiGroup").toString(), group, List.of(RBAC_GROUP)));
                }
            }
            default ->
                    errs.add(
                            FieldError.notSupported(
                                    path.child("kind").toString(),
                                    Nodes.text(s, "kind"),
                                    List.of("ServiceAccount", "User", "Group")));
        }
        return errs;
    }
}
