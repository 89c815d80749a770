package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * Roles and ClusterRoles: every rule has verbs and either resources (with api groups) or,
 * cluster-wide only, URLs.
 */
public final class RoleStrategy implements Strategy {

    private final boolean namespaced;

    public RoleStrategy(boolean namespaced) {
        this.namespaced = namespaced;
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> rules = Nodes.items(obj, "rules");
        for (int i = 0; i < rules.size(); i++) {
            errs.addAll(policyRule(rules.get(i), namespaced, FieldPath.of("rules").index(i)));
        }
        if (!namespaced && Nodes.has(obj, "aggregationRule")) {
            List<JsonNode> selectors =
                    Nodes.items(obj.get("aggregationRule"), "clusterRoleSelectors");
            FieldPath p = FieldPath.of("aggregationRule", "clusterRoleSelectors");
            if (selectors.isEmpty()) {
                errs.add(
                        FieldError.required(
                                p.toString(),
                                "at least one clusterRoleSelector required if aggregationRule is non-nil"));
            }
            for (int i = 0; i < selectors.size(); i++) {
                errs.addAll(LabelValidation.selector(selectors.get(i), p.index(i)));
            }
        }
        return errs;
    }

    static List<FieldError> policyRule(JsonNode rule, boolean namespaced, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (Nodes.items(rule, "verbs").isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("verbs").toString(),
                            "verbs must contain at least one value"));
        }
        if (!Nodes.items(rule, "nonResourceURLs").isEmpty()) {
            BadValue urls = BadValue.of(rule.get("nonResourceURLs"));
            if (namespaced) {
                errs.add(
                        FieldError.invalid(
                                path.child("nonResourceURLs").toString(),
                                urls,
                                "namespaced rules cannot apply to non-resource URLs"));
            }
            if (!Nodes.items(rule, "apiGroups").isEmpty()
                    || !Nodes.items(rule, "resources").isEmpty()
                    || !Nodes.items(rule, "resourceNames").isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                path.child("nonResourceURLs").toString(),
                                urls,
                                "rules cannot apply to both regular resources and non-resource URLs"));
            }
            return errs;
        }
        if (Nodes.items(rule, "apiGroups").isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("apiGroups").toString(),
                            "resource rules must supply at least one api group"));
        }
        if (Nodes.items(rule, "resources").isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("resources").toString(),
                            "resource rules must supply at least one resource"));
        }
        return errs;
    }
}
