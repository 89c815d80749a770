package io.kubepekko.agent.cri;

import static io.kubepekko.agent.cri.CriTestSupport.await;
import static io.kubepekko.agent.cri.CriTestSupport.container;
import static io.kubepekko.agent.cri.CriTestSupport.failure;
import static io.kubepekko.agent.cri.CriTestSupport.sandbox;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStateValue;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import io.kubepekko.agent.cri.v1.LinuxPodSandboxConfig;
import io.kubepekko.agent.cri.v1.LinuxSandboxSecurityContext;
import io.kubepekko.agent.cri.v1.NamespaceMode;
import io.kubepekko.agent.cri.v1.NamespaceOption;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.cri.v1.PodSandboxStateValue;
import io.kubepekko.agent.cri.v1.StartContainerRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The fake runtime behaves as containerd 1.6's CRI plugin does where the agent depends on it. */
class FakeCriTest {

    @TempDir Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private FakeCri fake;
    private CriRuntime cri;
    private final PodSandboxConfig pod = sandbox("web", "uid-1");
    private String sandboxId;

    @BeforeEach
    void start() {
        fake = FakeCri.start(dir.resolve("cri.sock"), clock);
        cri = CriRuntime.connect(fake.endpoint(), Duration.ofSeconds(10));
        sandboxId = await(cri.runPodSandbox(pod, ""));
    }

    @AfterEach
    void stop() {
        cri.close();
        fake.close();
    }

    private String run(String name, int attempt) {
        String id =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, name, attempt, "busybox:1.36"), pod));
        await(cri.startContainer(id));
        return id;
    }

    @Test
    void idsAreSixtyFourHexDigitsAndTimesComeFromTheClock() {
        clock.now = Instant.parse("2026-01-01T00:00:05Z");
        String id = run("app", 0);
        assertTrue(id.matches("[0-9a-f]{64}"), id);
        assertTrue(sandboxId.matches("[0-9a-f]{64}"), sandboxId);
        ContainerStatus status = await(cri.containerStatus(id));
        assertEquals(1_767_225_605_000_000_000L, status.getCreatedAt());
        assertEquals(1_767_225_605_000_000_000L, status.getStartedAt());
        assertEquals(0, status.getFinishedAt());
    }

    @Test
    void anExitedContainerNeverStartsAgainAndARestartIsANewAttempt() {
        String first = run("app", 0);
        fake.exitContainer(first, 1);

        CriError restart = failure(cri.startContainer(first));
        assertEquals(CriError.Code.UNKNOWN, restart.code());
        assertEquals(
                "failed to set starting state for container \""
                        + first
                        + "\": container is in CONTAINER_EXITED state",
                restart.message());

        CriError sameAttempt =
                failure(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "busybox:1.36"), pod));
        assertEquals(CriError.Code.UNKNOWN, sameAttempt.code());
        assertTrue(
                sameAttempt
                        .message()
                        .startsWith("failed to reserve container name \"app_web_default_uid-1_0\""),
                sameAttempt.message());

        String second = run("app", 1);
        assertNotEquals(first, second);
        assertEquals(
                ContainerState.CONTAINER_RUNNING, await(cri.containerStatus(second)).getState());
        assertEquals(1, fake.latestContainer("app").orElseThrow().getMetadata().getAttempt());
        assertEquals(ContainerState.CONTAINER_EXITED, await(cri.containerStatus(first)).getState());
    }

    static Stream<Arguments> exits() {
        return Stream.of(
                Arguments.of(
                        "exit 0 is Completed",
                        (Consumer<Exit>) e -> e.fake.exitContainer(e.id, 0),
                        0,
                        "Completed"),
                Arguments.of(
                        "exit 2 is Error",
                        (Consumer<Exit>) e -> e.fake.exitContainer(e.id, 2),
                        2,
                        "Error"),
                Arguments.of(
                        "OOM kill", (Consumer<Exit>) e -> e.fake.oomKill(e.id), 137, "OOMKilled"));
    }

    record Exit(FakeCri fake, String id) {}

    @ParameterizedTest(name = "{0}")
    @MethodSource("exits")
    void anExitedContainerReportsItsExitCodeReasonAndFinishTime(
            String name, Consumer<Exit> end, int exitCode, String reason) {
        String id = run("app", 0);
        clock.now = clock.now.plusSeconds(7);
        end.accept(new Exit(fake, id));

        ContainerStatus status = await(cri.containerStatus(id));
        assertEquals(ContainerState.CONTAINER_EXITED, status.getState());
        assertEquals(exitCode, status.getExitCode());
        assertEquals(reason, status.getReason());
        assertEquals(7_000_000_000L, status.getFinishedAt() - status.getStartedAt());
    }

    @Test
    void anOomEventHandledAfterTheExitTurnsErrorIntoOomKilledAndOneHandledBeforeIsKept() {
        String late = run("late", 0);
        fake.exitContainer(late, 137);
        assertEquals("Error", await(cri.containerStatus(late)).getReason());
        fake.oomEvent(late);
        ContainerStatus status = await(cri.containerStatus(late));
        assertEquals(137, status.getExitCode());
        assertEquals("OOMKilled", status.getReason());

        String counted = run("counted", 0);
        fake.oomEventAfterReads(counted, 2);
        fake.exitContainer(counted, 137);
        assertEquals("Error", await(cri.containerStatus(counted)).getReason());
        assertEquals("Error", await(cri.containerStatus(counted)).getReason());
        assertEquals("OOMKilled", await(cri.containerStatus(counted)).getReason());
        assertEquals("OOMKilled", await(cri.containerStatus(counted)).getReason());

        String early = run("early", 0);
        fake.oomEvent(early);
        fake.exitContainer(early, 137);
        assertEquals("OOMKilled", await(cri.containerStatus(early)).getReason());
    }

    @Test
    void aStartThatFailsLeavesTheContainerExitedWithStartError() {
        String message =
                "failed to create containerd task: exec: \"nosuch\": executable file not found in $PATH";
        fake.failStarts("app", message);
        String id =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "busybox:1.36"), pod));

        CriError error = failure(cri.startContainer(id));
        assertEquals(CriError.Code.UNKNOWN, error.code());
        assertEquals(message, error.message());
        ContainerStatus status = await(cri.containerStatus(id));
        assertEquals(ContainerState.CONTAINER_EXITED, status.getState());
        assertEquals(128, status.getExitCode());
        assertEquals("StartError", status.getReason());
        assertEquals(message, status.getMessage());
    }

    @Test
    void listsFilterBySandboxStateAndEveryLabel() {
        PodSandboxConfig other = sandbox("db", "uid-2");
        String otherSandbox = await(cri.runPodSandbox(other, ""));
        String app = run("app", 0);
        String sidecar = run("sidecar", 0);
        fake.exitContainer(sidecar, 0);
        String db =
                await(
                        cri.createContainer(
                                otherSandbox, container(other, "app", 0, "busybox:1.36"), other));

        assertEquals(
                Set.of(app, sidecar),
                ids(ContainerFilter.newBuilder().setPodSandboxId(sandboxId).build()));
        assertEquals(
                Set.of(app, db),
                ids(
                        ContainerFilter.newBuilder()
                                .putLabelSelector("io.kubernetes.container.name", "app")
                                .build()));
        assertEquals(
                Set.of(app),
                ids(
                        ContainerFilter.newBuilder()
                                .putLabelSelector("io.kubernetes.container.name", "app")
                                .putLabelSelector("io.kubernetes.pod.uid", "uid-1")
                                .build()));
        assertEquals(
                Set.of(sidecar),
                ids(
                        ContainerFilter.newBuilder()
                                .setState(
                                        ContainerStateValue.newBuilder()
                                                .setState(ContainerState.CONTAINER_EXITED))
                                .build()));
        assertEquals(Set.of(db), ids(ContainerFilter.newBuilder().setId(db).build()));
        assertEquals(
                Set.of(),
                ids(
                        ContainerFilter.newBuilder()
                                .putLabelSelector("io.kubernetes.pod.uid", "nope")
                                .build()));

        await(cri.stopPodSandbox(otherSandbox));
        assertEquals(
                List.of(sandboxId),
                await(
                                cri.listPodSandbox(
                                        PodSandboxFilter.newBuilder()
                                                .setState(
                                                        PodSandboxStateValue.newBuilder()
                                                                .setState(
                                                                        PodSandboxState
                                                                                .SANDBOX_READY))
                                                .build()))
                        .stream()
                        .map(s -> s.getId())
                        .toList());
        assertEquals(
                List.of(otherSandbox),
                await(
                                cri.listPodSandbox(
                                        PodSandboxFilter.newBuilder()
                                                .putLabelSelector("io.kubernetes.pod.name", "db")
                                                .build()))
                        .stream()
                        .map(s -> s.getId())
                        .toList());
    }

    private Set<String> ids(ContainerFilter filter) {
        return await(cri.listContainers(filter)).stream()
                .map(c -> c.getId())
                .collect(Collectors.toSet());
    }

    @Test
    void stoppingASandboxKillsItsContainersAndRemovingItRemovesThem() {
        String app = run("app", 0);
        await(cri.stopPodSandbox(sandboxId));

        ContainerStatus killed = await(cri.containerStatus(app));
        assertEquals(ContainerState.CONTAINER_EXITED, killed.getState());
        assertEquals(137, killed.getExitCode());
        assertEquals("Error", killed.getReason());
        CriError create =
                failure(
                        cri.createContainer(
                                sandboxId, container(pod, "late", 0, "busybox:1.36"), pod));
        assertEquals(CriError.Code.NOT_FOUND, create.code());

        await(cri.removePodSandbox(sandboxId));
        assertTrue(fake.containers().isEmpty());
        assertTrue(fake.sandboxes().isEmpty());
        // The name is free again once removed.
        assertTrue(await(cri.runPodSandbox(pod, "")).matches("[0-9a-f]{64}"));
    }

    @Test
    void aSandboxNameIsReservedUntilRemovedAndAHostNetworkSandboxHasNoIp() {
        CriError twice = failure(cri.runPodSandbox(pod, ""));
        assertEquals(CriError.Code.UNKNOWN, twice.code());
        assertTrue(
                twice.message()
                        .startsWith("failed to reserve sandbox name \"web_default_uid-1_0\""),
                twice.message());

        PodSandboxConfig host =
                sandbox("node-exporter", "uid-3").toBuilder()
                        .setHostname("")
                        .setLinux(
                                LinuxPodSandboxConfig.newBuilder()
                                        .setSecurityContext(
                                                LinuxSandboxSecurityContext.newBuilder()
                                                        .setNamespaceOptions(
                                                                NamespaceOption.newBuilder()
                                                                        .setNetwork(
                                                                                NamespaceMode
                                                                                        .NODE))))
                        .build();
        String id = await(cri.runPodSandbox(host, ""));
        var status = await(cri.podSandboxStatus(id)).getStatus();
        assertEquals("", status.getNetwork().getIp());
        assertEquals(
                NamespaceMode.NODE, status.getLinux().getNamespaces().getOptions().getNetwork());
    }

    @Test
    void stopSendsSigtermThenSigkillAfterTheGracePeriod() {
        String polite = run("polite", 0);
        fake.ignoreSigterm("stubborn");
        String stubborn = run("stubborn", 0);
        String created =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "never", 0, "busybox:1.36"), pod));

        await(cri.stopContainer(polite, Duration.ofSeconds(30)));
        await(cri.stopContainer(stubborn, Duration.ofSeconds(30)));
        await(cri.stopContainer(created, Duration.ofSeconds(30)));
        assertEquals(143, await(cri.containerStatus(polite)).getExitCode());
        assertEquals(137, await(cri.containerStatus(stubborn)).getExitCode());
        assertEquals(
                ContainerState.CONTAINER_CREATED, await(cri.containerStatus(created)).getState());

        await(cri.stopContainer(polite, Duration.ZERO));
        assertEquals(143, await(cri.containerStatus(polite)).getExitCode());
        CriError missing = failure(cri.stopContainer("0".repeat(64), Duration.ZERO));
        assertEquals(CriError.Code.NOT_FOUND, missing.code());
        assertEquals(
                "an error occurred when try to find container \""
                        + "0".repeat(64)
                        + "\": not found",
                missing.message());
    }

    @Test
    void aContainerOfAnAbsentImageIsNotCreated() {
        CriError error =
                failure(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "nginx:1.27"), pod));
        assertEquals(CriError.Code.NOT_FOUND, error.code());
        assertEquals("failed to resolve image \"nginx:1.27\": not found", error.message());
        assertTrue(fake.containers().isEmpty());
    }

    @Test
    void execSyncAnswersItsScriptInOrderThenRepeatsTheLast() {
        String id = run("app", 0);
        fake.scriptExec(
                "app",
                FakeCri.ExecAnswer.exit(1),
                FakeCri.ExecAnswer.timesOut(),
                FakeCri.ExecAnswer.exit(0));

        assertEquals(
                1, await(cri.execSync(id, List.of("true"), Duration.ofSeconds(1))).getExitCode());
        CriError timedOut = failure(cri.execSync(id, List.of("true"), Duration.ofSeconds(1)));
        assertEquals(CriError.Code.DEADLINE_EXCEEDED, timedOut.code());
        assertEquals(
                "failed to exec in container: timeout 1s exceeded: context deadline exceeded",
                timedOut.message());
        assertEquals(
                0, await(cri.execSync(id, List.of("true"), Duration.ofSeconds(1))).getExitCode());
        assertEquals(
                0, await(cri.execSync(id, List.of("true"), Duration.ofSeconds(1))).getExitCode());

        fake.exitContainer(id, 0);
        CriError exited = failure(cri.execSync(id, List.of("true"), Duration.ofSeconds(1)));
        assertEquals(CriError.Code.UNKNOWN, exited.code());
        assertEquals(
                "failed to exec in container: container is in CONTAINER_EXITED state",
                exited.message());
    }

    @Test
    void imagesArePresentOrNotAndOnlyRegistryImagesPull() {
        var busybox = await(cri.imageStatus("busybox:1.36")).orElseThrow();
        assertTrue(busybox.getId().matches("sha256:[0-9a-f]{64}"), busybox.getId());
        assertEquals(
                busybox.getId(), await(cri.imageStatus(busybox.getId())).orElseThrow().getId());
        assertEquals(0, busybox.getRepoDigestsCount());
        assertFalse(await(cri.imageStatus("busybox:latest")).isPresent());

        // An imported image is not in any registry: containerd on these machines fails to pull it.
        CriError local = failure(cri.pullImage("busybox:1.36", null, null));
        assertTrue(
                local.message()
                        .contains(
                                "Head \"https://registry-1.docker.io/v2/library/busybox/manifests/1.36\": dial tcp"),
                local.message());

        fake.addRegistryImage("quay.io/org/tool:2");
        String ref = await(cri.pullImage("quay.io/org/tool:2", null, null));
        var tool = await(cri.imageStatus("quay.io/org/tool:2")).orElseThrow();
        assertEquals(ref, tool.getId());
        assertEquals(ref, await(cri.imageStatus(tool.getRepoDigests(0))).orElseThrow().getId());
        String created =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "tool", 0, "quay.io/org/tool:2"), pod));
        ContainerStatus status = await(cri.containerStatus(created));
        assertEquals("quay.io/org/tool:2", status.getImage().getImage());
        assertEquals(tool.getRepoDigests(0), status.getImageRef());
        // An imported image has no digest: its id stands in.
        String imported = run("app", 0);
        assertEquals(busybox.getId(), await(cri.containerStatus(imported)).getImageRef());
    }

    @Test
    void statusReportsTheNetworkNotReadyAsContainerdDoes() {
        fake.networkReady(false);
        var network = await(cri.status()).getStatus().getConditions(1);
        assertEquals("NetworkReady", network.getType());
        assertFalse(network.getStatus());
        assertEquals("NetworkPluginNotReady", network.getReason());
    }

    @Test
    void callsAreRecordedInOrderWithTheirRequests() {
        fake.clearCalls();
        String id = run("app", 0);
        assertEquals(
                List.of("CreateContainer", "StartContainer"),
                fake.calls().stream().map(FakeCri.Call::method).toList());
        assertEquals(
                id,
                ((StartContainerRequest) fake.calls("StartContainer").get(0).request())
                        .getContainerId());
    }

    @Test
    void controlsRefuseContainersThatAreNotRunning() {
        String id =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "busybox:1.36"), pod));
        assertThrows(IllegalStateException.class, () -> fake.exitContainer(id, 0));
    }

    @Test
    void theStateOutlivesAServerRestart() {
        String id = run("app", 0);
        fake.stopServer();
        fake.startServer();
        // A fresh client: the old one's reconnection is CriRuntimeTest's business.
        try (CriRuntime again = CriRuntime.connect(fake.endpoint(), Duration.ofSeconds(10))) {
            assertEquals(
                    ContainerState.CONTAINER_RUNNING, await(again.containerStatus(id)).getState());
        }
    }

    /** A clock the test moves by hand. */
    static final class MutableClock implements InstantSource {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
