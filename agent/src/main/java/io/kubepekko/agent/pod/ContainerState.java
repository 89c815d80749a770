package io.kubepekko.agent.pod;

import java.time.Instant;

/**
 * A container's state as its status reports it ({@code waiting}, {@code running}, {@code
 * terminated}).
 */
public sealed interface ContainerState {

    record Waiting(String reason) implements ContainerState {}

    record Running(Instant startedAt) implements ContainerState {}

    record Terminated(int exitCode, String reason, Instant finishedAt) implements ContainerState {}
}
