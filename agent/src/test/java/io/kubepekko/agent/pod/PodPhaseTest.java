package io.kubepekko.agent.pod;

import static io.kubepekko.agent.pod.PodPhase.FAILED;
import static io.kubepekko.agent.pod.PodPhase.PENDING;
import static io.kubepekko.agent.pod.PodPhase.RUNNING;
import static io.kubepekko.agent.pod.PodPhase.SUCCEEDED;
import static io.kubepekko.agent.pod.RestartPolicy.ALWAYS;
import static io.kubepekko.agent.pod.RestartPolicy.NEVER;
import static io.kubepekko.agent.pod.RestartPolicy.ON_FAILURE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PodPhaseTest {
    private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

    private static ContainerSpec c(String name) {
        return new ContainerSpec(name, "busybox:1.36", false, "{}", Map.of());
    }

    private static ContainerSpec sidecar(String name) {
        return new ContainerSpec(name, "busybox:1.36", true, "{}", Map.of());
    }

    private static ContainerStatus running(String name) {
        return new ContainerStatus(name, new ContainerState.Running(T), Optional.empty(), true);
    }

    private static ContainerStatus runningNotStarted(String name) {
        return new ContainerStatus(name, new ContainerState.Running(T), Optional.empty(), false);
    }

    private static ContainerStatus exited(String name, int code) {
        return new ContainerStatus(
                name,
                new ContainerState.Terminated(code, code == 0 ? "Completed" : "Error", T),
                Optional.empty(),
                false);
    }

    private static ContainerStatus waiting(String name) {
        return new ContainerStatus(
                name, new ContainerState.Waiting("ContainerCreating"), Optional.empty(), false);
    }

    private static ContainerStatus crashLooping(String name, int lastCode) {
        return new ContainerStatus(
                name,
                new ContainerState.Waiting("CrashLoopBackOff"),
                Optional.of(new ContainerState.Terminated(lastCode, "Error", T)),
                false);
    }

    private static PodSpec pod(RestartPolicy p, List<ContainerSpec> init, List<ContainerSpec> app) {
        return new PodSpec(p, init, app);
    }

    static Stream<Arguments> cases() {
        List<ContainerSpec> app = List.of(c("app"));
        List<ContainerSpec> two = List.of(c("a"), c("b"));
        return Stream.of(
                Arguments.of(
                        "nothing observed yet",
                        pod(ALWAYS, List.of(), app),
                        List.of(),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "waiting to be created",
                        pod(ALWAYS, List.of(), app),
                        List.of(waiting("app")),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "running",
                        pod(ALWAYS, List.of(), app),
                        List.of(running("app")),
                        false,
                        false,
                        false,
                        RUNNING),
                Arguments.of(
                        "one running, one not seen",
                        pod(ALWAYS, List.of(), two),
                        List.of(running("a")),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "init container running",
                        pod(ALWAYS, List.of(c("init")), app),
                        List.of(running("init"), waiting("app")),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "init failed, Never",
                        pod(NEVER, List.of(c("init")), app),
                        List.of(exited("init", 1), waiting("app")),
                        false,
                        false,
                        false,
                        FAILED),
                Arguments.of(
                        "init failed and retrying, OnFailure",
                        pod(ON_FAILURE, List.of(c("init")), app),
                        List.of(crashLooping("init", 1), waiting("app")),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "init done, app running",
                        pod(NEVER, List.of(c("init")), app),
                        List.of(exited("init", 0), running("app")),
                        false,
                        false,
                        false,
                        RUNNING),
                Arguments.of(
                        "all exited 0, Always: restarting",
                        pod(ALWAYS, List.of(), two),
                        List.of(exited("a", 0), exited("b", 0)),
                        false,
                        false,
                        false,
                        RUNNING),
                Arguments.of(
                        "all exited 0, OnFailure",
                        pod(ON_FAILURE, List.of(), two),
                        List.of(exited("a", 0), exited("b", 0)),
                        false,
                        false,
                        false,
                        SUCCEEDED),
                Arguments.of(
                        "all exited 0, Never",
                        pod(NEVER, List.of(), app),
                        List.of(exited("app", 0)),
                        false,
                        false,
                        false,
                        SUCCEEDED),
                Arguments.of(
                        "one failed, Never",
                        pod(NEVER, List.of(), two),
                        List.of(exited("a", 0), exited("b", 2)),
                        false,
                        false,
                        false,
                        FAILED),
                Arguments.of(
                        "one failed, OnFailure: restarting",
                        pod(ON_FAILURE, List.of(), two),
                        List.of(exited("a", 0), exited("b", 2)),
                        false,
                        false,
                        false,
                        RUNNING),
                Arguments.of(
                        "crash loop, Always",
                        pod(ALWAYS, List.of(), app),
                        List.of(crashLooping("app", 1)),
                        false,
                        false,
                        false,
                        RUNNING),
                Arguments.of(
                        "crash loop waiting under Never counts as failed",
                        pod(NEVER, List.of(), app),
                        List.of(crashLooping("app", 137)),
                        false,
                        false,
                        false,
                        FAILED),
                Arguments.of(
                        "terminal pod with a failure, Always",
                        pod(ALWAYS, List.of(), app),
                        List.of(exited("app", 1)),
                        true,
                        false,
                        false,
                        FAILED),
                Arguments.of(
                        "terminal pod all succeeded, Always",
                        pod(ALWAYS, List.of(), app),
                        List.of(exited("app", 0)),
                        true,
                        false,
                        false,
                        SUCCEEDED),
                Arguments.of(
                        "terminal static pod keeps the policy's phase",
                        pod(ALWAYS, List.of(), app),
                        List.of(exited("app", 1)),
                        true,
                        false,
                        true,
                        RUNNING),
                Arguments.of(
                        "sidecar not started yet",
                        pod(ALWAYS, List.of(sidecar("log")), app),
                        List.of(runningNotStarted("log"), waiting("app")),
                        false,
                        false,
                        false,
                        PENDING),
                Arguments.of(
                        "sidecar and app running",
                        pod(ALWAYS, List.of(sidecar("log")), app),
                        List.of(running("log"), running("app")),
                        false,
                        true,
                        false,
                        RUNNING),
                Arguments.of(
                        "sidecar restarting after initialization",
                        pod(ALWAYS, List.of(sidecar("log")), app),
                        List.of(runningNotStarted("log"), running("app")),
                        false,
                        true,
                        false,
                        RUNNING),
                Arguments.of(
                        "sidecar exited does not count, app done, Never",
                        pod(NEVER, List.of(sidecar("log")), app),
                        List.of(exited("log", 137), exited("app", 0)),
                        false,
                        true,
                        false,
                        SUCCEEDED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void computesAsTheKubeletsGetPhase(
            String name,
            PodSpec spec,
            List<ContainerStatus> statuses,
            boolean terminal,
            boolean initialized,
            boolean staticPod,
            PodPhase expected) {
        assertEquals(expected, PodPhase.of(spec, statuses, terminal, initialized, staticPod));
    }
}
