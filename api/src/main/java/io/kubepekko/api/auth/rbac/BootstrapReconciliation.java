package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What the server's start does to one bootstrap ClusterRole, ClusterRoleBinding, Role or
 * RoleBinding (kube's {@code rbac/bootstrap-roles} post-start hook, with the reconcile semantics of
 * {@code pkg/registry/rbac/reconciliation} in its union mode): a missing object is created; an
 * existing one annotated {@code rbac.authorization.kubernetes.io/autoupdate: "false"} is left
 * alone; any other gets what it lacks — the expected labels and annotations it does not set (its
 * own values win), the rules (as kube's uncovered atoms) or subjects it does not hold, and the
 * aggregation selectors it lacks — and keeps everything it has. A binding whose {@code roleRef}
 * differs is recreated (a roleRef is immutable). Pure: the caller reads and writes.
 */
public final class BootstrapReconciliation {

    private BootstrapReconciliation() {}

    /** What to write. */
    public sealed interface Action permits Create, Update, Recreate, Unchanged, Protected {}

    /** The object does not exist: create {@code object}. */
    public record Create(ObjectNode object) implements Action {}

    /** Replace the existing object with {@code object} (which keeps its resourceVersion). */
    public record Update(ObjectNode object) implements Action {}

    /** Delete the existing binding (its roleRef differs) and create {@code object}. */
    public record Recreate(ObjectNode object) implements Action {}

    /** The existing object already holds everything expected. */
    public record Unchanged() implements Action {}

    /** The existing object opts out ({@code autoupdate: "false"}). */
    public record Protected() implements Action {}

    /**
     * The action for a ClusterRole.
     *
     * @param expected the bootstrap role ({@link BootstrapPolicy#clusterRoles()})
     * @param existing the stored role, or null when there is none
     */
    public static Action clusterRole(ObjectNode expected, ObjectNode existing) {
        if (existing == null) {
            return new Create(expected.deepCopy());
        }
        if (isProtected(existing)) {
            return new Protected();
        }
        ObjectNode result = existing.deepCopy();
        boolean changed = mergeMetadata(expected, result);

        List<PolicyRule> have = PolicyRule.listFromJson(existing.path("rules"));
        List<PolicyRule> want = PolicyRule.listFromJson(expected.path("rules"));
        List<PolicyRule> missing = PolicyComparator.covers(have, want).uncovered();
        if (!missing.isEmpty()) {
            ArrayNode rules = array(result, "rules");
            missing.forEach(r -> rules.add(r.toJson()));
            changed = true;
        }

        JsonNode expectedAggregation = expected.get("aggregationRule");
        JsonNode existingAggregation = existing.get("aggregationRule");
        if (expectedAggregation == null || expectedAggregation.isNull()) {
            if (existingAggregation != null && !existingAggregation.isNull()) {
                // Not meant to aggregate at all: kube drops the rule even in union mode.
                result.remove("aggregationRule");
                changed = true;
            }
        } else {
            ArrayNode selectors = array(child(result, "aggregationRule"), "clusterRoleSelectors");
            List<JsonNode> held = new ArrayList<>();
            selectors.forEach(held::add);
            for (JsonNode s : expectedAggregation.path("clusterRoleSelectors")) {
                if (!held.contains(s)) {
                    selectors.add(s.deepCopy());
                    changed = true;
                }
            }
        }
        return changed ? new Update(result) : new Unchanged();
    }

    /**
     * The action for a Role of kube-system or kube-public: as for a ClusterRole, which kube
     * reconciles with the same code (a Role has no aggregation rule, so none is added or kept).
     *
     * @param expected the bootstrap role ({@link BootstrapPolicy#roles()})
     * @param existing the stored role, or null when there is none
     */
    public static Action role(ObjectNode expected, ObjectNode existing) {
        return clusterRole(expected, existing);
    }

    /**
     * The action for a RoleBinding of kube-system or kube-public: as for a ClusterRoleBinding.
     *
     * @param expected the bootstrap binding ({@link BootstrapPolicy#roleBindings()})
     * @param existing the stored binding, or null when there is none
     */
    public static Action roleBinding(ObjectNode expected, ObjectNode existing) {
        return clusterRoleBinding(expected, existing);
    }

    /**
     * The action for a ClusterRoleBinding.
     *
     * @param expected the bootstrap binding ({@link BootstrapPolicy#clusterRoleBindings()})
     * @param existing the stored binding, or null when there is none
     */
    public static Action clusterRoleBinding(ObjectNode expected, ObjectNode existing) {
        if (existing == null) {
            return new Create(expected.deepCopy());
        }
        if (isProtected(existing)) {
            return new Protected();
        }
        if (!sameRoleRef(expected.path("roleRef"), existing.path("roleRef"))) {
            return new Recreate(expected.deepCopy());
        }
        ObjectNode result = existing.deepCopy();
        boolean changed = mergeMetadata(expected, result);
        List<Subject> held = new ArrayList<>();
        existing.path("subjects").forEach(s -> held.add(Subject.fromJson(s)));
        for (JsonNode s : expected.path("subjects")) {
            if (!held.contains(Subject.fromJson(s))) {
                array(result, "subjects").add(s.deepCopy());
                changed = true;
            }
        }
        return changed ? new Update(result) : new Unchanged();
    }

    private static boolean isProtected(ObjectNode existing) {
        return "false"
                .equals(
                        existing.path("metadata")
                                .path("annotations")
                                .path(BootstrapPolicy.AUTOUPDATE_ANNOTATION)
                                .asText(null));
    }

    /** kube compares the whole roleRef; the API group defaults to rbac's. */
    private static boolean sameRoleRef(JsonNode a, JsonNode b) {
        return RoleRef.fromJson(a).equals(RoleRef.fromJson(b))
                && a.path("apiGroup").asText("").equals(b.path("apiGroup").asText(""));
    }

    /** Adds the expected labels and annotations the object does not set; true if any was added. */
    private static boolean mergeMetadata(ObjectNode expected, ObjectNode result) {
        boolean changed = false;
        for (String field : List.of("labels", "annotations")) {
            JsonNode want = expected.path("metadata").path(field);
            if (want.isEmpty()) {
                continue;
            }
            ObjectNode have = child(child(result, "metadata"), field);
            for (Iterator<Map.Entry<String, JsonNode>> it = want.properties().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!have.has(e.getKey())) {
                    have.set(e.getKey(), e.getValue().deepCopy());
                    changed = true;
                }
            }
        }
        return changed;
    }

    private static ObjectNode child(ObjectNode parent, String field) {
        return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static ArrayNode array(ObjectNode parent, String field) {
        return parent.get(field) instanceof ArrayNode a ? a : parent.putArray(field);
    }
}
