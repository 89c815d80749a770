package io.kubepekko.agent.worker;

import static io.kubepekko.agent.worker.PodWorkerFixture.app;
import static io.kubepekko.agent.worker.PodWorkerFixture.condition;
import static io.kubepekko.agent.worker.PodWorkerFixture.pod;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.CreateContainerRequest;
import io.kubepekko.agent.cri.v1.PodSandboxStatusRequest;
import io.kubepekko.agent.cri.v1.RunPodSandboxRequest;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.runtime.PodCgroups;
import io.kubepekko.agent.runtime.PodInputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pod worker against the fake CRI runtime over a unix socket; time is a manual clock shared
 * with the fake.
 */
class PodWorkerTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = PodWorkerFixture.WAIT;

    @TempDir Path dir;

    private PodWorkerFixture f;

    @BeforeEach
    void start() {
        f = new PodWorkerFixture(KIT, dir);
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void aPodWithOneBusyboxContainerGoesRunning() {
        f.spawn(
                pod(
                        "web",
                        "u1",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent', command: ['sleep', '3600']}]"),
                PodInputs.NONE);

        ObjectNode status = f.awaitLatest("u1", s -> s.path("phase").asText().equals("Running"));
        JsonNode app = status.path("containerStatuses").get(0);
        assertEquals("app", app.path("name").asText());
        assertTrue(app.path("state").has("running"), app.toString());
        assertEquals(0, app.path("restartCount").asInt());
        assertTrue(app.path("ready").asBoolean());
        assertTrue(app.path("started").asBoolean());
        assertEquals(
                "containerd://" + f.fake.latestContainer("app").orElseThrow().getId(),
                app.path("containerID").asText());
        assertEquals("192.168.1.10", status.path("hostIP").asText());
        assertTrue(!status.path("podIP").asText().isEmpty(), status.toString());
        assertEquals("BestEffort", status.path("qosClass").asText());
        assertEquals("2026-01-02T03:04:05Z", status.path("startTime").asText());
        assertEquals(1, f.fake.sandboxes().size());
        CreateContainerRequest create =
                (CreateContainerRequest) f.fake.calls("CreateContainer").get(0).request();
        RunPodSandboxRequest run =
                (RunPodSandboxRequest) f.fake.calls("RunPodSandbox").get(0).request();
        assertEquals(
                run.getConfig(),
                create.getSandboxConfig(),
                "containers are created with the sandbox's config");
        assertEquals(List.of("sleep", "3600"), create.getConfig().getCommandList());
    }

    @Test
    void anInitContainerRunsToCompletionBeforeTheAppContainer() {
        f.spawn(
                pod(
                        "init",
                        "u2",
                        "Always",
                        "initContainers: [{name: 'setup', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}],"
                                + "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);

        Container setup = f.awaitContainer("setup", ContainerState.CONTAINER_RUNNING);
        ObjectNode pending =
                f.awaitLatest(
                        "u2",
                        s -> s.path("initContainerStatuses").get(0).path("state").has("running"));
        assertEquals("Pending", pending.path("phase").asText());
        assertEquals(
                "PodInitializing",
                pending.path("containerStatuses")
                        .get(0)
                        .path("state")
                        .path("waiting")
                        .path("reason")
                        .asText());
        assertTrue(
                f.fake.latestContainer("app").isEmpty(),
                "the app container waits for the init container");

        f.fake.exitContainer(setup.getId(), 0);

        ObjectNode running = f.awaitLatest("u2", s -> s.path("phase").asText().equals("Running"));
        JsonNode init = running.path("initContainerStatuses").get(0);
        assertEquals("Completed", init.path("state").path("terminated").path("reason").asText());
        assertTrue(init.path("ready").asBoolean());
        assertTrue(running.path("containerStatuses").get(0).path("state").has("running"));
        assertEquals(
                1,
                f.fake.calls("CreateContainer").stream()
                        .filter(c -> c.request().toString().contains("setup"))
                        .count(),
                "a completed init container is not run again");
    }

    @Test
    void aContainerThatExitsIsRestartedThenBacksOffWithCrashLoopBackOff() {
        f.spawn(
                pod(
                        "crash",
                        "u3",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        Container first = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        // The first crash restarts at once (no back-off yet), as the kubelet does.
        f.fake.exitContainer(first.getId(), 1);
        ObjectNode restarted =
                f.awaitLatest(
                        "u3",
                        s ->
                                app(s).path("restartCount").asInt() == 1
                                        && app(s).path("state").has("running"));
        assertEquals(
                1, app(restarted).path("lastState").path("terminated").path("exitCode").asInt());
        assertEquals(
                "Error",
                app(restarted).path("lastState").path("terminated").path("reason").asText());

        // The second crash within the back-off waits: CrashLoopBackOff with the kubelet's message.
        Container second = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
        assertEquals(1, second.getMetadata().getAttempt());
        f.fake.exitContainer(second.getId(), 1);
        ObjectNode backingOff =
                f.awaitLatest(
                        "u3",
                        s ->
                                app(s).path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("CrashLoopBackOff"));
        assertEquals(
                "back-off 10s restarting failed container=app pod=crash_default(u3)",
                app(backingOff).path("state").path("waiting").path("message").asText());
        assertEquals(1, app(backingOff).path("restartCount").asInt());
        assertEquals(
                1, app(backingOff).path("lastState").path("terminated").path("exitCode").asInt());
        assertEquals("Running", backingOff.path("phase").asText());
        assertEquals(2, f.fake.calls("CreateContainer").size(), "no restart while backing off");

        f.clock.advance(Duration.ofSeconds(11));
        ObjectNode again =
                f.awaitLatest(
                        "u3",
                        s ->
                                app(s).path("restartCount").asInt() == 2
                                        && app(s).path("state").has("running"));
        assertEquals(3, f.fake.calls("CreateContainer").size());
        assertEquals(2, f.fake.latestContainer("app").orElseThrow().getMetadata().getAttempt());
        assertTrue(again.path("containerStatuses").get(0).path("lastState").has("terminated"));
    }

    @Test
    void restartPolicyNeverAndExitZeroSucceeds() {
        f.spawn(
                pod(
                        "job",
                        "u4",
                        "Never",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        Container c = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
        f.fake.exitContainer(c.getId(), 0);

        ObjectNode done = f.awaitLatest("u4", s -> s.path("phase").asText().equals("Succeeded"));
        JsonNode terminated = app(done).path("state").path("terminated");
        assertEquals(0, terminated.path("exitCode").asInt());
        assertEquals("Completed", terminated.path("reason").asText());
        assertEquals(0, app(done).path("restartCount").asInt());
        assertEquals(1, f.fake.calls("CreateContainer").size(), "never restarted");
    }

    @Test
    void anOomKilledContainerShowsOomKilledInLastState() {
        f.spawn(
                pod(
                        "oom",
                        "u5",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        Container c = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
        f.fake.oomKill(c.getId());

        ObjectNode restarted = f.awaitLatest("u5", s -> app(s).path("restartCount").asInt() == 1);
        JsonNode last = app(restarted).path("lastState").path("terminated");
        assertEquals("OOMKilled", last.path("reason").asText());
        assertEquals(137, last.path("exitCode").asInt());
        assertEquals("2026-01-02T03:04:05Z", last.path("finishedAt").asText());
    }

    @Test
    void anOomKillTheRuntimeReportsOnlyAfterTheExitEndsAsOomKilledInTheTerminalStatus() {
        f.spawn(
                pod(
                        "oom-late",
                        "u5b",
                        "Never",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        Container c = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
        // containerd 1.6 handles the task's exit event first (Error 137, the pod Failed) and its
        // OOM event only later: here after more reads than the exit's own syncs make (one or two).
        // Nothing in a listing changes meanwhile, and the resync is a minute away.
        f.fake.oomEventAfterReads(c.getId(), 3);
        f.fake.exitContainer(c.getId(), 137);
        f.awaitLatest("u5b", s -> terminatedReason(s).equals("Error"));

        ObjectNode last = f.awaitLatest("u5b", s -> terminatedReason(s).equals("OOMKilled"));
        assertEquals(137, app(last).path("state").path("terminated").path("exitCode").asInt());
        assertEquals("Failed", last.path("phase").asText());
        assertEquals(1, f.fake.calls("CreateContainer").size(), "never restarted");
    }

    private static String terminatedReason(JsonNode status) {
        return app(status).path("state").path("terminated").path("reason").asText();
    }

    @Test
    void anAbsentImageWithPullPolicyNeverWaitsWithErrImageNeverPull() {
        f.spawn(
                pod(
                        "never",
                        "u6",
                        "Always",
                        "containers: [{name: 'app', image: 'example.com/nothing:1',"
                                + " imagePullPolicy: 'Never'}]"),
                PodInputs.NONE);

        ObjectNode status =
                f.awaitLatest(
                        "u6",
                        s ->
                                app(s).path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("ErrImageNeverPull"));
        assertEquals(
                "Container image \"example.com/nothing:1\" is not present with pull policy of Never",
                app(status).path("state").path("waiting").path("message").asText());
        assertEquals("Pending", status.path("phase").asText());
        assertTrue(f.fake.calls("PullImage").isEmpty(), "Never never pulls");
    }

    @Test
    void anImageThatCannotBePulledWaitsWithErrImagePullThenImagePullBackOff() {
        f.spawn(
                pod(
                        "pull",
                        "u10",
                        "Always",
                        "containers: [{name: 'app', image: 'example.com/nothing:1',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);

        await().atMost(WAIT)
                .until(
                        () ->
                                f.sink.all("u10").stream()
                                        .anyMatch(
                                                s ->
                                                        app(s).path("state")
                                                                .path("waiting")
                                                                .path("reason")
                                                                .asText()
                                                                .equals("ErrImagePull")));
        ObjectNode failed =
                f.sink.all("u10").stream()
                        .filter(
                                s ->
                                        app(s).path("state")
                                                .path("waiting")
                                                .path("reason")
                                                .asText()
                                                .equals("ErrImagePull"))
                        .findFirst()
                        .orElseThrow();
        assertTrue(
                app(failed)
                        .path("state")
                        .path("waiting")
                        .path("message")
                        .asText()
                        .startsWith(
                                "rpc error: code = Unknown desc = failed to pull and unpack image"),
                failed.toString());

        // The clock stands still: the next syncs wait out the pull back-off instead of pulling
        // again.
        ObjectNode backingOff =
                f.awaitLatest(
                        "u10",
                        s ->
                                app(s).path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("ImagePullBackOff"));
        assertEquals(
                "Back-off pulling image \"example.com/nothing:1\"",
                app(backingOff).path("state").path("waiting").path("message").asText());
        assertEquals(1, f.fake.calls("PullImage").size());

        f.clock.advance(Duration.ofSeconds(11));
        await().atMost(WAIT).until(() -> f.fake.calls("PullImage").size() == 2);
    }

    @Test
    void aMissingConfigMapKeyWaitsWithCreateContainerConfigError() {
        PodInputs inputs =
                PodInputs.NONE.withConfigMap(
                        "cfg", PodInputs.ConfigMapData.of(Map.of("other", "x")));
        f.spawn(
                pod(
                        "cfg",
                        "u7",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent', env: [{name: 'X', valueFrom: {configMapKeyRef: {name: 'cfg',"
                                + " key: 'missing'}}}]}]"),
                inputs);

        ObjectNode status =
                f.awaitLatest(
                        "u7",
                        s ->
                                app(s).path("state")
                                        .path("waiting")
                                        .path("reason")
                                        .asText()
                                        .equals("CreateContainerConfigError"));
        assertEquals(
                "couldn't find key missing in ConfigMap default/cfg",
                app(status).path("state").path("waiting").path("message").asText());
        assertTrue(f.fake.calls("CreateContainer").isEmpty());
    }

    @Test
    void aContainerRestartedAfterItsConfigMapWasDeletedStartsWithTheVolumeItHad() throws Exception {
        JsonNode kept =
                pod(
                        "kept",
                        "u30",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent', volumeMounts: [{name: 'cfg', mountPath: '/etc/cfg'}]}],"
                                + " volumes: [{name: 'cfg', configMap: {name: 'cfg'}}]");
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        kept,
                        PodInputs.NONE.withConfigMap(
                                "cfg", PodInputs.ConfigMapData.of(Map.of("k", "v"))));
        Container first = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        // The ConfigMap is deleted (the manager delivers it as absent), then the container exits.
        worker.tell(new PodWorker.Update(kept, PodInputs.NONE));
        f.fake.exitContainer(first.getId(), 1);

        f.awaitLatest(
                "u30",
                s ->
                        app(s).path("restartCount").asInt() == 1
                                && app(s).path("state").has("running"));
        Path volume = f.node.podDir("u30").resolve("volumes/kubernetes.io~configmap/cfg");
        assertEquals(
                "v", Files.readString(volume.resolve("k")), "the volume keeps the content it had");
        assertTrue(
                f.events.has(
                        "FailedMount",
                        "",
                        "MountVolume.SetUp failed for volume \"cfg\" : configmap \"cfg\" not found"),
                f.events.all::toString);
    }

    @Test
    void aFirstMountOfAMissingConfigMapStillWaitsInContainerCreating() {
        f.spawn(
                pod(
                        "nocfg",
                        "u31",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent', volumeMounts: [{name: 'cfg', mountPath: '/etc/cfg'}]}],"
                                + " volumes: [{name: 'cfg', configMap: {name: 'cfg'}}]"),
                PodInputs.NONE);
        ObjectNode waiting =
                f.awaitLatest(
                        "u31",
                        s ->
                                app(s).path("state")
                                                .path("waiting")
                                                .path("reason")
                                                .asText()
                                                .equals("ContainerCreating")
                                        && f.fake.calls("RunPodSandbox").size() == 1);
        await().atMost(WAIT).until(() -> f.fake.calls("ListContainers").size() > 3);
        assertEquals("Pending", f.sink.latest("u31").orElseThrow().path("phase").asText());
        assertTrue(
                f.fake.calls("CreateContainer").isEmpty(),
                "no container without its volume: " + waiting);
    }

    @Test
    void terminateStopsTheContainersAndRemovesTheSandbox() {
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "bye",
                                "u8",
                                "Always",
                                "containers: [{name: 'app', image: '"
                                        + FakeCri.BUSYBOX_IMAGE
                                        + "', imagePullPolicy: 'IfNotPresent'}]"),
                        PodInputs.NONE);
        Container c = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        TestProbe<PodWorker.Terminated> probe = KIT.createTestProbe();
        worker.tell(new PodWorker.Terminate(Duration.ofSeconds(30), probe.getRef()));

        assertEquals("u8", probe.receiveMessage(WAIT).uid());
        StopContainerRequest stop =
                (StopContainerRequest) f.fake.calls("StopContainer").get(0).request();
        assertEquals(c.getId(), stop.getContainerId());
        assertEquals(30, stop.getTimeout());
        assertEquals(1, f.fake.calls("StopPodSandbox").size());
        assertTrue(f.fake.sandboxes().isEmpty(), "sandbox removed");
        assertTrue(f.fake.containers().isEmpty(), "its containers went with it");
        probe.expectTerminated(worker, WAIT);
    }

    @Test
    void terminateRemovesThePodsCgroupsAndOneStillInUseDoesNotFailIt() throws Exception {
        Path memory = dir.resolve("cgroup/memory");
        Path unified = dir.resolve("cgroup/unified");
        f.node = f.node.withCgroups(PodCgroups.of(List.of(memory, unified)));
        // The runtime made them for the sandbox (FakeCri makes none); in unified, a process is left
        // in one.
        Path memoryPod = Files.createDirectories(memory.resolve("kubepods/besteffort/podu8c"));
        Path busy = Files.createDirectories(unified.resolve("kubepods/besteffort/podu8c/stray"));
        Files.writeString(busy.resolve("cgroup.procs"), "4242\n");
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "bye",
                                "u8c",
                                "Always",
                                "containers: [{name: 'app', image: '"
                                        + FakeCri.BUSYBOX_IMAGE
                                        + "', imagePullPolicy: 'IfNotPresent'}]"),
                        PodInputs.NONE);
        f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
        assertTrue(Files.isDirectory(memoryPod), "nothing is removed while the pod runs");

        assertEquals("u8c", f.terminate(worker, Duration.ofSeconds(30)).uid());
        assertTrue(f.fake.sandboxes().isEmpty(), "sandbox removed");
        assertFalse(Files.exists(memoryPod), "the pod's cgroup went with its sandbox");
        assertTrue(Files.exists(busy.resolve("cgroup.procs")), "a cgroup in use is left alone");
    }

    @Test
    void aPodStuckInACriCallDoesNotHoldUpAnother() {
        f.fake.addRegistryImage("docker.io/library/alpine:3.20");
        f.fake.stall("PullImage");
        f.spawn(
                pod(
                        "stuck",
                        "u9",
                        "Always",
                        "containers: [{name: 'app', image: 'docker.io/library/alpine:3.20',"
                                + " imagePullPolicy: 'Always'}]"),
                PodInputs.NONE);
        await().atMost(WAIT).until(() -> f.fake.stalledCalls() == 1);

        f.spawn(
                pod(
                        "free",
                        "u11",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);

        f.awaitLatest("u11", s -> s.path("phase").asText().equals("Running"));
        ObjectNode stuck = f.sink.latest("u9").orElseThrow();
        assertEquals("Pending", stuck.path("phase").asText());
        assertEquals(
                "ContainerCreating",
                app(stuck).path("state").path("waiting").path("reason").asText());
        assertEquals(
                1,
                f.fake.stalledCalls(),
                "the stuck worker sent no second pull (one sync at a time)");
    }

    @Test
    void terminateDoesNotWaitForAStalledCriCall() {
        f.fake.addRegistryImage("docker.io/library/alpine:3.20");
        f.fake.stall("PullImage");
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "stuck",
                                "u12",
                                "Always",
                                "containers: [{name: 'app', image: 'docker.io/library/alpine:3.20', imagePullPolicy: 'Always'}]"),
                        PodInputs.NONE);
        await().atMost(WAIT).until(() -> f.fake.stalledCalls() == 1);

        TestProbe<PodWorker.Terminated> probe = KIT.createTestProbe();
        worker.tell(new PodWorker.Terminate(Duration.ofSeconds(30), probe.getRef()));

        assertEquals("u12", probe.receiveMessage(WAIT).uid());
        assertTrue(f.fake.sandboxes().isEmpty(), "sandbox removed while the pull still hangs");
    }

    @Test
    void readyAndContainersReadyTurnTrueOnceTheContainersRun() {
        f.spawn(
                pod(
                        "ready",
                        "u13",
                        "Always",
                        "containers: [{name: 'a', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}, {name: 'b', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);

        await().atMost(WAIT).until(() -> !f.sink.all("u13").isEmpty());
        ObjectNode first = f.sink.all("u13").get(0);
        assertEquals(
                "False", condition(first, "PodReadyToStartContainers").path("status").asText());
        assertEquals(
                "containers with unready status: [a b]",
                condition(first, "Ready").path("message").asText());
        assertEquals(
                "ContainersNotReady", condition(first, "ContainersReady").path("reason").asText());

        ObjectNode ready =
                f.awaitLatest(
                        "u13", s -> condition(s, "Ready").path("status").asText().equals("True"));
        assertEquals("True", condition(ready, "ContainersReady").path("status").asText());
        assertEquals("True", condition(ready, "PodReadyToStartContainers").path("status").asText());
        assertEquals("True", condition(ready, "Initialized").path("status").asText());
        assertEquals("True", condition(ready, "PodScheduled").path("status").asText());
        assertEquals(
                "2026-01-02T03:04:05Z",
                condition(ready, "Ready").path("lastTransitionTime").asText());
    }

    @Test
    void initializedTurnsTrueOnceTheInitContainersComplete() {
        f.spawn(
                pod(
                        "inited",
                        "u14",
                        "Always",
                        "initContainers: [{name: 'setup', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}],"
                                + "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        Container setup = f.awaitContainer("setup", ContainerState.CONTAINER_RUNNING);
        ObjectNode initializing =
                f.awaitLatest(
                        "u14",
                        s -> s.path("initContainerStatuses").get(0).path("state").has("running"));
        JsonNode notYet = condition(initializing, "Initialized");
        assertEquals("False", notYet.path("status").asText());
        assertEquals("ContainersNotInitialized", notYet.path("reason").asText());
        assertEquals("containers with incomplete status: [setup]", notYet.path("message").asText());

        f.clock.advance(Duration.ofSeconds(3));
        f.fake.exitContainer(setup.getId(), 0);

        ObjectNode running =
                f.awaitLatest(
                        "u14", s -> condition(s, "Ready").path("status").asText().equals("True"));
        assertEquals("True", condition(running, "Initialized").path("status").asText());
        assertEquals(
                "2026-01-02T03:04:08Z",
                condition(running, "Initialized").path("lastTransitionTime").asText(),
                "the time it turned True");
        assertEquals(
                "2026-01-02T03:04:05Z",
                condition(running, "PodScheduled").path("lastTransitionTime").asText(),
                "unchanged since the first status");
    }

    @Test
    void startTimeIsKeptFromThePodTheApiAlreadyShowsStarted() {
        JsonNode pod =
                pod(
                        "restarted",
                        "u15",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}]");
        ((ObjectNode) pod).putObject("status").put("startTime", "2025-12-31T23:00:00Z");
        f.spawn(pod, PodInputs.NONE);

        ObjectNode status = f.awaitLatest("u15", s -> s.path("phase").asText().equals("Running"));
        assertEquals("2025-12-31T23:00:00Z", status.path("startTime").asText());
    }

    @Test
    void theContainersStartInTheSandboxJustRunWithoutListingThePodAgain() {
        f.spawn(
                pod(
                        "straight",
                        "u16",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"),
                PodInputs.NONE);
        ObjectNode running = f.awaitLatest("u16", s -> s.path("phase").asText().equals("Running"));

        // As SyncPod: RunPodSandbox, PodSandboxStatus (its IP), then the container; the pod is not
        // listed between.
        List<FakeCri.Call> calls = f.fake.calls();
        int run = indexOf(calls, "RunPodSandbox");
        int create = indexOf(calls, "CreateContainer");
        List<String> between =
                calls.subList(run + 1, create).stream()
                        .filter(
                                c ->
                                        c.request().toString().contains("u16")
                                                || !c.method().startsWith("List"))
                        .map(FakeCri.Call::method)
                        .toList();
        assertEquals(List.of("PodSandboxStatus", "ImageStatus"), between);
        PodSandboxStatusRequest status =
                (PodSandboxStatusRequest)
                        calls.get(
                                        run
                                                + 1
                                                + calls.subList(run + 1, create).stream()
                                                        .map(FakeCri.Call::method)
                                                        .toList()
                                                        .indexOf("PodSandboxStatus"))
                                .request();
        assertEquals(f.fake.sandboxes().get(0).getId(), status.getPodSandboxId());
        CreateContainerRequest created = (CreateContainerRequest) calls.get(create).request();
        assertEquals(f.fake.sandboxes().get(0).getId(), created.getPodSandboxId());
        assertEquals(0, created.getSandboxConfig().getMetadata().getAttempt());
        assertFalse(running.path("podIP").asText().isEmpty(), running.toString());
    }

    private static int indexOf(List<FakeCri.Call> calls, String method) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).method().equals(method)) {
                return i;
            }
        }
        throw new AssertionError(
                "no " + method + " call in " + calls.stream().map(FakeCri.Call::method).toList());
    }
}
