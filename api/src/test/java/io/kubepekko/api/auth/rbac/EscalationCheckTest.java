package io.kubepekko.api.auth.rbac;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
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

    @Test
    void aRoleGrantingRulesNotHeldIsForbiddenWithKubesMessage() {
        Optional<ApiStatus> refusal =
                check(aliceHolds(List.of(EDIT_PODS)))
                        .refusal(ALICE, ROLES, "ns", role("r", ALL_SECRETS));
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
                check(aliceHolds(List.of(EDIT_PODS)))
                        .refusal(ALICE, ROLES, "ns", role("r", EDIT_PODS)));
    }

    @Test
    void mastersAndEscalatorsMayGrantAnything() {
        UserInfo master = UserInfo.of("root", List.of(UserInfo.MASTERS));
        assertEquals(
                Optional.empty(),
                check(RbacPolicy.empty()).refusal(master, ROLES, "ns", role("r", ALL_SECRETS)));
        PolicyRule escalate =
                PolicyRule.resources(
                        List.of("escalate"),
                        List.of("rbac.authorization.k8s.io"),
                        List.of("roles"),
                        List.of());
        assertEquals(
                Optional.empty(),
                check(aliceHolds(List.of(escalate)))
                        .refusal(ALICE, ROLES, "ns", role("r", ALL_SECRETS)));
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
                check(aliceHolds(List.of(EDIT_PODS), admin)).refusal(ALICE, ROLE_BINDINGS, "ns", b);
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
                check(aliceHolds(List.of(bind), admin)).refusal(ALICE, ROLE_BINDINGS, "ns", b));
    }

    @Test
    void aBindingToAMissingRoleIsForbiddenWithTheGettersNotFound() {
        Optional<ApiStatus> refusal =
                check(aliceHolds(List.of(EDIT_PODS)))
                        .refusal(ALICE, ROLE_BINDINGS, "ns", binding("b", RoleRef.ROLE, "nope"));
        assertEquals(
                "rolebindings.rbac.authorization.k8s.io \"b\" is forbidden:"
                        + " roles.rbac.authorization.k8s.io \"nope\" not found",
                refusal.orElseThrow().message());
    }

    @Test
    void onlyTheFourRbacKindsAreConcerned() {
        EscalationCheck check = check(RbacPolicy.empty());
        assertTrue(check.concerns(ROLES));
        assertTrue(
                check.concerns(
                        new GroupResource("rbac.authorization.k8s.io", "clusterrolebindings")));
        assertFalse(check.concerns(new GroupResource("", "roles")));
        assertFalse(check.concerns(new GroupResource("", "secrets")));
    }

    @Test
    void otherResourcesAreAdmitted() {
        assertEquals(
                Optional.empty(),
                check(RbacPolicy.empty())
                        .refusal(
                                ALICE,
                                new GroupResource("", "secrets"),
                                "ns",
                                JSON.createObjectNode()));
    }
}
