package io.kubepekko.agent.worker;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.FakeCri.ExecAnswer;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ExecSyncRequest;
import io.kubepekko.agent.cri.v1.StopContainerRequest;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.ResolvConf;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pod worker's probes against the fake CRI runtime (exec probes through ExecSync); the probes' periods run on the
 * manual clock shared with the fake, so a test moves time one period at a time and waits for the effect.
 */
class ProbesOnPodWorkerTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Duration PERIOD = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-02T03:04:05Z"));
    private final PodWorkerTest.RecordingSink sink = new PodWorkerTest.RecordingSink();
    private final List<ActorRef<PodWorker.Command>> workers = new CopyOnWriteArrayList<>();
    private FakeCri fake;
    private CriRuntime cri;
    private NodeContext node;

    @BeforeEach
    void start() {
        fake = FakeCri.start(dir.resolve("cri.sock"), clock);
        cri = fake.client();
        node = new NodeContext("node-1", dir.resolve("root"), List.of("192.168.1.10"), List.of(), "",
                ResolvConf.parse("nameserver 10.0.0.2\n"), 8L << 30, 4000, 8L << 30, 100L << 30);
    }

    @AfterEach
    void stop() {
        workers.forEach(KIT::stop);
        fake.close();
    }

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void aFailingReadinessProbeKeepsThePodNotReadyAndAPassingOneMakesItReady() {
        fake.scriptExec("app", ExecAnswer.exit(1, "not yet", ""));
        spawn("ready", "r1", "terminationGracePeriodSeconds: 30",
                "readinessProbe: {exec: {command: ['cat', '/tmp/ready']}, periodSeconds: 10, failureThreshold: 1}");
        ObjectNode running = awaitLatest("r1", s -> app(s).path("state").has("running"));
        assertFalse(app(running).path("ready").asBoolean(), "not ready before a probe passed");
        assertEquals("False", condition(running, "Ready").path("status").asText());

        probePeriod("cat");
        ObjectNode failed = sink.latest("r1").orElseThrow();
        assertFalse(app(failed).path("ready").asBoolean());
        assertEquals("ContainersNotReady", condition(failed, "ContainersReady").path("reason").asText());
        assertEquals("containers with unready status: [app]", condition(failed, "Ready").path("message").asText());

        fake.scriptExec("app", ExecAnswer.exit(0));
        probePeriod("cat");
        ObjectNode ready = awaitLatest("r1", s -> app(s).path("ready").asBoolean());
        assertEquals("True", condition(ready, "ContainersReady").path("status").asText());
        assertEquals("True", condition(ready, "Ready").path("status").asText());

        fake.scriptExec("app", ExecAnswer.exit(1));
        probePeriod("cat");
        ObjectNode unready = awaitLatest("r1", s -> !app(s).path("ready").asBoolean());
        assertEquals("False", condition(unready, "Ready").path("status").asText());
        assertEquals(0, app(unready).path("restartCount").asInt(), "readiness never restarts a container");
        assertTrue(fake.calls("StopContainer").isEmpty());
    }

    @Test
    void aLivenessProbeFailingFailureThresholdTimesRestartsTheContainer() {
        fake.scriptExec("app", ExecAnswer.exit(1, "", "dead"));
        spawn("live", "l1", "terminationGracePeriodSeconds: 30",
                "livenessProbe: {exec: {command: ['check-live']}, periodSeconds: 10, failureThreshold: 3,"
                        + " terminationGracePeriodSeconds: 7}");
        String first = awaitRunning().getId();

        probePeriod("check-live");
        probePeriod("check-live");
        assertTrue(fake.calls("StopContainer").isEmpty(), "two failures are below the threshold");
        probePeriod("check-live");

        await().atMost(WAIT).until(() -> !fake.calls("StopContainer").isEmpty());
        StopContainerRequest stop = (StopContainerRequest) fake.calls("StopContainer").get(0).request();
        assertEquals(first, stop.getContainerId());
        assertEquals(7, stop.getTimeout(), "the probe's own terminationGracePeriodSeconds");
        ObjectNode restarted = awaitLatest("l1", s -> app(s).path("restartCount").asInt() == 1
                && app(s).path("state").has("running"));
        assertTrue(app(restarted).path("lastState").has("terminated"), restarted.toString());
        assertEquals("containerd://" + first,
                app(restarted).path("lastState").path("terminated").path("containerID").asText());
        assertEquals(1, fake.latestContainer("app").orElseThrow().getMetadata().getAttempt());
    }

    @Test
    void aStartupProbeHoldsStartedFalseAndLivenessOffUntilItPasses() {
        fake.scriptExec("app", ExecAnswer.exit(1));
        spawn("slow", "s1", "terminationGracePeriodSeconds: 30",
                "startupProbe: {exec: {command: ['check-started']}, periodSeconds: 10, failureThreshold: 30},"
                        + " livenessProbe: {exec: {command: ['check-live']}, periodSeconds: 10, failureThreshold: 1}");
        ObjectNode running = awaitLatest("s1", s -> app(s).path("state").has("running"));
        assertFalse(app(running).path("started").asBoolean());
        assertFalse(app(running).path("ready").asBoolean(), "not ready before it started");

        probePeriod("check-started");
        probePeriod("check-started");
        assertEquals(0, execs("check-live"), "liveness waits for the startup probe");
        assertFalse(app(sink.latest("s1").orElseThrow()).path("started").asBoolean());

        fake.scriptExec("app", ExecAnswer.exit(0));
        probePeriod("check-started");
        ObjectNode started = awaitLatest("s1", s -> app(s).path("started").asBoolean());
        assertTrue(app(started).path("ready").asBoolean(), "no readiness probe: ready once started");
        assertEquals("True", condition(started, "Ready").path("status").asText());

        probePeriod("check-live");
        assertTrue(fake.calls("StopContainer").isEmpty(), "liveness passes");
        assertEquals(0, app(sink.latest("s1").orElseThrow()).path("restartCount").asInt());
    }

    // ---------------------------------------------------------------- helpers

    private void spawn(String name, String uid, String podFields, String probes) {
        JsonNode pod = PodWorkerTest.pod(name, uid, "Always", podFields + ", containers: [{name: 'app', image: '"
                + FakeCri.BUSYBOX_IMAGE + "', imagePullPolicy: 'IfNotPresent', " + probes + "}]");
        PodWorkerSettings settings = PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(50));
        workers.add(KIT.spawn(PodWorker.create(pod, PodInputs.NONE, cri, node, sink, EventSink.NONE, clock, settings)));
    }

    /** Moves the clock one period on and waits until the probe whose command starts with {@code command} ran. */
    private void probePeriod(String command) {
        long before = execs(command);
        clock.advance(PERIOD);
        await().atMost(WAIT).until(() -> execs(command) > before);
    }

    private long execs(String command) {
        return fake.calls("ExecSync").stream()
                .filter(c -> ((ExecSyncRequest) c.request()).getCmd(0).equals(command)).count();
    }

    private io.kubepekko.agent.cri.v1.Container awaitRunning() {
        await().atMost(WAIT).until(() -> fake.latestContainer("app")
                .filter(c -> c.getState() == ContainerState.CONTAINER_RUNNING).isPresent());
        return fake.latestContainer("app").orElseThrow();
    }

    private ObjectNode awaitLatest(String uid, Predicate<ObjectNode> condition) {
        await().atMost(WAIT).until(() -> sink.latest(uid).filter(condition).isPresent());
        return sink.latest(uid).orElseThrow();
    }

    private static JsonNode app(JsonNode status) {
        return status.path("containerStatuses").get(0);
    }

    private static JsonNode condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    }
}
