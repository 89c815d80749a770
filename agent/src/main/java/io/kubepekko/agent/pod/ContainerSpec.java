package io.kubepekko.agent.pod;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.probe.ProbeKind;
import io.kubepekko.agent.probe.ProbeSpec;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of a container of a pod spec the agent's decisions need, read once from the object.
 *
 * @param name the container's name
 * @param image its image reference as written
 * @param sidecar an init container with {@code restartPolicy: Always}: it keeps running beside the
 *     app containers
 * @param resources the {@code resources} object as JSON text (part of the back-off key, as in the
 *     kubelet)
 * @param probes its probes by kind
 */
public record ContainerSpec(
        String name,
        String image,
        boolean sidecar,
        String resources,
        Map<ProbeKind, ProbeSpec> probes) {

    public ContainerSpec {
        probes = Map.copyOf(probes);
    }

    /** Reads a container ({@code spec.containers[i]} or {@code spec.initContainers[i]}). */
    public static ContainerSpec of(JsonNode container, boolean init) {
        Map<ProbeKind, ProbeSpec> probes = new EnumMap<>(ProbeKind.class);
        for (ProbeKind kind : ProbeKind.values()) {
            JsonNode probe = container.get(kind.field());
            if (probe != null && probe.isObject()) {
                probes.put(kind, ProbeSpec.of(kind, probe));
            }
        }
        boolean sidecar = init && "Always".equals(container.path("restartPolicy").asText(""));
        JsonNode resources = container.path("resources");
        return new ContainerSpec(
                container.path("name").asText(""),
                container.path("image").asText(""),
                sidecar,
                resources.isObject() ? resources.toString() : "{}",
                probes);
    }

    public Optional<ProbeSpec> probe(ProbeKind kind) {
        return Optional.ofNullable(probes.get(kind));
    }
}
