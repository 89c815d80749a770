package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable snapshot of every Role, ClusterRole, RoleBinding and ClusterRoleBinding, parsed once
 * and indexed so that finding the rules that apply to a user costs a few map lookups, not a scan of
 * every binding: bindings are grouped by scope (cluster, or one namespace) and, within a scope,
 * indexed by the user names (User subjects and service accounts as {@code
 * system:serviceaccount:ns:name}) and group names they name. Role references are resolved when the
 * snapshot is built. Build a new snapshot when any of the four kinds changes.
 *
 * <p>Rules are visited in kube's order: ClusterRoleBindings first, then the RoleBindings of the
 * request's namespace; within each, bindings by name (kube's order is its cache's, which is
 * unspecified; by name makes reasons deterministic), and each binding's rules in order.
 */
public final class RbacPolicy {

    private static final RbacPolicy EMPTY =
            new RbacPolicy(List.of(), List.of(), List.of(), List.of());

    private final Map<String, RbacRole> clusterRoles = new HashMap<>();
    private final Map<String, RbacRole> roles = new HashMap<>();
    private final Scope cluster;
    private final Map<String, Scope> namespaces = new HashMap<>();
    private final int bindingCount;

    private RbacPolicy(
            List<RbacRole> roleList,
            List<RbacRole> clusterRoleList,
            List<RbacBinding> roleBindings,
            List<RbacBinding> clusterRoleBindings) {
        for (RbacRole r : clusterRoleList) {
            clusterRoles.put(r.name(), r);
        }
        for (RbacRole r : roleList) {
            roles.put(r.namespace() + "/" + r.name(), r);
        }
        cluster = new Scope(clusterRoleBindings.stream().map(this::resolve).toList());
        Map<String, List<Grant>> byNamespace = new HashMap<>();
        for (RbacBinding b : roleBindings) {
            if (!b.namespace().isEmpty()) {
                byNamespace.computeIfAbsent(b.namespace(), k -> new ArrayList<>()).add(resolve(b));
            }
        }
        byNamespace.forEach((ns, grants) -> namespaces.put(ns, new Scope(grants)));
        bindingCount = roleBindings.size() + clusterRoleBindings.size();
    }

    /** The snapshot with nothing in it: every request gets no opinion. */
    public static RbacPolicy empty() {
        return EMPTY;
    }

    /** A snapshot of parsed records. */
    public static RbacPolicy of(
            Collection<RbacRole> roles,
            Collection<RbacRole> clusterRoles,
            Collection<RbacBinding> roleBindings,
            Collection<RbacBinding> clusterRoleBindings) {
        return new RbacPolicy(
                List.copyOf(roles),
                List.copyOf(clusterRoles),
                List.copyOf(roleBindings),
                List.copyOf(clusterRoleBindings));
    }

    /** A snapshot of the four kinds' stored objects (any served version: the fields are v1's). */
    public static RbacPolicy fromObjects(
            Collection<? extends JsonNode> roles,
            Collection<? extends JsonNode> clusterRoles,
            Collection<? extends JsonNode> roleBindings,
            Collection<? extends JsonNode> clusterRoleBindings) {
        return new RbacPolicy(
                roles.stream().map(RbacRole::fromJson).toList(),
                clusterRoles.stream().map(RbacRole::fromJson).toList(),
                roleBindings.stream().map(RbacBinding::fromJson).toList(),
                clusterRoleBindings.stream().map(RbacBinding::fromJson).toList());
    }

    /** How many bindings the snapshot holds (for logs and metrics). */
    public int bindingCount() {
        return bindingCount;
    }

    /** Receives the rules that apply to a user, one at a time, with the grant they come from. */
    @FunctionalInterface
    public interface RuleVisitor {
        /**
         * @return false to stop visiting
         */
        boolean visit(Grant grant, int subjectIndex, PolicyRule rule);
    }

    /**
     * kube's {@code VisitRulesFor}: every rule granted to {@code user} cluster-wide and, when
     * {@code namespace} is not empty, in that namespace. A binding whose role does not exist adds
     * kube's message to {@code errors} and grants nothing.
     */
    public void visitRules(
            UserInfo user, String namespace, RuleVisitor visitor, List<String> errors) {
        if (!cluster.visit(user, visitor, errors)) {
            return;
        }
        if (namespace != null && !namespace.isEmpty()) {
            Scope scope = namespaces.get(namespace);
            if (scope != null) {
                scope.visit(user, visitor, errors);
            }
        }
    }

    /** kube's {@code RulesFor}: the rules that apply to the user in the namespace. */
    public UserRules rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> rules = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        visitRules(
                user,
                namespace,
                (grant, subject, rule) -> {
                    rules.add(rule);
                    return true;
                },
                errors);
        return new UserRules(rules, errors);
    }

    /** A ClusterRole by name, or null. */
    public RbacRole clusterRole(String name) {
        return clusterRoles.get(name);
    }

    /** A Role by namespace and name, or null. */
    public RbacRole role(String namespace, String name) {
        return roles.get(namespace + "/" + name);
    }

    private Grant resolve(RbacBinding b) {
        RoleRef ref = b.roleRef();
        RbacRole role =
                switch (ref.kind()) {
                    case RoleRef.ROLE -> b.clusterWide() ? null : role(b.namespace(), ref.name());
                    case RoleRef.CLUSTER_ROLE -> clusterRoles.get(ref.name());
                    default -> null;
                };
        if (role != null) {
            return new Grant(b, role.rules(), null);
        }
        String error =
                switch (ref.kind()) {
                    case RoleRef.ROLE ->
                            b.clusterWide()
                                    ? "must provide namespace when getting role"
                                    : "role.rbac.authorization.k8s.io "
                                            + FieldError.quote(ref.name())
                                            + " not found";
                    case RoleRef.CLUSTER_ROLE ->
                            "clusterrole.rbac.authorization.k8s.io "
                                    + FieldError.quote(ref.name())
                                    + " not found";
                    default -> "unsupported role reference kind: " + FieldError.quote(ref.kind());
                };
        return new Grant(b, List.of(), error);
    }

    /**
     * A binding with its role resolved.
     *
     * @param binding the binding
     * @param rules the role's rules (empty when it does not resolve)
     * @param error kube's message when the role does not resolve, else null
     */
    public record Grant(RbacBinding binding, List<PolicyRule> rules, String error) {

        /** kube's description of the grant for one subject, as reasons quote it. */
        public String describe(int subjectIndex) {
            return binding.describe(subjectIndex);
        }
    }

    /** A binding's position in its scope and the index of the subject that names the user. */
    private record Hit(int grant, int subject) {}

    private static final Comparator<Hit> HIT_ORDER =
            Comparator.comparingInt(Hit::grant).thenComparingInt(Hit::subject);

    /** The bindings of one scope, in name order, indexed by the names their subjects hold. */
    private static final class Scope {
        private final Grant[] grants;
        private final Map<String, Hit[]> byUser = new HashMap<>();
        private final Map<String, Hit[]> byGroup = new HashMap<>();

        Scope(List<Grant> unordered) {
            List<Grant> ordered = new ArrayList<>(unordered);
            ordered.sort(Comparator.comparing(g -> g.binding().name()));
            grants = ordered.toArray(Grant[]::new);
            Map<String, List<Hit>> users = new HashMap<>();
            Map<String, List<Hit>> groups = new HashMap<>();
            for (int i = 0; i < grants.length; i++) {
                RbacBinding b = grants[i].binding();
                for (int s = 0; s < b.subjects().size(); s++) {
                    Subject subject = b.subjects().get(s);
                    Hit hit = new Hit(i, s);
                    switch (subject.kind()) {
                        case Subject.USER ->
                                users.computeIfAbsent(subject.name(), k -> new ArrayList<>())
                                        .add(hit);
                        case Subject.GROUP ->
                                groups.computeIfAbsent(subject.name(), k -> new ArrayList<>())
                                        .add(hit);
                        case Subject.SERVICE_ACCOUNT -> {
                            String user = subject.serviceAccountUserName(b.namespace());
                            if (user != null) {
                                users.computeIfAbsent(user, k -> new ArrayList<>()).add(hit);
                            }
                        }
                        default -> {
                            // kube ignores subjects of any other kind.
                        }
                    }
                }
            }
            users.forEach((k, v) -> byUser.put(k, v.toArray(Hit[]::new)));
            groups.forEach((k, v) -> byGroup.put(k, v.toArray(Hit[]::new)));
        }

        /** Visits the user's grants in order; false when the visitor stopped. */
        boolean visit(UserInfo user, RuleVisitor visitor, List<String> errors) {
            Hit[] hits = hitsFor(user);
            int last = -1;
            for (Hit hit : hits) {
                if (hit.grant() == last) {
                    continue; // a later subject of the same binding: kube names the first only
                }
                last = hit.grant();
                Grant g = grants[hit.grant()];
                if (g.error() != null) {
                    errors.add(g.error());
                    continue;
                }
                for (PolicyRule rule : g.rules()) {
                    if (!visitor.visit(g, hit.subject(), rule)) {
                        return false;
                    }
                }
            }
            return true;
        }

        private Hit[] hitsFor(UserInfo user) {
            Hit[] single = byUser.get(user.name());
            Hit[][] found = null;
            int count = 0;
            for (String group : user.groups()) {
                Hit[] h = byGroup.get(group);
                if (h == null) {
                    continue;
                }
                if (single == null && found == null) {
                    single = h;
                    continue;
                }
                if (found == null) {
                    found = new Hit[user.groups().size() + 1][];
                    found[count++] = single;
                }
                found[count++] = h;
            }
            if (found == null) {
                return single == null ? new Hit[0] : single;
            }
            int total = 0;
            for (int i = 0; i < count; i++) {
                total += found[i].length;
            }
            Hit[] all = new Hit[total];
            int at = 0;
            for (int i = 0; i < count; i++) {
                System.arraycopy(found[i], 0, all, at, found[i].length);
                at += found[i].length;
            }
            Arrays.sort(all, HIT_ORDER);
            return all;
        }
    }
}
