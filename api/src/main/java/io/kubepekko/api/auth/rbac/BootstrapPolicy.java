package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.DefinitionLines;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The default RBAC objects kube-apiserver creates at start (kube's {@code bootstrappolicy}, 1.35
 * with its default feature gates), as object bodies ready to be created or reconciled: the
 * ClusterRoles and ClusterRoleBindings, those of kube-controller-manager's controllers ({@code
 * system:controller:*}, each bound to its ServiceAccount in kube-system), and the Roles and
 * RoleBindings of kube-system and kube-public. Each carries kube's label {@code
 * kubernetes.io/bootstrapping: rbac-defaults} and annotation {@code
 * rbac.authorization.kubernetes.io/autoupdate: "true"}. Aggregated roles (admin, edit, view) come
 * with their {@code aggregationRule} and no rules, as kube creates them; the aggregation controller
 * fills them in.
 *
 * <p>The policy is data in {@code bootstrap-policy.txt} next to this class — one line a role, rule
 * or binding — rather than Java builders: a reviewer can compare it line by line with kube's
 * testdata when kube changes its defaults, and adding a role is a data change.
 */
public final class BootstrapPolicy {

    public static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";
    public static final String BOOTSTRAPPING_VALUE = "rbac-defaults";
    public static final String AUTOUPDATE_ANNOTATION =
            "rbac.authorization.kubernetes.io/autoupdate";
    public static final String AGGREGATE_TO_PREFIX = "rbac.authorization.k8s.io/aggregate-to-";

    private static final String API_VERSION = "rbac.authorization.k8s.io/v1";
    private static final String RBAC_GROUP = "rbac.authorization.k8s.io";
    private static final String FILE = "bootstrap-policy.txt";
    private static final String CONTROLLER_PREFIX = "system:controller:";
    private static final String CONTROLLER_NAMESPACE = "kube-system";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static final BootstrapPolicy DEFAULT =
            parse(DefinitionLines.resource(BootstrapPolicy.class, FILE));

    private final List<ObjectNode> clusterRoles;
    private final List<ObjectNode> clusterRoleBindings;
    private final List<ObjectNode> roles;
    private final List<ObjectNode> roleBindings;

    private BootstrapPolicy(
            List<ObjectNode> clusterRoles,
            List<ObjectNode> clusterRoleBindings,
            List<ObjectNode> roles,
            List<ObjectNode> roleBindings) {
        this.clusterRoles = List.copyOf(clusterRoles);
        this.clusterRoleBindings = List.copyOf(clusterRoleBindings);
        this.roles = List.copyOf(roles);
        this.roleBindings = List.copyOf(roleBindings);
    }

    /** kube's default policy. */
    public static BootstrapPolicy defaults() {
        return DEFAULT;
    }

    /**
     * The ClusterRoles: kube's by name, then the controllers' by name, as kube reconciles them;
     * fresh copies the caller may change.
     */
    public List<ObjectNode> clusterRoles() {
        return copies(clusterRoles);
    }

    /**
     * The ClusterRoleBindings: kube's in its order, then the controllers' by name; fresh copies the
     * caller may change.
     */
    public List<ObjectNode> clusterRoleBindings() {
        return copies(clusterRoleBindings);
    }

    /** The Roles of kube-system and kube-public, by namespace and name; fresh copies. */
    public List<ObjectNode> roles() {
        return copies(roles);
    }

    /** The RoleBindings of kube-system and kube-public, by namespace and name; fresh copies. */
    public List<ObjectNode> roleBindings() {
        return copies(roleBindings);
    }

    private static List<ObjectNode> copies(List<ObjectNode> objects) {
        return objects.stream().map(ObjectNode::deepCopy).toList();
    }

    /**
     * The policy as an authorizer sees it once the aggregation controller has settled: aggregated
     * roles hold their rules.
     */
    public RbacPolicy toRbacPolicy() {
        List<RbacRole> roles =
                ClusterRoleAggregation.settle(
                        clusterRoles.stream().map(RbacRole::fromJson).toList());
        return RbacPolicy.of(
                this.roles.stream().map(RbacRole::fromJson).toList(),
                roles,
                roleBindings.stream().map(RbacBinding::fromJson).toList(),
                clusterRoleBindings.stream().map(RbacBinding::fromJson).toList());
    }

    static BootstrapPolicy parse(String text) {
        if (text == null) {
            throw new IllegalStateException(FILE + " is missing from the classpath");
        }
        List<ObjectNode> clusterRoles = new ArrayList<>();
        List<ObjectNode> bindings = new ArrayList<>();
        List<ObjectNode> controllerBindings = new ArrayList<>();
        List<ObjectNode> roles = new ArrayList<>();
        List<ObjectNode> roleBindings = new ArrayList<>();
        ObjectNode role = null;
        for (DefinitionLines.Line line : DefinitionLines.of(text)) {
            String[] words = line.text().split("\\s+");
            Map<String, String> opts = options(words, line);
            switch (words[0]) {
                case "clusterrole" -> {
                    role = clusterRole(words[1], opts);
                    clusterRoles.add(role);
                }
                case "controllerrole" -> {
                    // kube's addControllerRole: the role and its binding to the controller's
                    // ServiceAccount, both named system:controller:NAME.
                    String name = CONTROLLER_PREFIX + words[1];
                    role = object("ClusterRole", name);
                    clusterRoles.add(role);
                    controllerBindings.add(
                            binding(
                                    object("ClusterRoleBinding", name),
                                    RoleRef.CLUSTER_ROLE,
                                    name,
                                    List.of(
                                            Subject.SERVICE_ACCOUNT
                                                    + ":"
                                                    + CONTROLLER_NAMESPACE
                                                    + "/"
                                                    + words[1]),
                                    line));
                }
                case "role" -> {
                    role = namespaced("Role", words[1], line);
                    roles.add(role);
                }
                case "rule" -> {
                    if (role == null) {
                        throw bad(line, "rule before any role");
                    }
                    role.withArray("rules").add(rule(opts, line));
                }
                case "binding" ->
                        bindings.add(
                                binding(
                                        object("ClusterRoleBinding", words[1]),
                                        RoleRef.CLUSTER_ROLE,
                                        opts.getOrDefault("role", words[1]),
                                        list(opts.get("subjects")),
                                        line));
                case "rolebinding" ->
                        roleBindings.add(
                                binding(
                                        namespaced("RoleBinding", words[1], line),
                                        RoleRef.ROLE,
                                        required(opts, "role", line),
                                        list(opts.get("subjects")),
                                        line));
                default -> throw bad(line, "unknown entry " + words[0]);
            }
        }
        bindings.addAll(controllerBindings);
        return new BootstrapPolicy(clusterRoles, bindings, roles, roleBindings);
    }

    private static ObjectNode clusterRole(String name, Map<String, String> opts) {
        ObjectNode obj = object("ClusterRole", name);
        ObjectNode labels = (ObjectNode) obj.path("metadata").path("labels");
        for (String into : list(opts.get("into"))) {
            labels.put(AGGREGATE_TO_PREFIX + into, "true");
        }
        String from = opts.get("from");
        if (from != null) {
            obj.putObject("aggregationRule")
                    .putArray("clusterRoleSelectors")
                    .addObject()
                    .putObject("matchLabels")
                    .put(AGGREGATE_TO_PREFIX + from, "true");
        }
        return obj;
    }

    private static ObjectNode rule(Map<String, String> opts, DefinitionLines.Line line) {
        List<String> groups =
                list(opts.get("groups")).stream().map(g -> g.equals("-") ? "" : g).toList();
        PolicyRule rule =
                new PolicyRule(
                        list(opts.get("verbs")),
                        groups,
                        list(opts.get("resources")),
                        list(opts.get("names")),
                        list(opts.get("urls")));
        if (rule.verbs().isEmpty()
                || (rule.resources().isEmpty() == rule.nonResourceURLs().isEmpty())) {
            throw bad(line, "a rule has verbs and either resources or urls");
        }
        return rule.toJson();
    }

    private static ObjectNode binding(
            ObjectNode obj,
            String roleKind,
            String roleName,
            List<String> subjects,
            DefinitionLines.Line line) {
        ObjectNode ref = obj.putObject("roleRef");
        ref.put("apiGroup", RBAC_GROUP);
        ref.put("kind", roleKind);
        ref.put("name", roleName);
        if (!subjects.isEmpty()) {
            ArrayNode out = obj.putArray("subjects");
            for (String s : subjects) {
                int colon = s.indexOf(':');
                if (colon < 0) {
                    throw bad(line, "a subject is Kind:name");
                }
                String kind = s.substring(0, colon);
                String subjectName = s.substring(colon + 1);
                ObjectNode subject = out.addObject();
                if (kind.equals(Subject.SERVICE_ACCOUNT)) {
                    int slash = subjectName.indexOf('/');
                    subject.put("kind", kind);
                    subject.put("name", subjectName.substring(slash + 1));
                    subject.put("namespace", subjectName.substring(0, slash));
                } else {
                    subject.put("apiGroup", RBAC_GROUP);
                    subject.put("kind", kind);
                    subject.put("name", subjectName);
                }
            }
        }
        return obj;
    }

    /** A namespaced object named NAMESPACE/NAME in the file. */
    private static ObjectNode namespaced(String kind, String qualified, DefinitionLines.Line line) {
        int slash = qualified.indexOf('/');
        if (slash <= 0 || slash == qualified.length() - 1) {
            throw bad(line, "a namespaced object is NAMESPACE/NAME, got " + qualified);
        }
        ObjectNode obj = object(kind, qualified.substring(slash + 1));
        ((ObjectNode) obj.path("metadata")).put("namespace", qualified.substring(0, slash));
        return obj;
    }

    private static String required(
            Map<String, String> opts, String key, DefinitionLines.Line line) {
        String value = opts.get(key);
        if (value == null || value.isEmpty()) {
            throw bad(line, "missing " + key + "=");
        }
        return value;
    }

    private static ObjectNode object(String kind, String name) {
        ObjectNode obj = F.objectNode();
        obj.put("apiVersion", API_VERSION);
        obj.put("kind", kind);
        ObjectNode meta = obj.putObject("metadata");
        meta.put("name", name);
        meta.putObject("labels").put(BOOTSTRAPPING_LABEL, BOOTSTRAPPING_VALUE);
        meta.putObject("annotations").put(AUTOUPDATE_ANNOTATION, "true");
        return obj;
    }

    private static Map<String, String> options(String[] words, DefinitionLines.Line line) {
        Map<String, String> opts = new HashMap<>();
        int first = words[0].equals("rule") ? 1 : 2;
        if (words.length < first) {
            throw bad(line, "missing name");
        }
        for (String w : Arrays.asList(words).subList(first, words.length)) {
            int eq = w.indexOf('=');
            if (eq <= 0) {
                throw bad(line, "expected key=value, got " + w);
            }
            opts.put(w.substring(0, eq), w.substring(eq + 1));
        }
        return opts;
    }

    private static List<String> list(String csv) {
        return csv == null || csv.isEmpty() ? List.of() : List.of(csv.split(","));
    }

    private static IllegalStateException bad(DefinitionLines.Line line, String why) {
        return new IllegalStateException(FILE + ":" + line.number() + ": " + why);
    }
}
