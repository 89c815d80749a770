package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** kube's policy-based RBAC storage: who may write which roles and bindings. */
class EscalationCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupResource ROLES =
            new GroupResource("rbac.authorization.k8s.io", "roles");
    private static final GroupResource ROLE_BINDINGS =
            new GroupResource("rbac.authorization.k8s.io", "rolebindings");
    private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));

    private static final PolicyRule EDIT_PODS =
            PolicyRule.resources(List.of("get", "create"), List.of(""), List.of("pods"), List.of());
    private static final PolicyRule ALL_SECRETS =
            PolicyRule.resources(List.of("*"), List.of(""), List.of("secrets"), List.of());

    /** alice holds {@code rules} in ns through a RoleBinding to the Role "held". */
    private static RbacPolicy aliceHolds(List<PolicyRule> rules, RbacRole... more) {
        List<RbacRole> roles = new ArrayList<>(List.of(more));
        roles.add(RbacRole.namespaced("ns", "held", rules));
        return RbacPolicy.of(
                roles.stream().filter(r -> !r.namespace().isEmpty()).toList(),
                roles.stream().filter(r -> r.namespace().isEmpty()).toList(),
                List.of(
                        new RbacBinding(
                                "ns",
                                "alice-held",
                                new RoleRef(RoleRef.ROLE, "held"),
                                List.of(Subject.user("alice")))),
                List.of());
    }

    private static EscalationCheck check(RbacPolicy policy) {
        return new EscalationCheck(new RbacAuthorizer(() -> policy), () -> policy);
    }

    private static ObjectNode role(String name, PolicyRule... rules) {
        ObjectNode o = JSON.createObjectNode();
        o.putObject("metadata").put("name", name).put("namespace", "ns");
        var array = o.putArray("rules");
        for (PolicyRule r : rules) {
            array.add(r.toJson());
        }
        return o;
    }

    private static ObjectNode binding(String name, String kind, String roleName) {
        ObjectNode o = JSON.createObjectNode();
        o.putObject("metadata").put("name", name).put("namespace", "ns");
        o.putObject("roleRef")
                .put("apiGroup", "rbac.authorization.k8s.io")
                .put("kind", kind)
                .put("name", roleName);
        return o;
    }

    private static Optional<ApiStatus> created(
            EscalationCheck check, UserInfo user, GroupResource resource, ObjectNode object) {
        return check.refusal(
                new AdmissionRequest(
                        Operation.CREATE,
                        user,
                        resource,
                        "",
                        "ns",
                        object.path("metadata").path("name").asText(""),
                        object,
                        null,
                        false));
    }

    private static Optional<ApiStatus> updated(
            EscalationCheck check, GroupResource resource, ObjectNode object, ObjectNode old) {
        return check.refusal(
                new AdmissionRequest(
                        Operation.UPDATE,
                        ALICE,
                        resource,
                        "",
                        resource.resource().startsWith("cluster") ? "" : "ns",
                        object.path("metadata").path("name").asText(""),
                        object,
                        old,
                        false));
    }

    private static ObjectNode with(ObjectNode object, String metadataField, String json)
            throws Exception {
        ObjectNode copy = object.deepCopy();
        ((ObjectNode) copy.path("metadata")).set(metadataField, JSON.readTree(json));
        return copy;
    }

    @Test
    void anUpdateThatChangesOnlyOwnerReferencesOrFinalizersIsNotChecked() throws Exception {
        // kube's IsOnlyMutatingGCFields: the garbage collector must finish any role or binding.
        EscalationCheck check = check(aliceHolds(List.of(EDIT_PODS)));
        ObjectNode stored = role("r", ALL_SECRETS);
        ObjectNode owned =
                with(
                        stored,
                        "ownerReferences",
                        "[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o\",\"uid\":\"u\"}]");
        assertEquals(Optional.empty(), updated(check, ROLES, owned, stored));
        ObjectNode finalized = with(owned, "finalizers", "[\"example.com/hold\"]");
        assertEquals(Optional.empty(), updated(check, ROLES, finalized, owned));
        assertEquals(Optional.empty(), updated(check, ROLES, stored, finalized));
        ObjectNode boundAdmin = binding("b", RoleRef.CLUSTER_ROLE, "cluster-admin");
        assertEquals(
                Optional.empty(),
                updated(
                        check,
                        ROLE_BINDINGS,
                        with(boundAdmin, "finalizers", "[\"example.com/hold\"]"),
                        boundAdmin));
    }

    @Test
    void anUpdateThatChangesAnythingElseIsChecked() throws Exception {
        EscalationCheck check = check(aliceHolds(List.of(EDIT_PODS)));
        ObjectNode stored = role("r", ALL_SECRETS);
        ObjectNode labelled = with(stored, "finalizers", "[\"example.com/hold\"]");
        labelled = with(labelled, "labels", "{\"a\":\"b\"}");
        Optional<ApiStatus> refusal = updated(check, ROLES, labelled, stored);
        assertTrue(refusal.isPresent());
        assertTrue(
                refusal.get().message().endsWith("Resources:[\"secrets\"], Verbs:[\"*\"]}"),
                refusal.get().message());
        ObjectNode boundAdmin = binding("b", RoleRef.CLUSTER_ROLE, "cluster-admin");
        assertTrue(
                updated(
                                check,
                                ROLE_BINDINGS,
                                with(boundAdmin, "labels", "{\"a\":\"b\"}"),
                                boundAdmin)
                        .isPresent());
        // A create has no stored object to compare with: checked whatever it holds.
        assertTrue(created(check, ALICE, ROLES, with(stored, "finalizers", "[\"f\"]")).isPresent());
    }

    @Test
    void aClusterRoleWhoseAggregationRuleWasSetNeedsEveryRightToChange() throws Exception {
        GroupResource clusterRoles = new GroupResource("rbac.authorization.k8s.io", "clusterroles");
        PolicyRule updateClusterRoles =
                PolicyRule.resources(
                        List.of("update"),
                        List.of("rbac.authorization.k8s.io"),
                        List.of("clusterroles"),
                        List.of());
        RbacPolicy policy =
                RbacPolicy.of(
                        List.of(),
                        List.of(RbacRole.cluster("held", List.of(EDIT_PODS, updateClusterRoles))),
                        List.of(),
                        List.of(
                                new RbacBinding(
                                        "",
                                        "alice-held",
                                        new RoleRef(RoleRef.CLUSTER_ROLE, "held"),
                                        List.of(Subject.user("alice")))));
        ObjectNode aggregated = role("agg", EDIT_PODS);
        ((ObjectNode) aggregated.path("metadata")).remove("namespace");
        aggregated.set(
                "aggregationRule",
                JSON.readTree("{\"clusterRoleSelectors\":[{\"matchLabels\":{\"agg\":\"true\"}}]}"));
        ObjectNode plain = aggregated.deepCopy();
        plain.remove("aggregationRule");
        String cluster = "must have cluster-admin privileges to use the aggregationRule";
        assertEquals(
                "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: " + cluster,
                updated(check(policy), clusterRoles, plain, aggregated).orElseThrow().message());
        assertEquals(
                "clusterroles.rbac.authorization.k8s.io \"agg\" is forbidden: " + cluster,
                updated(check(policy), clusterRoles, aggregated, plain).orElseThrow().message());
        assertEquals(Optional.empty(), updated(check(policy), clusterRoles, plain, plain));
    }

    @Test
    void aRoleGrantingRulesNotHeldIsForbiddenWithKubesMessage() {
        Optional<ApiStatus> refusal =
                created(
                        check(aliceHolds(List.of(EDIT_PODS))),
                        ALICE,
                        ROLES,
                        role("r", ALL_SECRETS));
        assertTrue(refusal.isPresent());
        assertEquals(403, refusal.get().code());
        assertEquals(
                "roles.rbac.authorization.k8s.io \"r\" is forbidden: user \"alice\""
                        + " (groups=[\"system:authenticated\"]) is attempting to grant RBAC"
                        + " permissions not currently held:\n"
                        + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"*\"]}",
                refusal.get().message());
    }

    @Test
    void aRoleGrantingHeldRulesIsAdmitted() {
        assertEquals(
                Optional.empty(),
                created(check(aliceHolds(List.of(EDIT_PODS))), ALICE, ROLES, role("r", EDIT_PODS)));
    }

    @Test
    void mastersAndEscalatorsMayGrantAnything() {
        UserInfo master = UserInfo.of("root", List.of(UserInfo.MASTERS));
        assertEquals(
                Optional.empty(),
                created(check(RbacPolicy.empty()), master, ROLES, role("r", ALL_SECRETS)));
        PolicyRule escalate =
                PolicyRule.resources(
                        List.of("escalate"),
                        List.of("rbac.authorization.k8s.io"),
                        List.of("roles"),
                        List.of());
        assertEquals(
                Optional.empty(),
                created(
                        check(aliceHolds(List.of(escalate))),
                        ALICE,
                        ROLES,
                        role("r", ALL_SECRETS)));
    }

    @Test
    void aBindingToARoleWhoseRulesAreNotHeldIsForbiddenUnlessTheUserMayBindIt() {
        RbacRole admin =
                RbacRole.cluster(
                        "cluster-admin",
                        List.of(
                                PolicyRule.resources(
                                        List.of("*"), List.of("*"), List.of("*"), List.of())));
        ObjectNode b = binding("b", RoleRef.CLUSTER_ROLE, "cluster-admin");
        Optional<ApiStatus> refusal =
                created(check(aliceHolds(List.of(EDIT_PODS), admin)), ALICE, ROLE_BINDINGS, b);
        assertTrue(refusal.isPresent());
        assertTrue(
                refusal.get()
                        .message()
                        .startsWith(
                                "rolebindings.rbac.authorization.k8s.io \"b\" is forbidden: user"
                                        + " \"alice\""),
                refusal.get().message());
        PolicyRule bind =
                PolicyRule.resources(
                        List.of("bind"),
                        List.of("rbac.authorization.k8s.io"),
                        List.of("clusterroles"),
                        List.of("cluster-admin"));
        assertEquals(
                Optional.empty(),
                created(check(aliceHolds(List.of(bind), admin)), ALICE, ROLE_BINDINGS, b));
    }

    @Test
    void aBindingToAMissingRoleIsForbiddenWithTheGettersNotFound() {
        Optional<ApiStatus> refusal =
                created(
                        check(aliceHolds(List.of(EDIT_PODS))),
                        ALICE,
                        ROLE_BINDINGS,
                        binding("b", RoleRef.ROLE, "nope"));
        assertEquals(
                "rolebindings.rbac.authorization.k8s.io \"b\" is forbidden:"
                        + " roles.rbac.authorization.k8s.io \"nope\" not found",
                refusal.orElseThrow().message());
    }

    @Test
    void onlyTheFourRbacKindsAreConcerned() {
        EscalationCheck check = check(aliceHolds(List.of(EDIT_PODS)));
        assertTrue(EscalationCheck.concerns(ROLES));
        assertTrue(
                EscalationCheck.concerns(
                        new GroupResource("rbac.authorization.k8s.io", "clusterrolebindings")));
        assertFalse(EscalationCheck.concerns(new GroupResource("", "roles")));
        assertFalse(EscalationCheck.concerns(new GroupResource("", "secrets")));
        assertEquals(
                Optional.empty(),
                check.refusal(
                        new AdmissionRequest(
                                Operation.DELETE,
                                ALICE,
                                ROLES,
                                "",
                                "ns",
                                "r",
                                null,
                                role("r", ALL_SECRETS),
                                false)));
    }

    @Test
    void otherResourcesAreAdmitted() {
        assertEquals(
                Optional.empty(),
                created(
                        check(RbacPolicy.empty()),
                        ALICE,
                        new GroupResource("", "secrets"),
                        JSON.createObjectNode()));
    }
}
