package io.kubepekko.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.pod.PodSpec;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The pod status from observed containers, without actors or a runtime. */
class PodStatusBuilderTest {

    private static final long T0 =
            Instant.parse("2026-01-02T03:04:05.678Z").getEpochSecond() * 1_000_000_000L
                    + 678_000_000L;
    private static final ObservedPod.Sandbox SANDBOX =
            new ObservedPod.Sandbox("sb", 0, List.of("10.88.0.5"));

    private static JsonNode pod(String policy, String containers) {
        return PodWorkerFixture.pod("web", "uid-1", policy, containers);
    }

    private static ObjectNode build(
            JsonNode pod,
            Map<String, List<ContainerStatus>> containers,
            Map<String, Waiting> reasons) {
        return PodStatusBuilder.build(
                new PodStatusBuilder.Input(
                        pod,
                        PodSpec.of(pod.path("spec")),
                        new ObservedPod(Optional.of(SANDBOX), List.of("sb"), containers),
                        reasons,
                        List.of("192.168.1.10"),
                        Optional.of(Instant.ofEpochSecond(1000)),
                        "containerd",
                        Map.of(),
                        pod.path("status").path("conditions"),
                        Instant.ofEpochSecond(2000)));
    }

    private static ObjectNode build(
            JsonNode pod,
            Map<String, List<ContainerStatus>> containers,
            Map<String, Boolean> readiness,
            Optional<ObservedPod.Sandbox> sandbox) {
        return PodStatusBuilder.build(
                new PodStatusBuilder.Input(
                        pod,
                        PodSpec.of(pod.path("spec")),
                        new ObservedPod(sandbox, List.of("sb"), containers),
                        Map.of(),
                        List.of("192.168.1.10"),
                        Optional.of(Instant.ofEpochSecond(1000)),
                        "containerd",
                        readiness,
                        pod.path("status").path("conditions"),
                        Instant.ofEpochSecond(2000)));
    }

    private static String condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText()
                        + " "
                        + c.path("reason").asText("")
                        + " "
                        + c.path("message").asText("");
            }
        }
        return "absent";
    }

    private static ContainerStatus running(String id, int attempt) {
        return ContainerStatus.newBuilder()
                .setId(id)
                .setState(ContainerState.CONTAINER_RUNNING)
                .setMetadata(ContainerMetadata.newBuilder().setName("app").setAttempt(attempt))
                .setImageRef("sha256:abc")
                .setStartedAt(T0)
                .build();
    }

    private static ContainerStatus exited(String id, int attempt, int code, String reason) {
        return ContainerStatus.newBuilder()
                .setId(id)
                .setState(ContainerState.CONTAINER_EXITED)
                .setMetadata(ContainerMetadata.newBuilder().setName("app").setAttempt(attempt))
                .setImageRef("sha256:abc")
                .setStartedAt(T0)
                .setFinishedAt(T0 + 2_000_000_000L)
                .setExitCode(code)
                .setReason(reason)
                .build();
    }

    private static final String ONE = "containers: [{name: 'app', image: 'busybox:1.36'}]";

    @Test
    void aContainerNotCreatedYetWaitsContainerCreatingAndThePodIsPending() {
        ObjectNode status = build(pod("Always", ONE), Map.of(), Map.of());
        assertEquals("Pending", status.path("phase").asText());
        JsonNode app = status.path("containerStatuses").get(0);
        assertEquals(
                "{\"waiting\":{\"reason\":\"ContainerCreating\"}}", app.path("state").toString());
        assertEquals("{}", app.path("lastState").toString());
        assertFalse(app.has("containerID"));
        assertEquals("busybox:1.36", app.path("image").asText());
        assertEquals("10.88.0.5", status.path("podIPs").get(0).path("ip").asText());
        assertEquals("1970-01-01T00:16:40Z", status.path("startTime").asText());
    }

    @Test
    void aRunningContainerWithoutProbesIsReadyAndItsTimesAreWholeSeconds() {
        ObjectNode status =
                build(pod("Always", ONE), Map.of("app", List.of(running("c1", 0))), Map.of());
        assertEquals("Running", status.path("phase").asText());
        JsonNode app = status.path("containerStatuses").get(0);
        assertEquals(
                "2026-01-02T03:04:05Z",
                app.path("state").path("running").path("startedAt").asText());
        assertTrue(app.path("ready").asBoolean());
        assertTrue(app.path("started").asBoolean());
        assertEquals("containerd://c1", app.path("containerID").asText());
        assertEquals("sha256:abc", app.path("imageID").asText());
    }

    @Test
    void aReadinessProbeKeepsARunningContainerUnreadyUntilProbesDecide() {
        JsonNode pod =
                pod(
                        "Always",
                        "containers: [{name: 'app', image: 'busybox:1.36',"
                                + " readinessProbe: {exec: {command: ['true']}}}]");
        JsonNode app =
                build(pod, Map.of("app", List.of(running("c1", 0))), Map.of())
                        .path("containerStatuses")
                        .get(0);
        assertFalse(app.path("ready").asBoolean());
        assertTrue(app.path("started").asBoolean());
    }

    @Test
    void aCrashedContainerBackingOffWaitsWithTheRecordedReasonAndShowsTheCrashAsLastState() {
        Waiting backOff =
                new Waiting(
                        "CrashLoopBackOff",
                        "back-off 10s restarting failed container=app pod=web_default(uid-1)");
        ObjectNode status =
                build(
                        pod("Always", ONE),
                        Map.of(
                                "app",
                                List.of(exited("c2", 1, 1, "Error"), exited("c1", 0, 1, "Error"))),
                        Map.of("app", backOff));
        JsonNode app = status.path("containerStatuses").get(0);
        assertEquals("CrashLoopBackOff", app.path("state").path("waiting").path("reason").asText());
        assertEquals(backOff.message(), app.path("state").path("waiting").path("message").asText());
        JsonNode last = app.path("lastState").path("terminated");
        assertEquals(
                "containerd://c2",
                last.path("containerID").asText(),
                "the newest crash, not the one before");
        assertEquals("2026-01-02T03:04:07Z", last.path("finishedAt").asText());
        assertEquals(1, app.path("restartCount").asInt());
        assertEquals("Running", status.path("phase").asText(), "Always: on its way to a restart");
    }

    @Test
    void aRestartedContainerShowsThePreviousInstanceOomKilledAsLastState() {
        JsonNode app =
                build(
                                pod("Always", ONE),
                                Map.of(
                                        "app",
                                        List.of(
                                                running("c2", 1),
                                                exited("c1", 0, 137, "OOMKilled"))),
                                Map.of())
                        .path("containerStatuses")
                        .get(0);
        assertEquals("OOMKilled", app.path("lastState").path("terminated").path("reason").asText());
        assertEquals(137, app.path("lastState").path("terminated").path("exitCode").asInt());
        assertEquals(1, app.path("restartCount").asInt());
    }

    @Test
    void neverAndExitZeroIsSucceededWithTheContainerTerminated() {
        ObjectNode status =
                build(
                        pod("Never", ONE),
                        Map.of("app", List.of(exited("c1", 0, 0, "Completed"))),
                        Map.of());
        assertEquals("Succeeded", status.path("phase").asText());
        assertEquals(
                "Completed",
                status.path("containerStatuses")
                        .get(0)
                        .path("state")
                        .path("terminated")
                        .path("reason")
                        .asText());
    }

    @Test
    void neverAndExitOneIsFailedEvenWithAStaleReason() {
        ObjectNode status =
                build(
                        pod("Never", ONE),
                        Map.of("app", List.of(exited("c1", 0, 1, "Error"))),
                        Map.of("app", new Waiting("CrashLoopBackOff", "stale")));
        assertEquals("Failed", status.path("phase").asText());
        assertTrue(status.path("containerStatuses").get(0).path("state").has("terminated"));
    }

    @Test
    void appContainersWaitPodInitializingWhileAnInitContainerRuns() {
        JsonNode pod =
                pod(
                        "Always",
                        "initContainers: [{name: 'setup', image: 'busybox:1.36'}],"
                                + " containers: [{name: 'main', image: 'busybox:1.36'}]");
        ContainerStatus setup =
                running("i1", 0).toBuilder()
                        .setMetadata(ContainerMetadata.newBuilder().setName("setup"))
                        .build();
        ObjectNode status = build(pod, Map.of("setup", List.of(setup)), Map.of());
        assertEquals("Pending", status.path("phase").asText());
        assertFalse(status.path("initContainerStatuses").get(0).path("ready").asBoolean());
        assertEquals(
                "PodInitializing",
                status.path("containerStatuses")
                        .get(0)
                        .path("state")
                        .path("waiting")
                        .path("reason")
                        .asText());
    }

    @Test
    void aCreatedContainerNotYetStartedWaitsWithoutAReason() {
        ContainerStatus created =
                ContainerStatus.newBuilder()
                        .setId("c1")
                        .setState(ContainerState.CONTAINER_CREATED)
                        .setMetadata(ContainerMetadata.newBuilder().setName("app"))
                        .build();
        JsonNode app =
                build(pod("Always", ONE), Map.of("app", List.of(created)), Map.of())
                        .path("containerStatuses")
                        .get(0);
        assertEquals("{\"waiting\":{}}", app.path("state").toString());
    }

    @Test
    void aProbedContainerIsReadyOnceItsReadinessResultSaysSoAndThenThePodIsReady() {
        JsonNode pod =
                pod(
                        "Always",
                        "containers: [{name: 'app', image: 'busybox:1.36',"
                                + " readinessProbe: {exec: {command: ['true']}}}]");
        Map<String, List<ContainerStatus>> containers = Map.of("app", List.of(running("c1", 0)));

        ObjectNode initial = build(pod, containers, Map.of(), Optional.of(SANDBOX));
        assertEquals(
                "False ContainersNotReady containers with unready status: [app]",
                condition(initial, "Ready"));
        ObjectNode failing = build(pod, containers, Map.of("c1", false), Optional.of(SANDBOX));
        assertEquals(
                "False ContainersNotReady containers with unready status: [app]",
                condition(failing, "ContainersReady"));
        ObjectNode passing = build(pod, containers, Map.of("c1", true), Optional.of(SANDBOX));
        assertTrue(passing.path("containerStatuses").get(0).path("ready").asBoolean());
        assertEquals("True  ", condition(passing, "Ready"));
        assertEquals("True  ", condition(passing, "ContainersReady"));
    }

    @Test
    void aContainerWithAStartupProbeIsNeitherStartedNorReadyUntilItsStartupResultSaysSo() {
        JsonNode pod =
                pod(
                        "Always",
                        "containers: [{name: 'app', image: 'busybox:1.36',"
                                + " startupProbe: {exec: {command: ['true']}}}]");
        ObservedPod observed =
                new ObservedPod(
                        Optional.of(SANDBOX),
                        List.of("sb"),
                        Map.of("app", List.of(running("c1", 0))));
        Function<Map<String, Boolean>, JsonNode> app =
                started ->
                        PodStatusBuilder.build(
                                        new PodStatusBuilder.Input(
                                                pod,
                                                PodSpec.of(pod.path("spec")),
                                                observed,
                                                Map.of(),
                                                List.of("192.168.1.10"),
                                                Optional.empty(),
                                                "containerd",
                                                Map.of(),
                                                pod.path("status").path("conditions"),
                                                Instant.ofEpochSecond(2000),
                                                started))
                                .path("containerStatuses")
                                .get(0);

        assertEquals(
                "false false",
                app.apply(Map.of()).path("started") + " " + app.apply(Map.of()).path("ready"));
        assertEquals(
                "false false",
                app.apply(Map.of("c1", false)).path("started")
                        + " "
                        + app.apply(Map.of("c1", false)).path("ready"));
        assertEquals(
                "true true",
                app.apply(Map.of("c1", true)).path("started")
                        + " "
                        + app.apply(Map.of("c1", true)).path("ready"),
                "no readiness probe: ready once started");
    }

    @Test
    void theStatusCarriesEveryKubeletConditionAndTheObservedGeneration() {
        JsonNode pod = PodWorkerFixture.pod("web", "uid-1", "Always", ONE);
        ((ObjectNode) pod.path("metadata")).put("generation", 2);
        ObjectNode status =
                build(
                        pod,
                        Map.of("app", List.of(running("c1", 0))),
                        Map.of(),
                        Optional.of(SANDBOX));
        assertEquals(2, status.path("observedGeneration").asLong());
        assertEquals("True  ", condition(status, "PodReadyToStartContainers"));
        assertEquals("True  ", condition(status, "Initialized"));
        assertEquals("True  ", condition(status, "PodScheduled"));
        assertEquals(
                "1970-01-01T00:33:20Z",
                status.path("conditions").get(0).path("lastTransitionTime").asText());
        assertEquals(2, status.path("conditions").get(0).path("observedGeneration").asLong());
    }

    @Test
    void withoutASandboxThePodIsNotReadyToStartContainersAndHasNoPodIp() {
        ObjectNode status = build(pod("Always", ONE), Map.of(), Map.of(), Optional.empty());
        assertEquals("False  ", condition(status, "PodReadyToStartContainers"));
        assertFalse(status.has("podIP"));
    }

    @Test
    void aHostNetworkPodHasTheNodesAddressesAsPodIps() {
        JsonNode pod = pod("Always", "hostNetwork: true, " + ONE);
        ObjectNode status =
                build(
                        pod,
                        Map.of(),
                        Map.of(),
                        Optional.of(new ObservedPod.Sandbox("sb", 0, List.of())));
        assertEquals("192.168.1.10", status.path("podIP").asText());
        assertEquals("192.168.1.10", status.path("podIPs").get(0).path("ip").asText());
        assertEquals("True  ", condition(status, "PodReadyToStartContainers"));
    }

    @Test
    void aRunningSidecarWithoutAReadinessProbeIsReady() {
        JsonNode pod =
                pod(
                        "Always",
                        "initContainers: [{name: 'side', image: 'busybox:1.36', restartPolicy: 'Always'}],"
                                + " containers: [{name: 'main', image: 'busybox:1.36'}]");
        ContainerStatus side =
                running("s1", 0).toBuilder()
                        .setMetadata(ContainerMetadata.newBuilder().setName("side"))
                        .build();
        ObjectNode status =
                build(pod, Map.of("side", List.of(side)), Map.of(), Optional.of(SANDBOX));
        assertTrue(status.path("initContainerStatuses").get(0).path("ready").asBoolean());
        assertEquals("True  ", condition(status, "Initialized"));
        assertEquals(
                "False ContainersNotReady containers with unready status: [main]",
                condition(status, "ContainersReady"));
    }
}
