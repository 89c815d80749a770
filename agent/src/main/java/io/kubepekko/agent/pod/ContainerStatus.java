package io.kubepekko.agent.pod;

import java.util.Optional;

/**
 * The parts of a container's status that decide the pod's phase.
 *
 * @param name the container's name
 * @param state its current state
 * @param lastTerminated {@code lastState.terminated}, if any
 * @param started whether its startup probe (if any) has passed while it runs
 */
public record ContainerStatus(
        String name,
        ContainerState state,
        Optional<ContainerState.Terminated> lastTerminated,
        boolean started) {}
