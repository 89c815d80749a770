package io.kubepekko.agent.worker;

import static io.kubepekko.agent.worker.PodWorkerFixture.pod;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * preStop and postStart hooks run by the pod worker against the fake CRI runtime, and the events
 * they record.
 */
class LifecycleHooksOnPodWorkerTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = PodWorkerFixture.WAIT;
    private static final String IMAGE = FakeCri.BUSYBOX_IMAGE;

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
    void preStopExecRunsBeforeStopContainerWhichGetsTheGraceLeft() {
        // The hook takes 10 s of the manual clock: 30 - 10 are left for SIGTERM.
        f.fake.scriptExec(
                "app",
                FakeCri.ExecAnswer.after(
                        () -> f.clock.advance(Duration.ofSeconds(10)), FakeCri.ExecAnswer.exit(0)));
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "hooked",
                                "h1",
                                "Always",
                                "containers: [{name: 'app', image: '"
                                        + IMAGE
                                        + "', imagePullPolicy: 'IfNotPresent',"
                                        + " lifecycle: {preStop: {exec: {command: ['sh', '-c', 'sleep 10']}}}}]"));
        Container c = f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        f.terminate(worker, Duration.ofSeconds(30));

        List<String> order =
                f.fake.calls().stream()
                        .map(FakeCri.Call::method)
                        .filter(m -> m.equals("ExecSync") || m.equals("StopContainer"))
                        .toList();
        assertEquals(List.of("ExecSync", "StopContainer"), order, "the hook runs first");
        ExecSyncRequest exec = (ExecSyncRequest) f.fake.calls("ExecSync").get(0).request();
        assertEquals(c.getId(), exec.getContainerId());
        assertEquals(List.of("sh", "-c", "sleep 10"), exec.getCmdList());
        assertEquals(30, exec.getTimeout(), "the hook may take the whole grace period");
        StopContainerRequest stop =
                (StopContainerRequest) f.fake.calls("StopContainer").get(0).request();
        assertEquals(20, stop.getTimeout(), "the stop gets the grace period the hook left");
        assertTrue(
                f.events.has("Killing", "spec.containers{app}", "Stopping container app"),
                f.events.all.toString());
    }

    @Test
    void aPreStopHookThatOutlastsTheGracePeriodIsCutOff() {
        f.fake.stall("ExecSync"); // the hook never returns
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "slow",
                                "h2",
                                "Always",
                                "containers: [{name: 'app', image: '"
                                        + IMAGE
                                        + "', imagePullPolicy: 'IfNotPresent',"
                                        + " lifecycle: {preStop: {exec: {command: ['sleep', '3600']}}}}]"));
        f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        f.terminate(worker, Duration.ofSeconds(1));

        assertEquals(1, f.fake.stalledCalls(), "the hook was started");
        StopContainerRequest stop =
                (StopContainerRequest) f.fake.calls("StopContainer").get(0).request();
        assertEquals(
                2,
                stop.getTimeout(),
                "nothing left of the grace period: the kubelet's minimum of 2 s");
        assertTrue(f.fake.sandboxes().isEmpty());
    }

    @Test
    void aFailingPreStopHookRecordsFailedPreStopHookAndStillStops() {
        f.fake.scriptExec("app", FakeCri.ExecAnswer.exit(1, "", "nope"));
        ActorRef<PodWorker.Command> worker =
                f.spawn(
                        pod(
                                "bad",
                                "h3",
                                "Always",
                                "containers: [{name: 'app', image: '"
                                        + IMAGE
                                        + "', imagePullPolicy: 'IfNotPresent',"
                                        + " lifecycle: {preStop: {exec: {command: ['false']}}}}]"));
        f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        f.terminate(worker, Duration.ofSeconds(30));

        assertTrue(
                f.events.has("FailedPreStopHook", "spec.containers{app}", "PreStopHook failed"),
                f.events.all.toString());
        assertEquals(
                30,
                ((StopContainerRequest) f.fake.calls("StopContainer").get(0).request())
                        .getTimeout());
    }

    @Test
    void aFailingPostStartHookKillsTheContainer() {
        f.fake.scriptExec("app", FakeCri.ExecAnswer.exit(1, "", "hook broke"));
        f.spawn(
                pod(
                        "post",
                        "h4",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + IMAGE
                                + "', imagePullPolicy: 'IfNotPresent',"
                                + " lifecycle: {postStart: {exec: {command: ['false']}}}}]"));

        await().atMost(WAIT).until(() -> !f.fake.calls("StopContainer").isEmpty());
        Container first =
                f.fake.containers().stream()
                        .filter(c -> c.getMetadata().getAttempt() == 0)
                        .findFirst()
                        .orElseThrow();
        assertEquals(
                first.getId(),
                ((StopContainerRequest) f.fake.calls("StopContainer").get(0).request())
                        .getContainerId());
        await().atMost(WAIT)
                .until(
                        () ->
                                f.events.has(
                                        "FailedPostStartHook",
                                        "spec.containers{app}",
                                        "PostStartHook failed"));
        assertTrue(
                f.events.has("Killing", "spec.containers{app}", "FailedPostStartHook"),
                f.events.all.toString());
        assertTrue(
                f.events.has("Started", "spec.containers{app}", "Container started"),
                f.events.all.toString());
        await().atMost(WAIT)
                .until(
                        () ->
                                f.fake.containers().stream()
                                        .anyMatch(
                                                c ->
                                                        c.getId().equals(first.getId())
                                                                && c.getState()
                                                                        == ContainerState
                                                                                .CONTAINER_EXITED));
    }

    @Test
    void aStartedContainerRecordsPulledCreatedStarted() {
        f.spawn(
                pod(
                        "ev",
                        "h5",
                        "Always",
                        "containers: [{name: 'app', image: '"
                                + IMAGE
                                + "', imagePullPolicy: 'IfNotPresent'}]"));
        await().atMost(WAIT)
                .until(() -> f.events.has("Started", "spec.containers{app}", "Container started"));
        assertTrue(
                f.events.has(
                        "Pulled",
                        "spec.containers{app}",
                        "Container image \""
                                + IMAGE
                                + "\" already present on machine and can be accessed by the pod"));
        assertTrue(f.events.has("Created", "spec.containers{app}", "Container created"));
    }
}
