package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and ValidatingWebhookConfiguration:
 * kube's v1 defaults (failurePolicy Fail, matchPolicy Equivalent, empty selectors, timeoutSeconds
 * 10, reinvocationPolicy Never, rule scope "*", service port 443) and kube's {@code
 * Validate*WebhookConfiguration}, whose update relaxes the checks an old object already broke (side
 * effects, review versions, unique names), as kube lets such objects from older releases be
 * updated. The match conditions' CEL is compiled by {@link #expressions}, when one is given.
 */
public final class WebhookConfigurationStrategy implements Strategy {

    /** Compiles one match condition's expression: the problem in kube's words, or empty. */
    @FunctionalInterface
    public interface ExpressionCheck {
        /** Accepts every expression. */
        ExpressionCheck NONE = (expression, path) -> List.of();

        List<FieldError> check(String expression, FieldPath path);
    }

    static final List<String> FAILURE_POLICIES = List.of("Fail", "Ignore");
    static final List<String> MATCH_POLICIES = List.of("Equivalent", "Exact");
    static final List<String> NO_SIDE_EFFECTS = List.of("None", "NoneOnDryRun");
    static final List<String> SIDE_EFFECTS = List.of("None", "NoneOnDryRun", "Some", "Unknown");
    static final List<String> OPERATIONS = List.of("*", "CONNECT", "CREATE", "DELETE", "UPDATE");
    static final List<String> SCOPES = List.of("*", "Cluster", "Namespaced");
    static final List<String> REINVOCATION_POLICIES = List.of("IfNeeded", "Never");
    static final List<String> REVIEW_VERSIONS = List.of("v1", "v1beta1");

    private final boolean mutating;
    private final ExpressionCheck expressions;

    public WebhookConfigurationStrategy(boolean mutating, ExpressionCheck expressions) {
        this.mutating = mutating;
        this.expressions = expressions;
    }

    @Override
    public void applyDefaults(ObjectNode obj) {
        for (JsonNode hook : Nodes.items(obj, "webhooks")) {
            if (!(hook instanceof ObjectNode h)) {
                continue;
            }
            defaultPointer(h, "failurePolicy", "Fail");
            defaultPointer(h, "matchPolicy", "Equivalent");
            if (!Nodes.has(h, "namespaceSelector")) {
                h.putObject("namespaceSelector");
            }
            if (!Nodes.has(h, "objectSelector")) {
                h.putObject("objectSelector");
            }
            if (!Nodes.has(h, "timeoutSeconds")) {
                h.put("timeoutSeconds", 10);
            }
            if (mutating) {
                defaultPointer(h, "reinvocationPolicy", "Never");
            }
            for (JsonNode rule : Nodes.items(h, "rules")) {
                if (rule instanceof ObjectNode r) {
                    defaultPointer(r, "scope", "*");
                }
            }
            JsonNode service = h.path("clientConfig").path("service");
            if (service instanceof ObjectNode s && !Nodes.has(s, "port")) {
                s.put("port", 443);
            }
        }
    }

    private static void defaultPointer(ObjectNode n, String field, String value) {
        if (!Nodes.has(n, field)) {
            n.put(field, value);
        }
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        return validate(obj, true, true, true);
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<JsonNode> oldHooks = Nodes.items(old, "webhooks");
        boolean noSideEffects =
                oldHooks.stream()
                        .allMatch(h -> NO_SIDE_EFFECTS.contains(Nodes.text(h, "sideEffects")));
        boolean knownVersions =
                oldHooks.stream()
                        .allMatch(
                                h -> {
                                    List<String> v = Nodes.strings(h, "admissionReviewVersions");
                                    return v.isEmpty()
                                            || v.stream().anyMatch(REVIEW_VERSIONS::contains);
                                });
        Set<String> names = new HashSet<>();
        boolean unique = oldHooks.stream().allMatch(h -> names.add(Nodes.text(h, "name")));
        return validate(obj, noSideEffects, knownVersions, unique);
    }

    private List<FieldError> validate(
            ObjectNode obj, boolean noSideEffects, boolean knownVersions, boolean uniqueNames) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<JsonNode> hooks = Nodes.items(obj, "webhooks");
        for (int i = 0; i < hooks.size(); i++) {
            JsonNode hook = hooks.get(i);
            FieldPath path = FieldPath.of("webhooks").index(i);
            webhook(hook, path, noSideEffects, errs);
            reviewVersions(
                    Nodes.strings(hook, "admissionReviewVersions"),
                    knownVersions,
                    path.child("admissionReviewVersions"),
                    errs);
            String name = Nodes.text(hook, "name");
            if (uniqueNames && !name.isEmpty() && !names.add(name)) {
                errs.add(FieldError.duplicate(path.child("name").toString(), name));
            }
        }
        return errs;
    }

    private void webhook(JsonNode hook, FieldPath path, boolean noSideEffects, List<FieldError> e) {
        fullyQualifiedName(Nodes.text(hook, "name"), path.child("name"), e);
        List<JsonNode> rules = Nodes.items(hook, "rules");
        for (int i = 0; i < rules.size(); i++) {
            rule(rules.get(i), path.child("rules").index(i), e);
        }
        oneOf(hook, "failurePolicy", FAILURE_POLICIES, path, e);
        oneOf(hook, "matchPolicy", MATCH_POLICIES, path, e);
        List<String> sideEffects = noSideEffects ? NO_SIDE_EFFECTS : SIDE_EFFECTS;
        if (!Nodes.has(hook, "sideEffects")) {
            e.add(
                    FieldError.required(
                            path.child("sideEffects").toString(),
                            "must specify one of " + String.join(", ", sideEffects)));
        } else {
            oneOf(hook, "sideEffects", sideEffects, path, e);
        }
        if (Nodes.has(hook, "timeoutSeconds")) {
            long timeout = hook.get("timeoutSeconds").asLong();
            if (timeout < 1 || timeout > 30) {
                e.add(
                        FieldError.invalid(
                                path.child("timeoutSeconds").toString(),
                                timeout,
                                "the timeout value must be between 1 and 30 seconds"));
            }
        }
        e.addAll(
                LabelValidation.selector(
                        hook.get("namespaceSelector"), path.child("namespaceSelector")));
        e.addAll(
                LabelValidation.selector(hook.get("objectSelector"), path.child("objectSelector")));
        if (mutating) {
            oneOf(hook, "reinvocationPolicy", REINVOCATION_POLICIES, path, e);
        }
        WebhookClientConfigValidation.clientConfig(
                hook.path("clientConfig"), path.child("clientConfig"), e);
        matchConditions(Nodes.items(hook, "matchConditions"), path.child("matchConditions"), e);
    }

    private static void oneOf(
            JsonNode n, String field, List<String> supported, FieldPath path, List<FieldError> e) {
        if (Nodes.has(n, field) && !supported.contains(n.get(field).asText())) {
            e.add(
                    FieldError.notSupported(
                            path.child(field).toString(), n.get(field).asText(), supported));
        }
    }

    /** kube's {@code IsFullyQualifiedName}: a DNS subdomain of at least three segments. */
    private static void fullyQualifiedName(String name, FieldPath path, List<FieldError> e) {
        if (name.isEmpty()) {
            e.add(FieldError.required(path.toString(), ""));
            return;
        }
        List<String> msgs = NameValidation.dns1123Subdomain(name);
        if (!msgs.isEmpty()) {
            e.add(FieldError.invalid(path.toString(), name, String.join(",", msgs)));
        } else if (name.split("\\.", -1).length < 3) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            name,
                            "should be a domain with at least three segments separated by dots"));
        }
    }

    private static void rule(JsonNode rule, FieldPath path, List<FieldError> e) {
        List<String> operations = Nodes.strings(rule, "operations");
        if (operations.isEmpty()) {
            e.add(FieldError.required(path.child("operations").toString(), ""));
        }
        if (operations.size() > 1 && operations.contains("*")) {
            e.add(
                    FieldError.invalid(
                            path.child("operations").toString(),
                            BadValue.of(rule.get("operations")),
                            "if '*' is present, must not specify other operations"));
        }
        for (int i = 0; i < operations.size(); i++) {
            if (!OPERATIONS.contains(operations.get(i))) {
                e.add(
                        FieldError.notSupported(
                                path.child("operations").index(i).toString(),
                                operations.get(i),
                                OPERATIONS));
            }
        }
        List<String> groups = Nodes.strings(rule, "apiGroups");
        if (groups.isEmpty()) {
            e.add(FieldError.required(path.child("apiGroups").toString(), ""));
        }
        if (groups.size() > 1 && groups.contains("*")) {
            e.add(
                    FieldError.invalid(
                            path.child("apiGroups").toString(),
                            BadValue.of(rule.get("apiGroups")),
                            "if '*' is present, must not specify other API groups"));
        }
        List<String> versions = Nodes.strings(rule, "apiVersions");
        if (versions.isEmpty()) {
            e.add(FieldError.required(path.child("apiVersions").toString(), ""));
        }
        if (versions.size() > 1 && versions.contains("*")) {
            e.add(
                    FieldError.invalid(
                            path.child("apiVersions").toString(),
                            BadValue.of(rule.get("apiVersions")),
                            "if '*' is present, must not specify other API versions"));
        }
        for (int i = 0; i < versions.size(); i++) {
            if (versions.get(i).isEmpty()) {
                e.add(FieldError.required(path.child("apiVersions").index(i).toString(), ""));
            }
        }
        resources(rule, path.child("resources"), e);
        oneOf(rule, "scope", SCOPES, path, e);
    }

    /** kube's {@code validateResources}: subresources allowed, wildcards not mixed. */
    private static void resources(JsonNode rule, FieldPath path, List<FieldError> e) {
        List<String> resources = Nodes.strings(rule, "resources");
        if (resources.isEmpty()) {
            e.add(FieldError.required(path.toString(), ""));
        }
        Set<String> wildcardSubresources = new HashSet<>();
        Set<String> wildcardResources = new HashSet<>();
        boolean doubleWildcard = false;
        boolean singleWildcard = false;
        boolean withoutSubresource = false;
        for (int i = 0; i < resources.size(); i++) {
            String rs = resources.get(i);
            if (rs.isEmpty()) {
                e.add(FieldError.required(path.index(i).toString(), ""));
                continue;
            }
            doubleWildcard |= rs.equals("*/*");
            singleWildcard |= rs.equals("*");
            int slash = rs.indexOf('/');
            if (slash < 0) {
                withoutSubresource = !rs.equals("*");
                continue;
            }
            String res = rs.substring(0, slash);
            String sub = rs.substring(slash + 1);
            if (wildcardSubresources.contains(res)) {
                e.add(
                        FieldError.invalid(
                                path.index(i).toString(),
                                rs,
                                "if '" + res + "/*' is present, must not specify " + rs));
            }
            if (wildcardResources.contains(sub)) {
                e.add(
                        FieldError.invalid(
                                path.index(i).toString(),
                                rs,
                                "if '*/" + sub + "' is present, must not specify " + rs));
            }
            if (sub.equals("*")) {
                wildcardSubresources.add(res);
            }
            if (res.equals("*")) {
                wildcardResources.add(sub);
            }
        }
        if (resources.size() > 1 && doubleWildcard) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            BadValue.of(rule.get("resources")),
                            "if '*/*' is present, must not specify other resources"));
        }
        if (singleWildcard && withoutSubresource) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            BadValue.of(rule.get("resources")),
                            "if '*' is present, must not specify other resources without subresources"));
        }
    }

    private static void reviewVersions(
            List<String> versions, boolean requireKnown, FieldPath path, List<FieldError> e) {
        if (versions.isEmpty()) {
            e.add(
                    FieldError.required(
                            path.toString(),
                            "must specify one of " + String.join(", ", REVIEW_VERSIONS)));
            return;
        }
        Set<String> seen = new HashSet<>();
        boolean known = false;
        for (int i = 0; i < versions.size(); i++) {
            String v = versions.get(i);
            if (!seen.add(v)) {
                e.add(FieldError.invalid(path.index(i).toString(), v, "duplicate version"));
                continue;
            }
            for (String msg : NameValidation.dns1035Label(v)) {
                e.add(FieldError.invalid(path.index(i).toString(), v, msg));
            }
            known |= REVIEW_VERSIONS.contains(v);
        }
        if (requireKnown && !known) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            BadValue.of(
                                    Nodes.F.arrayNode()
                                            .addAll(
                                                    versions.stream()
                                                            .map(Nodes.F::textNode)
                                                            .toList())),
                            "must include at least one of " + String.join(", ", REVIEW_VERSIONS)));
        }
    }

    private void matchConditions(List<JsonNode> conditions, FieldPath path, List<FieldError> e) {
        if (conditions.size() > 64) {
            e.add(FieldError.tooMany(path.toString(), conditions.size(), 64));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            JsonNode c = conditions.get(i);
            FieldPath at = path.index(i);
            String expression = Nodes.text(c, "expression").strip();
            if (expression.isEmpty()) {
                e.add(FieldError.required(at.child("expression").toString(), ""));
            } else {
                e.addAll(expressions.check(expression, at.child("expression")));
            }
            String name = Nodes.text(c, "name");
            if (name.isEmpty()) {
                e.add(FieldError.required(at.child("name").toString(), ""));
            } else {
                for (String msg : NameValidation.qualifiedName(name)) {
                    e.add(FieldError.invalid(at.child("name").toString(), name, msg));
                }
                if (!names.add(name)) {
                    e.add(FieldError.duplicate(at.child("name").toString(), name));
                }
            }
        }
    }
}
