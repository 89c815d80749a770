package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Which webhooks a request calls, as kube's webhook plugin decides before it calls one: a rule
 * matches the operation, group, version, resource with its subresource and scope; with {@code
 * matchPolicy: Equivalent} a rule naming another version of the same resource matches too, and the
 * webhook is then sent the request in that version; the object selector matches the new or the old
 * object's labels; the namespace selector matches the labels of the request's namespace (the
 * object's own for a Namespace created or updated), and is not asked for other cluster-scoped
 * resources.
 */
public final class WebhookRules {
    private WebhookRules() {}

    /** One version a resource is served in: its resource and kind there. */
    public record Version(WebhookRequest.Gvr resource, WebhookRequest.Gvk kind) {}

    /**
     * The webhooks whose rules match {@code request} in one of {@code versions}, in call order; for
     * an update, also those whose rules match it as a create (an update of a missing object is a
     * create: which one it is shows only once the object is read).
     */
    public static List<Webhook> candidates(
            List<Webhook> hooks, WebhookRequest request, List<Version> versions) {
        List<Webhook> out = new ArrayList<>();
        for (Webhook h : hooks) {
            if (matchingVersion(h, request, versions).isPresent()
                    || (request.operation().equals("UPDATE")
                            && matchingVersion(h, request.withOperation("CREATE"), versions)
                                    .isPresent())) {
                out.add(h);
            }
        }
        return out;
    }

    /**
     * The version in which {@code hook} is sent the request, when one of its rules matches: the
     * request's own, else (matchPolicy Equivalent) the first of {@code equivalents} a rule names.
     */
    public static Optional<Version> matchingVersion(
            Webhook hook, WebhookRequest request, List<Version> equivalents) {
        if (hook.rules().stream().anyMatch(r -> matches(r, request, request.resource()))) {
            return Optional.of(new Version(request.resource(), request.kind()));
        }
        if (!"Equivalent".equals(hook.matchPolicy())) {
            return Optional.empty();
        }
        for (Version v : equivalents) {
            if (v.resource().equals(request.resource())) {
                continue;
            }
            if (hook.rules().stream().anyMatch(r -> matches(r, request, v.resource()))) {
                return Optional.of(v);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code rule} matches the request addressed to {@code gvr}. */
    static boolean matches(Webhook.Rule rule, WebhookRequest request, WebhookRequest.Gvr gvr) {
        return anyOrContains(rule.operations(), request.operation())
                && anyOrContains(rule.apiGroups(), gvr.group())
                && anyOrContains(rule.apiVersions(), gvr.version())
                && resource(rule.resources(), gvr.resource(), request.subresource())
                && scope(rule.scope(), request, gvr);
    }

    private static boolean anyOrContains(List<String> values, String value) {
        return values.contains("*") || values.contains(value);
    }

    private static boolean resource(List<String> resources, String resource, String sub) {
        for (String r : resources) {
            int slash = r.indexOf('/');
            if (slash < 0) {
                if (sub.isEmpty() && (r.equals("*") || r.equals(resource))) {
                    return true;
                }
                continue;
            }
            String res = r.substring(0, slash);
            String s = r.substring(slash + 1);
            if ((res.equals("*") || res.equals(resource)) && (s.equals("*") || s.equals(sub))) {
                return true;
            }
        }
        return false;
    }

    private static boolean scope(String scope, WebhookRequest request, WebhookRequest.Gvr gvr) {
        if (scope == null || scope.equals("*")) {
            return true;
        }
        // kube: Namespace objects are cluster-scoped, though their requests name a namespace.
        boolean cluster =
                (gvr.group().isEmpty() && gvr.resource().equals("namespaces"))
                        || request.namespace().isEmpty();
        return scope.equals("Cluster") == cluster;
    }

    /**
     * kube's object selector: an empty one matches all, else the new or the old object's labels.
     */
    public static boolean objectSelectorMatches(Webhook hook, WebhookRequest request) {
        JsonNode selector = hook.objectSelector();
        if (LabelValidation.isEmpty(selector)) {
            return true;
        }
        return labelsMatch(selector, request.object())
                || labelsMatch(selector, request.oldObject());
    }

    private static boolean labelsMatch(JsonNode selector, JsonNode object) {
        return object != null && LabelValidation.matches(selector, labels(object));
    }

    /**
     * Whether the namespace selector asks for the namespace's labels at all: not for a
     * cluster-scoped resource other than namespaces, nor for an empty selector.
     */
    public static boolean needsNamespace(Webhook hook, WebhookRequest request) {
        if (request.namespace().isEmpty() && !isNamespaces(request)) {
            return false;
        }
        return !LabelValidation.isEmpty(hook.namespaceSelector());
    }

    /**
     * kube's namespace selector. {@code namespaceLabels} gives the labels of the request's
     * namespace; a Namespace created or updated is judged by its own new labels.
     */
    public static boolean namespaceSelectorMatches(
            Webhook hook,
            WebhookRequest request,
            Function<String, Map<String, String>> namespaceLabels) {
        if (!needsNamespace(hook, request)) {
            return true;
        }
        Map<String, String> labels;
        if (isNamespaces(request)
                && request.subresource().isEmpty()
                && request.object() != null
                && (request.operation().equals("CREATE") || request.operation().equals("UPDATE"))) {
            labels = labels(request.object());
        } else {
            String ns = request.namespace().isEmpty() ? request.name() : request.namespace();
            labels = namespaceLabels.apply(ns);
        }
        return LabelValidation.matches(hook.namespaceSelector(), labels);
    }

    /** The name of the namespace whose labels {@link #namespaceSelectorMatches} reads. */
    public static String namespaceOf(WebhookRequest request) {
        return request.namespace().isEmpty() ? request.name() : request.namespace();
    }

    private static boolean isNamespaces(WebhookRequest request) {
        return request.resource().group().isEmpty()
                && request.resource().resource().equals("namespaces");
    }

    static Map<String, String> labels(JsonNode object) {
        Map<String, String> out = new TreeMap<>();
        object.path("metadata")
                .path("labels")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
