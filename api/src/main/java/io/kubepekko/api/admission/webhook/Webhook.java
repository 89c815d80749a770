package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One webhook of a stored MutatingWebhookConfiguration or ValidatingWebhookConfiguration, as the
 * dispatcher reads it (the stored object is defaulted and valid, so every field kube defaults is
 * there).
 *
 * @param configuration the configuration's name (the order webhooks of one phase are called in)
 * @param uid the configuration's uid with the webhook's index: what reinvocation remembers
 * @param mutating whether it is a mutating webhook
 * @param url the URL to call, when the webhook names one
 * @param service the Service to call, when it names one instead
 * @param caBundle the PEM certificates that sign the webhook's serving certificate; empty for the
 *     system's trust
 * @param conditions its match conditions, compiled
 */
public record Webhook(
        String configuration,
        String uid,
        boolean mutating,
        String name,
        List<Rule> rules,
        String failurePolicy,
        String matchPolicy,
        JsonNode namespaceSelector,
        JsonNode objectSelector,
        String sideEffects,
        int timeoutSeconds,
        List<String> admissionReviewVersions,
        String reinvocationPolicy,
        Optional<String> url,
        Optional<ServiceRef> service,
        byte[] caBundle,
        List<MatchCondition> matchConditions,
        MatchConditions.Compiled conditions) {

    /** A rule: which operations on which resources a webhook is called for. */
    public record Rule(
            List<String> operations,
            List<String> apiGroups,
            List<String> apiVersions,
            List<String> resources,
            String scope) {}

    /** {@code clientConfig.service}. */
    public record ServiceRef(String namespace, String name, String path, int port) {}

    /** A CEL expression that must hold for the webhook to be called. */
    public record MatchCondition(String name, String expression) {}

    /** Whether a failure to call it is ignored ({@code failurePolicy: Ignore}). */
    public boolean ignoresFailures() {
        return "Ignore".equals(failurePolicy);
    }

    /** Whether it may be called on a dry run: it declares no side effects, or none on dry runs. */
    public boolean safeOnDryRun() {
        return "None".equals(sideEffects) || "NoneOnDryRun".equals(sideEffects);
    }

    /** Whether it is called again when a later webhook changed the object. */
    public boolean reinvokedIfNeeded() {
        return "IfNeeded".equals(reinvocationPolicy);
    }

    /** Every webhook of a stored configuration object, in its order, its conditions ignored. */
    public static List<Webhook> of(JsonNode configuration, boolean mutating) {
        return of(configuration, mutating, MatchConditions.Compiler.NONE);
    }

    /** Every webhook of a stored configuration object, in its order, conditions compiled. */
    public static List<Webhook> of(
            JsonNode configuration, boolean mutating, MatchConditions.Compiler compiler) {
        String config = configuration.path("metadata").path("name").asText("");
        String uid = configuration.path("metadata").path("uid").asText(config);
        List<Webhook> out = new ArrayList<>();
        JsonNode hooks = configuration.path("webhooks");
        for (int i = 0; i < hooks.size(); i++) {
            JsonNode h = hooks.get(i);
            List<Rule> rules = new ArrayList<>();
            for (JsonNode r : h.path("rules")) {
                rules.add(
                        new Rule(
                                strings(r.path("operations")),
                                strings(r.path("apiGroups")),
                                strings(r.path("apiVersions")),
                                strings(r.path("resources")),
                                r.path("scope").asText("*")));
            }
            JsonNode cc = h.path("clientConfig");
            Optional<ServiceRef> service =
                    cc.hasNonNull("service")
                            ? Optional.of(
                                    new ServiceRef(
                                            cc.path("service").path("namespace").asText(""),
                                            cc.path("service").path("name").asText(""),
                                            cc.path("service").path("path").asText(""),
                                            cc.path("service").path("port").asInt(443)))
                            : Optional.empty();
            byte[] ca;
            try {
                ca = cc.hasNonNull("caBundle") ? cc.get("caBundle").binaryValue() : new byte[0];
            } catch (IOException e) {
                ca = new byte[0];
            }
            List<MatchCondition> conditions = new ArrayList<>();
            for (JsonNode c : h.path("matchConditions")) {
                conditions.add(
                        new MatchCondition(
                                c.path("name").asText(""), c.path("expression").asText("")));
            }
            out.add(
                    new Webhook(
                            config,
                            uid + "/" + i,
                            mutating,
                            h.path("name").asText(""),
                            List.copyOf(rules),
                            h.path("failurePolicy").asText("Fail"),
                            h.path("matchPolicy").asText("Equivalent"),
                            selector(h.get("namespaceSelector")),
                            selector(h.get("objectSelector")),
                            h.path("sideEffects").asText(""),
                            h.path("timeoutSeconds").asInt(10),
                            strings(h.path("admissionReviewVersions")),
                            h.path("reinvocationPolicy").asText("Never"),
                            cc.hasNonNull("url")
                                    ? Optional.of(cc.get("url").asText())
                                    : Optional.empty(),
                            service,
                            ca,
                            List.copyOf(conditions),
                            conditions.isEmpty()
                                    ? MatchConditions.Compiled.NONE
                                    : compiler.compile(List.copyOf(conditions))));
        }
        return out;
    }

    private static JsonNode selector(JsonNode n) {
        return n == null || n.isNull() ? JsonNodeFactory.instance.objectNode() : n;
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.forEach(v -> out.add(v.asText()));
        return List.copyOf(out);
    }
}
