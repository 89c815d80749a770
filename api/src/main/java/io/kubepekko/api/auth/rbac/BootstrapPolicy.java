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
 * The default ClusterRoles and ClusterRoleBindings kube-apiserver creates at start (kube's {@code
 * bootstrappolicy}), as object bodies ready to be created or reconciled: each carries kube's label
 * {@code kubernetes.io/bootstrapping: rbac-defaults} and annotation {@code
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
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static final BootstrapPolicy DEFAULT =
            parse(DefinitionLines.resource(BootstrapPolicy.class, FILE));

    private final List<ObjectNode> clusterRoles;
    private final List<ObjectNode> clusterRoleBindings;

    private BootstrapPolicy(List<ObjectNode> clusterRoles, List<ObjectNode> clusterRoleBindings) {
        this.clusterRoles = List.copyOf(clusterRoles);
        this.clusterRoleBindings = List.copyOf(clusterRoleBindings);
    }

    /** kube's default policy. */
    public static BootstrapPolicy defaults() {
        return DEFAULT;
    }

    /** The ClusterRoles, by name; fresh copies the caller may change. */
    public List<ObjectNode> clusterRoles() {
        return clusterRoles.stream().map(ObjectNode::deepCopy).toList();
    }

    /** The ClusterRoleBindings in kube's order; fresh copies the caller may change. */
    public List<ObjectNode> clusterRoleBindings() {
        return clusterRoleBindings.stream().map(ObjectNode::deepCopy).toList();
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
                List.of(),
                roles,
                List.of(),
                clusterRoleBindings.stream().map(RbacBinding::fromJson).toList());
    }

    static BootstrapPolicy parse(String text) {
        if (text == null) {
            throw new IllegalStateException(FILE + " is missing from the classpath");
        }
        List<ObjectNode> roles = new ArrayList<>();
        List<ObjectNode> bindings = new ArrayList<>();
        ObjectNode role = null;
        for (DefinitionLines.Line line : DefinitionLines.of(text)) {
            String[] words = line.text().split("\\s+");
            Map<String, String> opts = options(words, line);
            switch (words[0]) {
                case "clusterrole" -> {
                    role = clusterRole(words[1], opts);
                    roles.add(role);
                }
                case "rule" -> {
                    if (role == null) {
                        throw bad(line, "rule before any clusterrole");
                    }
                    role.withArray("rules").add(rule(opts, line));
                }
                case "binding" -> bindings.add(binding(words[1], opts, line));
                default -> throw bad(line, "unknown entry " + words[0]);
            }
        }
        return new BootstrapPolicy(roles, bindings);
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
            String name, Map<String, String> opts, DefinitionLines.Line line) {
        ObjectNode obj = object("ClusterRoleBinding", name);
        ObjectNode ref = obj.putObject("roleRef");
        ref.put("apiGroup", RBAC_GROUP);
        ref.put("kind", RoleRef.CLUSTER_ROLE);
        ref.put("name", opts.getOrDefault("role", name));
        List<String> subjects = list(opts.get("subjects"));
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
