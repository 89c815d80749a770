package io.kubepekko.agent.worker;

import java.util.Map;

/**
 * The probes' results a pod's status is built from (the kubelet's readiness and startup results
 * caches), per container id: whether its readiness probe last said ready, and whether its startup
 * probe has passed. A container id not in a map has no result yet (not ready; not started).
 *
 * @param readiness per container id, its readiness probe's result is Success
 * @param started per container id, its startup probe's result is Success
 */
public record ProbeResults(Map<String, Boolean> readiness, Map<String, Boolean> started) {

    public static final ProbeResults NONE = new ProbeResults(Map.of(), Map.of());

    public ProbeResults {
        readiness = Map.copyOf(readiness);
        started = Map.copyOf(started);
    }
}
