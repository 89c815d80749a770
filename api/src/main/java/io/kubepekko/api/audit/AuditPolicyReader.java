package io.kubepekko.api.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads an {@code audit.k8s.io/v1} Policy from the bytes of a policy file (YAML or JSON) as
 * kube-apiserver's {@code LoadPolicyFromBytes} does: decode, check the apiVersion and kind,
 * validate every rule (all errors together), refuse a policy without rules. Refusals carry kube's
 * messages. Unknown fields are ignored with a warning, as kube falls back from strict to lenient
 * decoding.
 */
public final class AuditPolicyReader {
    private AuditPolicyReader() {}

    /** kube's {@code audit.k8s.io/v1}, the one version kube still reads. */
    public static final String API_VERSION = "audit.k8s.io/v1";

    /** The outcome of reading a policy. */
    public sealed interface Result {
        /** A valid policy, and warnings about fields that were ignored. */
        record Loaded(AuditPolicy policy, List<String> warnings) implements Result {
            public Loaded {
                warnings = List.copyOf(warnings);
            }
        }

        /** Not a valid policy: {@code message} is kube's. */
        record Refused(String message) implements Result {}
    }

    /** Reads a policy from the bytes of a file. */
    public static Result read(byte[] content) {
        JsonNode root;
        try {
            root = Json.YAML.readTree(content);
        } catch (JsonProcessingException e) {
            return new Result.Refused("failed decoding: " + e.getOriginalMessage());
        } catch (IOException e) {
            return new Result.Refused("failed decoding: " + e.getMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            root = JsonNodeFactory.instance.objectNode();
        }
        if (!root.isObject()) {
            return new Result.Refused(
                    "failed decoding: json: cannot unmarshal "
                            + jsonType(root)
                            + " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }");
        }
        Decoder d = new Decoder();
        try {
            String apiVersion = d.string(root.get("apiVersion"), "Policy", "apiVersion");
            String kind = d.string(root.get("kind"), "Policy", "kind");
            if (!API_VERSION.equals(apiVersion) || !"Policy".equals(kind)) {
                return new Result.Refused(
                        "unknown group version field " + gvk(apiVersion, kind) + " in policy");
            }
            RawPolicy raw = d.policy(root);
            List<FieldError> errors = validate(raw);
            if (!errors.isEmpty()) {
                return new Result.Refused(aggregate(errors));
            }
            if (raw.rules.isEmpty()) {
                return new Result.Refused("loaded illegal policy with 0 rules");
            }
            List<String> warnings =
                    d.unknown.isEmpty()
                            ? List.of()
                            : List.of(
                                    "Audit policy contains errors, falling back to lenient decoding: "
                                            + strictErrors(d.unknown));
            return new Result.Loaded(raw.toPolicy(), warnings);
        } catch (DecodeError e) {
            return new Result.Refused("failed decoding: " + e.getMessage());
        }
    }

    // --- decoding: the tree into raw values, types checked as Go's json package does

    private record RawRule(
            String level,
            List<String> users,
            List<String> userGroups,
            List<String> verbs,
            List<AuditResources> resources,
            List<String> namespaces,
            List<String> nonResourceURLs,
            List<String> omitStages,
            Optional<Boolean> omitManagedFields) {}

    private record RawPolicy(List<RawRule> rules, List<String> omitStages, boolean omitManaged) {
        AuditPolicy toPolicy() {
            List<AuditRule> out = new ArrayList<>();
            for (RawRule r : rules) {
                out.add(
                        new AuditRule(
                                AuditLevel.parse(r.level).orElseThrow(),
                                r.users,
                                r.userGroups,
                                r.verbs,
                                r.resources,
                                r.namespaces,
                                r.nonResourceURLs,
                                stages(r.omitStages),
                                r.omitManagedFields));
            }
            return new AuditPolicy(out, stages(omitStages), omitManaged);
        }

        private static Set<AuditStage> stages(List<String> names) {
            Set<AuditStage> set = EnumSet.noneOf(AuditStage.class);
            names.forEach(n -> set.add(AuditStage.parse(n).orElseThrow()));
            return set;
        }
    }

    /** A value of the wrong JSON type: Go's {@code UnmarshalTypeError} text. */
    private static final class DecodeError extends Exception {
        private static final long serialVersionUID = 1L;

        DecodeError(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Decoder {
        final List<String> unknown = new ArrayList<>();

        RawPolicy policy(JsonNode root) throws DecodeError {
            known(
                    root,
                    "",
                    Set.of(
                            "apiVersion",
                            "kind",
                            "metadata",
                            "rules",
                            "omitStages",
                            "omitManagedFields"));
            List<RawRule> rules = new ArrayList<>();
            JsonNode rulesNode = root.get("rules");
            if (rulesNode != null && !rulesNode.isNull()) {
                if (!rulesNode.isArray()) {
                    throw typeError(rulesNode, "Policy", "rules", "[]audit.PolicyRule");
                }
                for (int i = 0; i < rulesNode.size(); i++) {
                    rules.add(rule(rulesNode.get(i), i));
                }
            }
            return new RawPolicy(
                    rules,
                    strings(root.get("omitStages"), "Policy", "omitStages", "audit.Stage"),
                    bool(root.get("omitManagedFields"), "Policy", "omitManagedFields")
                            .orElse(false));
        }

        private RawRule rule(JsonNode node, int index) throws DecodeError {
            String at = "rules";
            if (node == null || node.isNull()) {
                node = JsonNodeFactory.instance.objectNode();
            }
            if (!node.isObject()) {
                throw typeError(node, "Policy", at, "audit.PolicyRule");
            }
            known(
                    node,
                    "rules[" + index + "].",
                    Set.of(
                            "level",
                            "users",
                            "userGroups",
                            "verbs",
                            "resources",
                            "namespaces",
                            "nonResourceURLs",
                            "omitStages",
                            "omitManagedFields"));
            List<AuditResources> resources = new ArrayList<>();
            JsonNode res = node.get("resources");
            if (res != null && !res.isNull()) {
                if (!res.isArray()) {
                    throw typeError(res, "PolicyRule", at + ".resources", "[]audit.GroupResources");
                }
                for (int i = 0; i < res.size(); i++) {
                    resources.add(groupResources(res.get(i), index, i));
                }
            }
            return new RawRule(
                    string(node.get("level"), "PolicyRule", at + ".level"),
                    strings(node.get("users"), "PolicyRule", at + ".users", "string"),
                    strings(node.get("userGroups"), "PolicyRule", at + ".userGroups", "string"),
                    strings(node.get("verbs"), "PolicyRule", at + ".verbs", "string"),
                    resources,
                    strings(node.get("namespaces"), "PolicyRule", at + ".namespaces", "string"),
                    strings(
                            node.get("nonResourceURLs"),
                            "PolicyRule",
                            at + ".nonResourceURLs",
                            "string"),
                    strings(
                            node.get("omitStages"),
                            "PolicyRule",
                            at + ".omitStages",
                            "audit.Stage"),
                    bool(node.get("omitManagedFields"), "PolicyRule", at + ".omitManagedFields"));
        }

        private AuditResources groupResources(JsonNode node, int rule, int index)
                throws DecodeError {
            String at = "rules.resources";
            if (node == null || node.isNull()) {
                node = JsonNodeFactory.instance.objectNode();
            }
            if (!node.isObject()) {
                throw typeError(node, "PolicyRule", at, "audit.GroupResources");
            }
            known(
                    node,
                    "rules[" + rule + "].resources[" + index + "].",
                    Set.of("group", "resources", "resourceNames"));
            return new AuditResources(
                    string(node.get("group"), "GroupResources", at + ".group"),
                    strings(node.get("resources"), "GroupResources", at + ".resources", "string"),
                    strings(
                            node.get("resourceNames"),
                            "GroupResources",
                            at + ".resourceNames",
                            "string"));
        }

        private void known(JsonNode node, String prefix, Set<String> fields) {
            for (var field : node.properties()) {
                String name = field.getKey();
                if (!fields.contains(name)) {
                    unknown.add(prefix + name);
                }
            }
        }

        String string(JsonNode node, String struct, String field) throws DecodeError {
            if (node == null || node.isNull()) {
                return "";
            }
            if (!node.isTextual()) {
                throw typeError(node, struct, field, "string");
            }
            return node.asText();
        }

        private List<String> strings(JsonNode node, String struct, String field, String goType)
                throws DecodeError {
            if (node == null || node.isNull()) {
                return List.of();
            }
            if (!node.isArray()) {
                throw typeError(node, struct, field, "[]" + goType);
            }
            List<String> out = new ArrayList<>();
            for (JsonNode item : node) {
                if (!item.isTextual()) {
                    throw typeError(item, struct, field, goType);
                }
                out.add(item.asText());
            }
            return out;
        }

        private Optional<Boolean> bool(JsonNode node, String struct, String field)
                throws DecodeError {
            if (node == null || node.isNull()) {
                return Optional.empty();
            }
            if (!node.isBoolean()) {
                throw typeError(node, struct, field, "bool");
            }
            return Optional.of(node.asBoolean());
        }

        private static DecodeError typeError(
                JsonNode node, String struct, String field, String goType) {
            return new DecodeError(
                    "json: cannot unmarshal "
                            + jsonType(node)
                            + " into Go struct field "
                            + struct
                            + "."
                            + field
                            + " of type "
                            + goType);
        }
    }

    private static String jsonType(JsonNode node) {
        if (node.isTextual()) {
            return "string";
        }
        if (node.isNumber()) {
            return "number";
        }
        if (node.isBoolean()) {
            return "bool";
        }
        return node.isArray() ? "array" : "object";
    }

    /** Go's {@code schema.GroupVersionKind} printed with {@code %v}. */
    private static String gvk(String apiVersion, String kind) {
        int slash = apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
        return group + "/" + version + ", Kind=" + kind;
    }

    private static String strictErrors(List<String> unknown) {
        List<String> parts = new ArrayList<>();
        for (String field : unknown) {
            parts.add("unknown field " + FieldError.quote(field));
        }
        return "strict decoding error: " + String.join(", ", parts);
    }

    // --- validation: kube's ValidatePolicy, every error collected

    private static List<FieldError> validate(RawPolicy policy) {
        List<FieldError> errors = new ArrayList<>();
        validateStages(policy.omitStages, FieldPath.of("omitStages"), errors);
        for (int i = 0; i < policy.rules.size(); i++) {
            validateRule(policy.rules.get(i), FieldPath.of("rules").index(i), errors);
        }
        return errors;
    }

    private static void validateRule(RawRule rule, FieldPath at, List<FieldError> errors) {
        FieldPath level = at.child("level");
        if (rule.level.isEmpty()) {
            errors.add(FieldError.required(level.toString(), ""));
        } else if (AuditLevel.parse(rule.level).isEmpty()) {
            errors.add(
                    FieldError.notSupported(level.toString(), rule.level, AuditLevel.wireNames()));
        }
        FieldPath urls = at.child("nonResourceURLs");
        for (int i = 0; i < rule.nonResourceURLs.size(); i++) {
            String url = rule.nonResourceURLs.get(i);
            if (url.equals("*")) {
                continue;
            }
            String field = urls.index(i).toString();
            if (!url.startsWith("/")) {
                errors.add(
                        FieldError.invalid(
                                field,
                                url,
                                "non-resource URL rules must begin with a '/' character"));
            }
            if (!url.isEmpty() && url.substring(0, url.length() - 1).contains("*")) {
                errors.add(
                        FieldError.invalid(
                                field,
                                url,
                                "non-resource URL wildcards '*' must be the final character of the rule"));
            }
        }
        // kube names these paths without the index of the group resources
        FieldPath resources = at.child("resources");
        for (AuditResources gr : rule.resources) {
            if (!gr.group().isEmpty()) {
                List<String> msgs = NameValidation.dns1123Subdomain(gr.group());
                if (!msgs.isEmpty()) {
                    errors.add(
                            FieldError.invalid(
                                    resources.child("group").toString(),
                                    gr.group(),
                                    String.join(",", msgs)));
                }
            }
            if (!gr.resourceNames().isEmpty() && gr.resources().isEmpty()) {
                errors.add(
                        FieldError.invalid(
                                resources.child("resourceNames").toString(),
                                stringArray(gr.resourceNames()),
                                "using resourceNames requires at least one resource"));
            }
        }
        validateStages(rule.omitStages, at.child("omitStages"), errors);
        if (!rule.nonResourceURLs.isEmpty()
                && (!rule.resources.isEmpty() || !rule.namespaces.isEmpty())) {
            errors.add(
                    FieldError.invalid(
                            urls.toString(),
                            stringArray(rule.nonResourceURLs),
                            "rules cannot apply to both regular resources and non-resource URLs"));
        }
    }

    private static void validateStages(List<String> stages, FieldPath at, List<FieldError> errors) {
        for (int i = 0; i < stages.size(); i++) {
            if (AuditStage.parse(stages.get(i)).isEmpty()) {
                errors.add(
                        FieldError.invalid(
                                at.index(i).toString(),
                                stages.get(i),
                                "allowed stages are " + String.join(",", AuditStage.wireNames())));
            }
        }
    }

    private static BadValue stringArray(List<String> values) {
        var array = JsonNodeFactory.instance.arrayNode();
        values.forEach(array::add);
        return BadValue.of(array);
    }

    /** kube's {@code ErrorList.ToAggregate().Error()}: one message, or all in brackets. */
    private static String aggregate(List<FieldError> errors) {
        Set<String> messages = new LinkedHashSet<>();
        errors.forEach(e -> messages.add(e.toString()));
        return messages.size() == 1
                ? messages.iterator().next()
                : "[" + String.join(", ", messages) + "]";
    }
}
