package io.kubepekko.agent.pod;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.agent.pod.ContainerRestarts.LastRun;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ContainerRestartsTest {
    private static final ContainerSpec APP =
            new ContainerSpec("app", "busybox:1.36", false, "{}", Map.of());
    private static final ContainerSpec SIDECAR =
            new ContainerSpec("log", "busybox:1.36", true, "{}", Map.of());

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "never run: started under Never too",
                        RestartPolicy.NEVER,
                        APP,
                        false,
                        new LastRun.None(),
                        false,
                        true),
                Arguments.of(
                        "created, never started",
                        RestartPolicy.NEVER,
                        APP,
                        false,
                        new LastRun.Created(),
                        false,
                        true),
                Arguments.of(
                        "state unknown",
                        RestartPolicy.NEVER,
                        APP,
                        false,
                        new LastRun.Unknown(),
                        false,
                        true),
                Arguments.of(
                        "running",
                        RestartPolicy.ALWAYS,
                        APP,
                        false,
                        new LastRun.Running(),
                        false,
                        false),
                Arguments.of(
                        "Always after success",
                        RestartPolicy.ALWAYS,
                        APP,
                        false,
                        new LastRun.Exited(0),
                        false,
                        true),
                Arguments.of(
                        "Always after failure",
                        RestartPolicy.ALWAYS,
                        APP,
                        false,
                        new LastRun.Exited(1),
                        false,
                        true),
                Arguments.of(
                        "OnFailure after success",
                        RestartPolicy.ON_FAILURE,
                        APP,
                        false,
                        new LastRun.Exited(0),
                        false,
                        false),
                Arguments.of(
                        "OnFailure after failure",
                        RestartPolicy.ON_FAILURE,
                        APP,
                        false,
                        new LastRun.Exited(137),
                        false,
                        true),
                Arguments.of(
                        "Never after failure",
                        RestartPolicy.NEVER,
                        APP,
                        false,
                        new LastRun.Exited(1),
                        false,
                        false),
                Arguments.of(
                        "pod deleting",
                        RestartPolicy.ALWAYS,
                        APP,
                        false,
                        new LastRun.Exited(1),
                        true,
                        false),
                Arguments.of(
                        "pod deleting, never run",
                        RestartPolicy.ALWAYS,
                        APP,
                        false,
                        new LastRun.None(),
                        true,
                        false),
                Arguments.of(
                        "init completed is done (Always)",
                        RestartPolicy.ALWAYS,
                        APP,
                        true,
                        new LastRun.Exited(0),
                        false,
                        false),
                Arguments.of(
                        "init failed, Always",
                        RestartPolicy.ALWAYS,
                        APP,
                        true,
                        new LastRun.Exited(2),
                        false,
                        true),
                Arguments.of(
                        "init failed, OnFailure",
                        RestartPolicy.ON_FAILURE,
                        APP,
                        true,
                        new LastRun.Exited(2),
                        false,
                        true),
                Arguments.of(
                        "init failed, Never",
                        RestartPolicy.NEVER,
                        APP,
                        true,
                        new LastRun.Exited(2),
                        false,
                        false),
                Arguments.of(
                        "sidecar exited 0, Never",
                        RestartPolicy.NEVER,
                        SIDECAR,
                        true,
                        new LastRun.Exited(0),
                        false,
                        true),
                Arguments.of(
                        "sidecar running",
                        RestartPolicy.NEVER,
                        SIDECAR,
                        true,
                        new LastRun.Running(),
                        false,
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decidesAsTheKubelet(
            String name,
            RestartPolicy policy,
            ContainerSpec c,
            boolean init,
            LastRun last,
            boolean deleting,
            boolean expected) {
        assertEquals(expected, ContainerRestarts.shouldStart(policy, c, init, last, deleting));
    }
}
