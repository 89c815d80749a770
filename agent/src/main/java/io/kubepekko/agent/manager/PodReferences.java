package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ConfigMaps and Secrets of its namespace a pod's containers and volumes refer to: what has to
 * be read before its worker can build container configurations ({@link
 * io.kubepekko.agent.runtime.PodInputs}). Every container kind counts (init, app, ephemeral), as do
 * {@code env[].valueFrom}, {@code envFrom}, {@code configMap}/{@code secret} volumes and the
 * sources of {@code projected} volumes. {@code imagePullSecrets} are not inputs of the
 * configurations.
 *
 * @param configMaps names of referenced ConfigMaps, sorted
 * @param secrets names of referenced Secrets, sorted
 */
public record PodReferences(Set<String> configMaps, Set<String> secrets) {

    public PodReferences {
        configMaps = Set.copyOf(configMaps);
        secrets = Set.copyOf(secrets);
    }

    public static PodReferences of(JsonNode pod) {
        Set<String> cms = new TreeSet<>();
        Set<String> secrets = new TreeSet<>();
        JsonNode spec = pod.path("spec");
        for (String kind : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
            for (JsonNode c : spec.path(kind)) {
                for (JsonNode e : c.path("env")) {
                    add(cms, e.path("valueFrom").path("configMapKeyRef").path("name"));
                    add(secrets, e.path("valueFrom").path("secretKeyRef").path("name"));
                }
                for (JsonNode f : c.path("envFrom")) {
                    add(cms, f.path("configMapRef").path("name"));
                    add(secrets, f.path("secretRef").path("name"));
                }
            }
        }
        for (JsonNode v : spec.path("volumes")) {
            add(cms, v.path("configMap").path("name"));
            add(secrets, v.path("secret").path("secretName"));
            for (JsonNode s : v.path("projected").path("sources")) {
                add(cms, s.path("configMap").path("name"));
                add(secrets, s.path("secret").path("name"));
            }
        }
        return new PodReferences(cms, secrets);
    }

    private static void add(Set<String> names, JsonNode name) {
        if (name.isTextual() && !name.asText().isEmpty()) {
            names.add(name.asText());
        }
    }
}
