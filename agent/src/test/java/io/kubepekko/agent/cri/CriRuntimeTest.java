package io.kubepekko.agent.cri;

import static io.kubepekko.agent.cri.CriTestSupport.await;
import static io.kubepekko.agent.cri.CriTestSupport.container;
import static io.kubepekko.agent.cri.CriTestSupport.failure;
import static io.kubepekko.agent.cri.CriTestSupport.sandbox;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.agent.cri.v1.ContainerFilter;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxFilter;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.cri.v1.VersionRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CRI client against {@link FakeCri} over a real unix socket: each method family, deadlines,
 * failures.
 */
class CriRuntimeTest {

    @TempDir Path dir;

    private FakeCri fake;
    private CriRuntime cri;

    @BeforeEach
    void start() {
        fake = FakeCri.start(dir.resolve("cri.sock"));
        cri = fake.client();
    }

    @AfterEach
    void stop() {
        fake.close();
    }

    @Test
    void versionAndStatusAnswerOverTheUnixSocket() {
        var version = await(cri.version());
        assertEquals("containerd", version.getRuntimeName());
        assertEquals("1.6.20~ds1", version.getRuntimeVersion());
        assertEquals("v1", version.getRuntimeApiVersion());
        assertEquals("v1", ((VersionRequest) fake.calls("Version").get(0).request()).getVersion());

        var conditions = await(cri.status()).getStatus().getConditionsList();
        assertEquals(
                List.of("RuntimeReady=true", "NetworkReady=true"),
                conditions.stream().map(c -> c.getType() + "=" + c.getStatus()).toList());
    }

    @Test
    void sandboxCallsRunListReportStopAndRemove() {
        PodSandboxConfig config = sandbox("web", "uid-1");
        String id = await(cri.runPodSandbox(config, ""));

        var status = await(cri.podSandboxStatus(id)).getStatus();
        assertEquals(PodSandboxState.SANDBOX_READY, status.getState());
        assertEquals("web", status.getMetadata().getName());
        assertTrue(status.getNetwork().getIp().startsWith("10.88.0."), status.getNetwork().getIp());
        assertEquals(config.getLabelsMap(), status.getLabelsMap());

        var listed =
                await(
                        cri.listPodSandbox(
                                PodSandboxFilter.newBuilder()
                                        .putLabelSelector("io.kubernetes.pod.uid", "uid-1")
                                        .build()));
        assertEquals(List.of(id), listed.stream().map(s -> s.getId()).toList());

        await(cri.stopPodSandbox(id));
        assertEquals(
                PodSandboxState.SANDBOX_NOTREADY,
                await(cri.podSandboxStatus(id)).getStatus().getState());
        await(cri.removePodSandbox(id));
        await(cri.removePodSandbox(id));

        CriError gone = failure(cri.podSandboxStatus(id));
        assertEquals(CriError.Code.NOT_FOUND, gone.code());
        assertEquals("PodSandboxStatus", gone.method());
        assertEquals("an error occurred when try to find sandbox: not found", gone.message());
    }

    @Test
    void containerCallsCreateStartReportStopListAndRemove() {
        PodSandboxConfig pod = sandbox("web", "uid-1");
        String sandboxId = await(cri.runPodSandbox(pod, ""));
        String id =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "busybox:1.36"), pod));
        assertEquals(ContainerState.CONTAINER_CREATED, await(cri.containerStatus(id)).getState());

        await(cri.startContainer(id));
        var running = await(cri.containerStatus(id));
        assertEquals(ContainerState.CONTAINER_RUNNING, running.getState());
        assertEquals("docker.io/library/busybox:1.36", running.getImage().getImage());
        assertEquals("/var/log/pods/default_web_uid-1/app/0.log", running.getLogPath());

        var listed =
                await(
                        cri.listContainers(
                                ContainerFilter.newBuilder()
                                        .setPodSandboxId(sandboxId)
                                        .putLabelSelector("io.kubernetes.container.name", "app")
                                        .build()));
        assertEquals(List.of(id), listed.stream().map(c -> c.getId()).toList());

        await(cri.stopContainer(id, Duration.ofSeconds(30)));
        assertEquals(
                30,
                ((StopContainerRequest) fake.calls("StopContainer").get(0).request()).getTimeout());
        var exited = await(cri.containerStatus(id));
        assertEquals(ContainerState.CONTAINER_EXITED, exited.getState());
        assertEquals(143, exited.getExitCode());

        await(cri.removeContainer(id));
        await(cri.removeContainer(id));
        assertEquals(CriError.Code.NOT_FOUND, failure(cri.containerStatus(id)).code());
    }

    @Test
    void execSyncPassesExitCodeAndOutputThrough() {
        PodSandboxConfig pod = sandbox("web", "uid-1");
        String sandboxId = await(cri.runPodSandbox(pod, ""));
        String id =
                await(
                        cri.createContainer(
                                sandboxId, container(pod, "app", 0, "busybox:1.36"), pod));
        await(cri.startContainer(id));
        fake.scriptExec("app", FakeCri.ExecAnswer.exit(3, "out", "err"));

        var result = await(cri.execSync(id, List.of("cat", "/tmp/healthy"), Duration.ofSeconds(1)));
        assertEquals(3, result.getExitCode());
        assertEquals("out", result.getStdout().toString(StandardCharsets.UTF_8));
        assertEquals("err", result.getStderr().toString(StandardCharsets.UTF_8));
        ExecSyncRequest sent = (ExecSyncRequest) fake.calls("ExecSync").get(0).request();
        assertEquals(List.of("cat", "/tmp/healthy"), sent.getCmdList());
        assertEquals(1, sent.getTimeout());
    }

    @Test
    void imageCallsReportPullRemoveAndMeasure() {
        var busybox = await(cri.imageStatus("busybox:1.36"));
        assertEquals(
                List.of("docker.io/library/busybox:1.36"), busybox.orElseThrow().getRepoTagsList());
        assertTrue(await(cri.imageStatus("nginx:1.27")).isEmpty());
        assertEquals(
                Set.of(FakeCri.PAUSE_IMAGE, FakeCri.BUSYBOX_IMAGE),
                await(cri.listImages()).stream()
                        .map(i -> i.getRepoTags(0))
                        .collect(Collectors.toSet()));

        fake.addRegistryImage("nginx:1.27");
        String ref = await(cri.pullImage("nginx:1.27", null, sandbox("web", "uid-1")));
        assertEquals(
                ref, await(cri.imageStatus("docker.io/library/nginx:1.27")).orElseThrow().getId());

        await(cri.removeImage("nginx:1.27"));
        await(cri.removeImage("nginx:1.27"));
        assertTrue(await(cri.imageStatus("nginx:1.27")).isEmpty());

        var fs = await(cri.imageFsInfo()).getImageFilesystemsList();
        assertEquals(1, fs.size());
        assertTrue(fs.get(0).getUsedBytes().getValue() > 0);
    }

    @Test
    void failedPullIsAnErrorValueWithTheRuntimesMessage() {
        CriError error = failure(cri.pullImage("nosuch:1.0", null, null));
        assertEquals(CriError.Code.UNKNOWN, error.code());
        assertEquals("PullImage", error.method());
        assertTrue(
                error.message()
                        .startsWith(
                                "failed to pull and unpack image \"docker.io/library/nosuch:1.0\": failed to resolve reference"),
                error.message());
    }

    @Test
    void aCallPastItsDeadlineFailsWithDeadlineExceeded() {
        try (CriRuntime impatient = CriRuntime.connect(fake.endpoint(), Duration.ofSeconds(1))) {
            fake.stall("Version");
            CriError error = failure(impatient.version());
            assertEquals(CriError.Code.DEADLINE_EXCEEDED, error.code());
            assertEquals("Version", error.method());

            fake.release("Version");
            // Retried only because a loaded machine may need more than the short deadline to
            // answer.
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> succeeds(impatient.version()));
        }
    }

    private static boolean succeeds(CompletionStage<?> stage) throws Exception {
        return stage.toCompletableFuture().handle((v, e) -> e == null).get();
    }

    @Test
    void anUnavailableRuntimeFailsEveryMethodFamilyWithUnavailableUntilItIsBack() {
        PodSandboxConfig pod = sandbox("web", "uid-1");
        String sandboxId = await(cri.runPodSandbox(pod, ""));
        fake.unavailable(true);

        Map<String, Supplier<CompletionStage<?>>> calls =
                Map.of(
                        "Version", cri::version,
                        "Status", cri::status,
                        "ListPodSandbox",
                                () -> cri.listPodSandbox(PodSandboxFilter.getDefaultInstance()),
                        "CreateContainer",
                                () ->
                                        cri.createContainer(
                                                sandboxId,
                                                container(pod, "app", 0, "busybox:1.36"),
                                                pod),
                        "ListContainers",
                                () -> cri.listContainers(ContainerFilter.getDefaultInstance()),
                        "ExecSync", () -> cri.execSync("x", List.of("true"), Duration.ZERO),
                        "ListImages", cri::listImages,
                        "PullImage", () -> cri.pullImage("busybox:1.36", null, null));
        calls.forEach(
                (method, call) -> {
                    CriError error = failure(call.get());
                    assertEquals(CriError.Code.UNAVAILABLE, error.code(), method);
                    assertEquals(method, error.method());
                });

        fake.unavailable(false);
        assertEquals(1, await(cri.listPodSandbox(PodSandboxFilter.getDefaultInstance())).size());
    }

    @Test
    void clientReconnectsWhenTheRuntimeRestarts() {
        await(cri.version());
        fake.stopServer();

        CriError down = failure(cri.version());
        assertEquals(CriError.Code.UNAVAILABLE, down.code());

        fake.startServer();
        Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> succeeds(cri.version()));
    }

    @Test
    void closingCancelsCallsInFlightAndRefusesLaterOnes() {
        fake.stall("ListContainers");
        var inFlight = cri.listContainers(ContainerFilter.getDefaultInstance());
        // The stalled call has reached the fake before we close (else it would be refused, not
        // cancelled).
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> fake.stalledCalls() == 1);

        cri.close();
        cri.close();
        assertEquals(CriError.Code.CANCELLED, failure(inFlight).code());
        CriError later = failure(cri.version());
        assertEquals(CriError.Code.CANCELLED, later.code());
        assertEquals("the CRI client is closed", later.message());
    }

    @Test
    void endpointsAreUnixSocketsWithAbsolutePaths() {
        assertEquals(
                Path.of("/run/containerd/containerd.sock"),
                CriEndpoint.parse("unix:///run/containerd/containerd.sock").socket());
        assertEquals("unix:///run/c.sock", CriEndpoint.parse("unix:///run/c.sock").toString());
        for (String bad :
                List.of(
                        "",
                        "/run/c.sock",
                        "tcp://127.0.0.1:1234",
                        "unix://run/c.sock",
                        "npipe:////./pipe/x")) {
            var e = assertThrows(IllegalArgumentException.class, () -> CriEndpoint.parse(bad), bad);
            assertFalse(e.getMessage().isBlank());
        }
    }

    @Test
    void aFailureThatIsNoCriCallReadsAsUnknown() {
        CriError error = CriError.of(new IllegalStateException("boom"));
        assertEquals(CriError.Code.UNKNOWN, error.code());
        assertTrue(error.message().contains("boom"), error.message());
    }
}
