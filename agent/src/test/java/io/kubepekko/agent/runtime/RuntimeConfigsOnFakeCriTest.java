package io.kubepekko.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.RunPodSandboxRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Built configs go through the fake runtime (RunPodSandbox, CreateContainer, StartContainer) and
 * are accepted as sent.
 */
class RuntimeConfigsOnFakeCriTest {
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

    private static <T> T await(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void sandboxAndContainersBuiltFromAPodRunOnTheRuntime() throws Exception {
        JsonNode pod = ContainerConfigsTest.POD;
        NodeContext node = TestPods.node(dir.resolve("root"));
        PodInputs inputs = ContainerConfigsTest.INPUTS;

        PodSandboxConfig sandbox = SandboxConfigs.build(pod, 0, node).config();
        Files.createDirectories(Path.of(sandbox.getLogDirectory()));
        String sandboxId = await(cri.runPodSandbox(sandbox, ""));
        var status = await(cri.podSandboxStatus(sandboxId)).getStatus();
        List<String> podIps = List.of(status.getNetwork().getIp());

        VolumePlan volumes = VolumePlanner.plan(pod, inputs, node, podIps);
        VolumeWriter.materialize(volumes);
        ContainerConfigs.Plan plan =
                ContainerConfigs.build(
                        pod,
                        TestPods.container(pod, "app"),
                        0,
                        FakeCri.BUSYBOX_IMAGE,
                        podIps,
                        inputs,
                        volumes,
                        node,
                        "tl-0");
        VolumeWriter.ensureSubPaths(plan.mounts());
        VolumeWriter.createTerminationLog(plan.terminationLogHostPath().orElseThrow());
        String containerId = await(cri.createContainer(sandboxId, plan.config(), sandbox));
        await(cri.startContainer(containerId));

        assertEquals(
                ContainerState.CONTAINER_RUNNING,
                await(cri.containerStatus(containerId)).getState());
        RunPodSandboxRequest run =
                (RunPodSandboxRequest) fake.calls("RunPodSandbox").get(0).request();
        assertEquals(sandbox, run.getConfig());
        CreateContainerRequest create =
                (CreateContainerRequest) fake.calls("CreateContainer").get(0).request();
        assertEquals(plan.config(), create.getConfig());
        assertTrue(
                create.getConfig().getEnvsList().stream()
                        .anyMatch(
                                kv ->
                                        kv.getKey().equals("POD_IP")
                                                && kv.getValue()
                                                        .toStringUtf8()
                                                        .equals(podIps.get(0))));
        assertTrue(
                Files.isDirectory(Path.of(plan.config().getMounts(1).getHostPath())),
                "subPath directory created");
    }
}
