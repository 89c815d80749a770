package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A container's environment as kubelet_pods.go {@code makeEnvironmentVariables} builds it: {@code
 * envFrom} sources first (with their prefix), then {@code env} in order, each replacing an earlier
 * value of the same name; a literal value has its {@code $(VAR)} references expanded against the
 * variables defined so far; {@code valueFrom} reads the downward API, a resource, a ConfigMap key
 * or a Secret key. A missing ConfigMap/Secret or key that is not {@code optional} fails with kube's
 * message; an optional one leaves the variable out. Keys of {@code envFrom} sources are used as
 * they are: kube 1.30+ no longer skips keys that are not C identifiers (relaxed env var names).
 *
 * <p>Go iterates maps in random order, so the kubelet's variable order is unspecified; here it is
 * stable: first definition's position, {@code envFrom} keys sorted within each source. Service
 * links ({@code KUBERNETES_SERVICE_HOST} and friends) are not produced here.
 */
public final class EnvironmentBuilder {
    private EnvironmentBuilder() {}

    /** One variable of the container's environment. */
    public record EnvVar(String name, String value) {}

    public static List<EnvVar> build(
            JsonNode pod,
            JsonNode container,
            PodInputs inputs,
            NodeContext node,
            List<String> podIps)
            throws PodConfigException {
        String ns = Json.text(pod, "metadata", "namespace");
        Map<String, String> env = new LinkedHashMap<>();

        for (JsonNode from : Json.items(container, "envFrom")) {
            String prefix = Json.text(from, "prefix");
            if (from.has("configMapRef")) {
                JsonNode ref = from.get("configMapRef");
                Optional<PodInputs.ConfigMapData> cm = inputs.configMap(Json.text(ref, "name"));
                if (cm.isEmpty()) {
                    if (Json.bool(ref, "optional")) {
                        continue;
                    }
                    throw PodConfigException.containerConfig(
                            "configmap \"" + Json.text(ref, "name") + "\" not found");
                }
                new TreeMap<>(cm.get().data()).forEach((k, v) -> env.put(prefix + k, v));
            } else if (from.has("secretRef")) {
                JsonNode ref = from.get("secretRef");
                Optional<PodInputs.SecretData> s = inputs.secret(Json.text(ref, "name"));
                if (s.isEmpty()) {
                    if (Json.bool(ref, "optional")) {
                        continue;
                    }
                    throw PodConfigException.containerConfig(
                            "secret \"" + Json.text(ref, "name") + "\" not found");
                }
                new TreeMap<>(s.get().data())
                        .forEach(
                                (k, v) ->
                                        env.put(prefix + k, new String(v, StandardCharsets.UTF_8)));
            }
        }

        Function<String, String> mapping = env::get;
        for (JsonNode var : Json.items(container, "env")) {
            String name = Json.text(var, "name");
            String value = Json.text(var, "value");
            if (!value.isEmpty()) {
                value = Expansion.expand(value, mapping);
            } else if (var.path("valueFrom").isObject()) {
                Optional<String> resolved =
                        valueFrom(pod, container, var.get("valueFrom"), ns, inputs, node, podIps);
                if (resolved.isEmpty()) {
                    continue;
                }
                value = resolved.get();
            }
            env.put(name, value);
        }
        List<EnvVar> out = new ArrayList<>(env.size());
        env.forEach((k, v) -> out.add(new EnvVar(k, v)));
        return out;
    }

    /**
     * The source's value, or empty when an optional source is absent (the variable is then left
     * out).
     */
    private static Optional<String> valueFrom(
            JsonNode pod,
            JsonNode container,
            JsonNode from,
            String ns,
            PodInputs inputs,
            NodeContext node,
            List<String> podIps)
            throws PodConfigException {
        if (from.has("fieldRef")) {
            return Optional.of(
                    DownwardApi.field(pod, Json.text(from, "fieldRef", "fieldPath"), node, podIps));
        }
        if (from.has("resourceFieldRef")) {
            JsonNode ref = from.get("resourceFieldRef");
            JsonNode target = container;
            String other = Json.text(ref, "containerName");
            if (!other.isEmpty()) {
                target =
                        findContainer(pod, other)
                                .orElseThrow(
                                        () ->
                                                PodConfigException.containerConfig(
                                                        "container " + other + " not found"));
            }
            return Optional.of(
                    DownwardApi.resource(
                            target, Json.text(ref, "resource"), Json.text(ref, "divisor"), node));
        }
        if (from.has("configMapKeyRef")) {
            JsonNode ref = from.get("configMapKeyRef");
            String name = Json.text(ref, "name");
            String key = Json.text(ref, "key");
            boolean optional = Json.bool(ref, "optional");
            Optional<PodInputs.ConfigMapData> cm = inputs.configMap(name);
            if (cm.isEmpty()) {
                if (optional) {
                    return Optional.empty();
                }
                throw PodConfigException.containerConfig("configmap \"" + name + "\" not found");
            }
            String v = cm.get().data().get(key);
            if (v == null) {
                if (optional) {
                    return Optional.empty();
                }
                throw PodConfigException.containerConfig(
                        "couldn't find key " + key + " in ConfigMap " + ns + "/" + name);
            }
            return Optional.of(v);
        }
        if (from.has("secretKeyRef")) {
            JsonNode ref = from.get("secretKeyRef");
            String name = Json.text(ref, "name");
            String key = Json.text(ref, "key");
            boolean optional = Json.bool(ref, "optional");
            Optional<PodInputs.SecretData> s = inputs.secret(name);
            if (s.isEmpty()) {
                if (optional) {
                    return Optional.empty();
                }
                throw PodConfigException.containerConfig("secret \"" + name + "\" not found");
            }
            byte[] v = s.get().data().get(key);
            if (v == null) {
                if (optional) {
                    return Optional.empty();
                }
                throw PodConfigException.containerConfig(
                        "couldn't find key " + key + " in Secret " + ns + "/" + name);
            }
            return Optional.of(new String(v, StandardCharsets.UTF_8));
        }
        // A valueFrom with no source the agent knows (e.g. fileKeyRef): kube leaves the value
        // empty.
        return Optional.of("");
    }

    static Optional<JsonNode> findContainer(JsonNode pod, String name) {
        for (String list : List.of("containers", "initContainers")) {
            for (JsonNode c : Json.items(pod, "spec", list)) {
                if (name.equals(Json.text(c, "name"))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * {@code ExpandContainerCommandAndArgs}: {@code $(VAR)} in command and args against the final
     * environment.
     */
    public static List<String> expandAll(List<String> words, List<EnvVar> env) {
        Map<String, String> vars = new LinkedHashMap<>();
        env.forEach(e -> vars.put(e.name(), e.value()));
        List<String> out = new ArrayList<>(words.size());
        for (String w : words) {
            out.add(Expansion.expand(w, vars::get));
        }
        return out;
    }
}
