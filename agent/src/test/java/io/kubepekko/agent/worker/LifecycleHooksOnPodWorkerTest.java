package io.kubepekko.agent.worker;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
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
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** preStop and postStart hooks run by the pod worker against the fake CRI runtime, and the events they record. */
class LifecycleHooksOnPodWorkerTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String IMAGE = FakeCri.BUSYBOX_IMAGE;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-02T03:04:05Z"));
    private final PodWorkerTest.RecordingSink sink = new PodWorkerTest.RecordingSink();
    private final RecordingEvents events = new RecordingEvents();
    private final List<ActorRef<PodWorker.Command>> workers = new CopyOnWriteArrayList<>();
    private final PodWorkerSettings settings = PodWorkerSettings.DEFAULT.withRelistPeriod(Duration.ofMillis(50));
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
    void preStopExecRunsBeforeStopContainerWhichGetsTheGraceLeft() {
        // The hook takes 10 s of the manual clock: 30 - 10 are left for SIGTERM.
        fake.scriptExec("app", FakeCri.ExecAnswer.after(() -> clock.advance(Duration.ofSeconds(10)),
                FakeCri.ExecAnswer.exit(0)));
        ActorRef<PodWorker.Command> worker = spawn(PodWorkerTest.pod("hooked", "h1", "Always",
                "containers: [{name: 'app', image: '" + IMAGE + "', imagePullPolicy: 'IfNotPresent',"
                        + " lifecycle: {preStop: {exec: {command: ['sh', '-c', 'sleep 10']}}}}]"));
        Container c = awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        terminate(worker, Duration.ofSeconds(30));

        List<String> order = fake.calls().stream().map(FakeCri.Call::method)
                .filter(m -> m.equals("ExecSync") || m.equals("StopContainer")).toList();
        assertEquals(List.of("ExecSync", "StopContainer"), order, "the hook runs first");
        ExecSyncRequest exec = (ExecSyncRequest) fake.calls("ExecSync").get(0).request();
        assertEquals(c.getId(), exec.getContainerId());
        assertEquals(List.of("sh", "-c", "sleep 10"), exec.getCmdList());
        assertEquals(30, exec.getTimeout(), "the hook may take the whole grace period");
        StopContainerRequest stop = (StopContainerRequest) fake.calls("StopContainer").get(0).request();
        assertEquals(20, stop.getTimeout(), "the stop gets the grace period the hook left");
        assertTrue(events.has("Killing", "spec.containers{app}", "Stopping container app"), events.all.toString());
    }

    @Test
    void aPreStopHookThatOutlastsTheGracePeriodIsCutOff() {
        fake.stall("ExecSync"); // the hook never returns
        ActorRef<PodWorker.Command> worker = spawn(PodWorkerTest.pod("slow", "h2", "Always",
                "containers: [{name: 'app', image: '" + IMAGE + "', imagePullPolicy: 'IfNotPresent',"
                        + " lifecycle: {preStop: {exec: {command: ['sleep', '3600']}}}}]"));
        awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        terminate(worker, Duration.ofSeconds(1));

        assertEquals(1, fake.stalledCalls(), "the hook was started");
        StopContainerRequest stop = (StopContainerRequest) fake.calls("StopContainer").get(0).request();
        assertEquals(2, stop.getTimeout(), "nothing left of the grace period: the kubelet's minimum of 2 s");
        assertTrue(fake.sandboxes().isEmpty());
    }

    @Test
    void aFailingPreStopHookRecordsFailedPreStopHookAndStillStops() {
        fake.scriptExec("app", FakeCri.ExecAnswer.exit(1, "", "nope"));
        ActorRef<PodWorker.Command> worker = spawn(PodWorkerTest.pod("bad", "h3", "Always",
                "containers: [{name: 'app', image: '" + IMAGE + "', imagePullPolicy: 'IfNotPresent',"
                        + " lifecycle: {preStop: {exec: {command: ['false']}}}}]"));
        awaitContainer("app", ContainerState.CONTAINER_RUNNING);

        terminate(worker, Duration.ofSeconds(30));

        assertTrue(events.has("FailedPreStopHook", "spec.containers{app}", "PreStopHook failed"), events.all.toString());
        assertEquals(30, ((StopContainerRequest) fake.calls("StopContainer").get(0).request()).getTimeout());
    }

    @Test
    void aFailingPostStartHookKillsTheContainer() {
        fake.scriptExec("app", FakeCri.ExecAnswer.exit(1, "", "hook broke"));
        spawn(PodWorkerTest.pod("post", "h4", "Always",
                "containers: [{name: 'app', image: '" + IMAGE + "', imagePullPolicy: 'IfNotPresent',"
                        + " lifecycle: {postStart: {exec: {command: ['false']}}}}]"));

        await().atMost(WAIT).until(() -> !fake.calls("StopContainer").isEmpty());
        Container first = fake.containers().stream().filter(c -> c.getMetadata().getAttempt() == 0).findFirst().orElseThrow();
        assertEquals(first.getId(), ((StopContainerRequest) fake.calls("StopContainer").get(0).request()).getContainerId());
        await().atMost(WAIT).until(() -> events.has("FailedPostStartHook", "spec.containers{app}", "PostStartHook failed"));
        assertTrue(events.has("Killing", "spec.containers{app}", "FailedPostStartHook"), events.all.toString());
        assertTrue(events.has("Started", "spec.containers{app}", "Container started"), events.all.toString());
        await().atMost(WAIT).until(() -> fake.containers().stream()
                .anyMatch(c -> c.getId().equals(first.getId()) && c.getState() == ContainerState.CONTAINER_EXITED));
    }

    @Test
    void aStartedContainerRecordsPulledCreatedStarted() {
        spawn(PodWorkerTest.pod("ev", "h5", "Always",
                "containers: [{name: 'app', image: '" + IMAGE + "', imagePullPolicy: 'IfNotPresent'}]"));
        await().atMost(WAIT).until(() -> events.has("Started", "spec.containers{app}", "Container started"));
        assertTrue(events.has("Pulled", "spec.containers{app}",
                "Container image \"" + IMAGE + "\" already present on machine and can be accessed by the pod"));
        assertTrue(events.has("Created", "spec.containers{app}", "Container created"));
    }

    // ---------------------------------------------------------------- helpers

    private ActorRef<PodWorker.Command> spawn(JsonNode pod) {
        ActorRef<PodWorker.Command> worker = KIT.spawn(PodWorker.create(pod, PodInputs.NONE, cri, node, sink, events,
                clock, settings));
        workers.add(worker);
        return worker;
    }

    private void terminate(ActorRef<PodWorker.Command> worker, Duration grace) {
        TestProbe<PodWorker.Terminated> probe = KIT.createTestProbe();
        worker.tell(new PodWorker.Terminate(grace, probe.getRef()));
        probe.receiveMessage(WAIT);
    }

    private Container awaitContainer(String name, ContainerState state) {
        await().atMost(WAIT).until(() -> fake.latestContainer(name).filter(c -> c.getState() == state).isPresent());
        return fake.latestContainer(name).orElseThrow();
    }

    /** Keeps every event recorded, as {@code reason|fieldPath|message}. */
    static final class RecordingEvents implements EventSink {
        final List<String> all = new CopyOnWriteArrayList<>();

        @Override
        public void event(JsonNode pod, String fieldPath, String type, String reason, String message) {
            all.add(reason + "|" + fieldPath + "|" + message);
        }

        boolean has(String reason, String fieldPath, String message) {
            return all.contains(reason + "|" + fieldPath + "|" + message);
        }
    }
}
