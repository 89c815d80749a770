package io.kubepekko.agent.worker;

import static io.kubepekko.agent.worker.PodWorkerFixture.app;
import static io.kubepekko.agent.worker.PodWorkerFixture.condition;
import static io.kubepekko.agent.worker.PodWorkerFixture.pod;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.FakeCri.ExecAnswer;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod worker's probes against the fake CRI runtime (exec probes through ExecSync); the probes'
 * periods run on the manual clock shared with the fake, so a test moves time one period at a time
 * and waits for the effect.
 */
class ProbesOnPodWorkerTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = PodWorkerFixture.WAIT;
    private static final Duration PERIOD = Duration.ofSeconds(10);

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
    void aFailingReadinessProbeKeepsThePodNotReadyAndAPassingOneMakesItReady() {
        f.fake.scriptExec("app", ExecAnswer.exit(1, "not yet", ""));
        spawnProbed(
                "ready",
                "r1",
                "terminationGracePeriodSeconds: 30",
                "readinessProbe: {exec: {command: ['cat', '/tmp/ready']}, periodSeconds: 10, failureThreshold: 1}");
        ObjectNode running = f.awaitLatest("r1", s -> app(s).path("state").has("running"));
        assertFalse(app(running).path("ready").asBoolean(), "not ready before a probe passed");
        assertEquals("False", condition(running, "Ready").path("status").asText());

        probePeriod("cat");
        ObjectNode failed = f.sink.latest("r1").orElseThrow();
        assertFalse(app(failed).path("ready").asBoolean());
        assertEquals(
                "ContainersNotReady", condition(failed, "ContainersReady").path("reason").asText());
        assertEquals(
                "containers with unready status: [app]",
                condition(failed, "Ready").path("message").asText());

        f.fake.scriptExec("app", ExecAnswer.exit(0));
        probePeriod("cat");
        ObjectNode ready = f.awaitLatest("r1", s -> app(s).path("ready").asBoolean());
        assertEquals("True", condition(ready, "ContainersReady").path("status").asText());
        assertEquals("True", condition(ready, "Ready").path("status").asText());

        f.fake.scriptExec("app", ExecAnswer.exit(1));
        probePeriod("cat");
        ObjectNode unready = f.awaitLatest("r1", s -> !app(s).path("ready").asBoolean());
        assertEquals("False", condition(unready, "Ready").path("status").asText());
        assertEquals(
                0,
                app(unready).path("restartCount").asInt(),
                "readiness never restarts a container");
        assertTrue(f.fake.calls("StopContainer").isEmpty());
    }

    @Test
    void aLivenessProbeFailingFailureThresholdTimesRestartsTheContainer() {
        f.fake.scriptExec("app", ExecAnswer.exit(1, "", "dead"));
        spawnProbed(
                "live",
                "l1",
                "terminationGracePeriodSeconds: 30",
                "livenessProbe: {exec: {command: ['check-live']}, periodSeconds: 10, failureThreshold: 3,"
                        + " terminationGracePeriodSeconds: 7}");
        String first = awaitRunning().getId();

        probePeriod("check-live");
        probePeriod("check-live");
        assertTrue(f.fake.calls("StopContainer").isEmpty(), "two failures are below the threshold");
        probePeriod("check-live");

        await().atMost(WAIT).until(() -> !f.fake.calls("StopContainer").isEmpty());
        StopContainerRequest stop =
                (StopContainerRequest) f.fake.calls("StopContainer").get(0).request();
        assertEquals(first, stop.getContainerId());
        assertEquals(7, stop.getTimeout(), "the probe's own terminationGracePeriodSeconds");
        ObjectNode restarted =
                f.awaitLatest(
                        "l1",
                        s ->
                                app(s).path("restartCount").asInt() == 1
                                        && app(s).path("state").has("running"));
        assertTrue(app(restarted).path("lastState").has("terminated"), restarted.toString());
        assertEquals(
                "containerd://" + first,
                app(restarted).path("lastState").path("terminated").path("containerID").asText());
        assertEquals(1, f.fake.latestContainer("app").orElseThrow().getMetadata().getAttempt());
    }

    @Test
    void aStartupProbeHoldsStartedFalseAndLivenessOffUntilItPasses() {
        f.fake.scriptExec("app", ExecAnswer.exit(1));
        spawnProbed(
                "slow",
                "s1",
                "terminationGracePeriodSeconds: 30",
                "startupProbe: {exec: {command: ['check-started']}, periodSeconds: 10, failureThreshold: 30},"
                        + " livenessProbe: {exec: {command: ['check-live']}, periodSeconds: 10, failureThreshold: 1}");
        ObjectNode running = f.awaitLatest("s1", s -> app(s).path("state").has("running"));
        assertFalse(app(running).path("started").asBoolean());
        assertFalse(app(running).path("ready").asBoolean(), "not ready before it started");

        probePeriod("check-started");
        probePeriod("check-started");
        assertEquals(0, execs("check-live"), "liveness waits for the startup probe");
        assertFalse(app(f.sink.latest("s1").orElseThrow()).path("started").asBoolean());

        f.fake.scriptExec("app", ExecAnswer.exit(0));
        probePeriod("check-started");
        ObjectNode started = f.awaitLatest("s1", s -> app(s).path("started").asBoolean());
        assertTrue(
                app(started).path("ready").asBoolean(), "no readiness probe: ready once started");
        assertEquals("True", condition(started, "Ready").path("status").asText());

        probePeriod("check-live");
        assertTrue(f.fake.calls("StopContainer").isEmpty(), "liveness passes");
        assertEquals(0, app(f.sink.latest("s1").orElseThrow()).path("restartCount").asInt());
    }

    // ---------------------------------------------------------------- helpers

    private void spawnProbed(String name, String uid, String podFields, String probes) {
        f.spawn(
                pod(
                        name,
                        uid,
                        "Always",
                        podFields
                                + ", containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "', imagePullPolicy: 'IfNotPresent', "
                                + probes
                                + "}]"));
    }

    /**
     * Moves the clock one period on and waits until the probe whose command starts with {@code
     * command} ran.
     */
    private void probePeriod(String command) {
        long before = execs(command);
        f.clock.advance(PERIOD);
        await().atMost(WAIT).until(() -> execs(command) > before);
    }

    private long execs(String command) {
        return f.fake.calls("ExecSync").stream()
                .filter(c -> ((ExecSyncRequest) c.request()).getCmd(0).equals(command))
                .count();
    }

    private Container awaitRunning() {
        return f.awaitContainer("app", ContainerState.CONTAINER_RUNNING);
    }
}
