package io.kubepekko.agent.pod;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a pod the agent's pure decisions need (restart policy, containers in order), read
 * once from the object as the API serves it.
 */
public record PodSpec(
        RestartPolicy restartPolicy,
        List<ContainerSpec> initContainers,
        List<ContainerSpec> containers) {

    public PodSpec {
        initContainers = List.copyOf(initContainers);
        containers = List.copyOf(containers);
    }

    /** Reads {@code spec} of a pod. */
    public static PodSpec of(JsonNode spec) {
        return new PodSpec(
                RestartPolicy.of(spec.path("restartPolicy").asText("")),
                containers(spec.path("initContainers"), true),
                containers(spec.path("containers"), false));
    }

    private static List<ContainerSpec> containers(JsonNode list, boolean init) {
        List<ContainerSpec> out = new ArrayList<>();
        if (list.isArray()) {
            list.forEach(c -> out.add(ContainerSpec.of(c, init)));
        }
        return out;
    }
}
