package io.kubepekko.agent.probe;

import static io.kubepekko.agent.probe.ProbeResult.FAILURE;
import static io.kubepekko.agent.probe.ProbeResult.SUCCESS;
import static io.kubepekko.agent.probe.ProbeWorker.Action.PROBE;
import static io.kubepekko.agent.probe.ProbeWorker.Action.STOP;
import static io.kubepekko.agent.probe.ProbeWorker.Action.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProbeWorkerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static ProbeSpec spec(ProbeKind kind, String json) throws Exception {
        return ProbeSpec.of(kind, JSON.readTree(json.replace('\'', '"')));
    }

    private static ProbeWorker.Observation runningAs(String id, boolean started) {
        return new ProbeWorker.Observation(
                false, id, Optional.of(T0), false, started, false, false);
    }

    @Test
    void defaultsAreKubernetes() throws Exception {
        ProbeSpec s = spec(ProbeKind.READINESS, "{'exec':{'command':['true']}}");
        assertEquals(0, s.initialDelaySeconds());
        assertEquals(10, s.periodSeconds());
        assertEquals(1, s.timeoutSeconds());
        assertEquals(1, s.successThreshold());
        assertEquals(3, s.failureThreshold());
        assertEquals("{\"exec\":{\"command\":[\"true\"]}}", s.handler().toString());
    }

    @Test
    void livenessAndStartupSuccessThresholdMustBeOne() throws Exception {
        assertEquals(2, spec(ProbeKind.READINESS, "{'successThreshold':2}").successThreshold());
        var e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> spec(ProbeKind.LIVENESS, "{'successThreshold':2}"));
        assertEquals("livenessProbe.successThreshold: Invalid value: 2: must be 1", e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> spec(ProbeKind.STARTUP, "{'successThreshold':3}"));
    }

    @Test
    void eachKindStartsFromItsInitialResultForANewContainer() throws Exception {
        assertEquals(
                Optional.of(FAILURE),
                ProbeWorker.start(ProbeKind.READINESS, spec(ProbeKind.READINESS, "{}"))
                        .tick(runningAs("c1", true), T0)
                        .changed());
        assertEquals(
                Optional.of(SUCCESS),
                ProbeWorker.start(ProbeKind.LIVENESS, spec(ProbeKind.LIVENESS, "{}"))
                        .tick(runningAs("c1", true), T0)
                        .changed());
        assertEquals(
                Optional.of(ProbeResult.UNKNOWN),
                ProbeWorker.start(ProbeKind.STARTUP, spec(ProbeKind.STARTUP, "{}"))
                        .tick(runningAs("c1", false), T0)
                        .changed());
    }

    @Test
    void waitsForAContainerThenForTheInitialDelay() throws Exception {
        ProbeWorker w =
                ProbeWorker.start(
                        ProbeKind.LIVENESS, spec(ProbeKind.LIVENESS, "{'initialDelaySeconds':5}"));
        assertEquals(
                WAIT,
                w.tick(
                                new ProbeWorker.Observation(
                                        false, "", Optional.empty(), false, false, false, false),
                                T0)
                        .action());
        ProbeWorker.Step s = w.tick(runningAs("c1", true), T0.plusSeconds(4).plusMillis(999));
        assertEquals(WAIT, s.action());
        assertEquals(PROBE, s.worker().tick(runningAs("c1", true), T0.plusSeconds(5)).action());
    }

    @Test
    void readinessTurnsOnlyAfterTheThresholdsInARow() throws Exception {
        ProbeWorker w =
                ProbeWorker.start(
                        ProbeKind.READINESS,
                        spec(ProbeKind.READINESS, "{'successThreshold':2,'failureThreshold':2}"));
        ProbeWorker.Step s = w.tick(runningAs("c1", true), T0);
        assertEquals(PROBE, s.action());
        s = s.worker().record(Optional.of(SUCCESS));
        assertEquals(Optional.empty(), s.changed(), "one success of two");
        s = s.worker().record(Optional.of(SUCCESS));
        assertEquals(Optional.of(SUCCESS), s.changed());
        s = s.worker().record(Optional.of(FAILURE));
        assertEquals(Optional.empty(), s.changed(), "one failure of two");
        s = s.worker().record(Optional.empty());
        assertEquals(Optional.empty(), s.changed(), "a prober error is thrown away");
        s = s.worker().record(Optional.of(FAILURE));
        assertEquals(Optional.of(FAILURE), s.changed());
        assertEquals(
                PROBE,
                s.worker().tick(runningAs("c1", true), T0.plusSeconds(60)).action(),
                "readiness keeps probing");
    }

    @Test
    void livenessFailureHoldsTheWorkerUntilANewContainer() throws Exception {
        ProbeWorker w =
                ProbeWorker.start(
                        ProbeKind.LIVENESS, spec(ProbeKind.LIVENESS, "{'failureThreshold':3}"));
        ProbeWorker.Step s = w.tick(runningAs("c1", true), T0);
        for (int i = 0; i < 2; i++) {
            s = s.worker().record(Optional.of(FAILURE));
            assertEquals(Optional.empty(), s.changed());
        }
        s = s.worker().record(Optional.of(FAILURE));
        assertEquals(Optional.of(FAILURE), s.changed(), "third failure in a row: restart");
        assertEquals(
                WAIT,
                s.worker().tick(runningAs("c1", true), T0.plusSeconds(10)).action(),
                "on hold");
        ProbeWorker.Step fresh = s.worker().tick(runningAs("c2", true), T0.plusSeconds(20));
        assertEquals(Optional.of(SUCCESS), fresh.changed(), "a new container starts as passing");
        assertEquals(PROBE, fresh.action());
    }

    @Test
    void startupGatesTheOtherProbesAndStopsProbingOnceStarted() throws Exception {
        ProbeWorker liveness =
                ProbeWorker.start(ProbeKind.LIVENESS, spec(ProbeKind.LIVENESS, "{}"));
        assertEquals(WAIT, liveness.tick(runningAs("c1", false), T0).action());
        assertEquals(PROBE, liveness.tick(runningAs("c1", true), T0).action());
        ProbeWorker startup = ProbeWorker.start(ProbeKind.STARTUP, spec(ProbeKind.STARTUP, "{}"));
        ProbeWorker.Step s = startup.tick(runningAs("c1", false), T0);
        assertEquals(PROBE, s.action());
        s = s.worker().record(Optional.of(SUCCESS));
        assertEquals(Optional.of(SUCCESS), s.changed());
        assertTrue(ProbeWorker.started(true, Optional.of(s.worker())));
        assertEquals(WAIT, s.worker().tick(runningAs("c1", true), T0.plusSeconds(10)).action());
    }

    @Test
    void startedAndReadyFollowTheProbes() throws Exception {
        ProbeWorker startup = ProbeWorker.start(ProbeKind.STARTUP, spec(ProbeKind.STARTUP, "{}"));
        assertTrue(ProbeWorker.started(true, Optional.empty()), "no startup probe");
        assertFalse(ProbeWorker.started(false, Optional.empty()), "not running");
        assertFalse(ProbeWorker.started(true, Optional.of(startup)), "startup probe not passed");
        ProbeWorker readiness =
                ProbeWorker.start(ProbeKind.READINESS, spec(ProbeKind.READINESS, "{}"))
                        .tick(runningAs("c1", true), T0)
                        .worker();
        assertTrue(
                ProbeWorker.ready(true, true, Optional.empty()),
                "no readiness probe: ready once started");
        assertFalse(ProbeWorker.ready(true, true, Optional.of(readiness)), "initial Failure");
        assertFalse(ProbeWorker.ready(true, false, Optional.empty()), "not started");
        assertTrue(
                ProbeWorker.ready(
                        true, true, Optional.of(readiness.record(Optional.of(SUCCESS)).worker())));
    }

    @Test
    void stopsForAFinishedPodAContainerThatWillNotRestartAndADeletion() throws Exception {
        ProbeWorker w = ProbeWorker.start(ProbeKind.LIVENESS, spec(ProbeKind.LIVENESS, "{}"));
        assertEquals(
                STOP,
                w.tick(
                                new ProbeWorker.Observation(
                                        true, "c1", Optional.empty(), true, false, false, false),
                                T0)
                        .action());
        ProbeWorker.Step exited =
                w.tick(
                        new ProbeWorker.Observation(
                                false, "c1", Optional.empty(), true, false, true, false),
                        T0);
        assertEquals(STOP, exited.action());
        assertEquals(
                Optional.of(FAILURE),
                exited.worker().result(),
                "a container not running fails its probes");
        assertEquals(
                WAIT,
                w.tick(
                                new ProbeWorker.Observation(
                                        false, "c1", Optional.empty(), true, false, false, false),
                                T0)
                        .action(),
                "it will be restarted");
        ProbeWorker.Step deleting =
                w.tick(
                        new ProbeWorker.Observation(
                                false, "c1", Optional.of(T0), false, true, false, true),
                        T0);
        assertEquals(STOP, deleting.action());
        assertEquals(Optional.of(SUCCESS), deleting.worker().result());
        ProbeWorker readiness =
                ProbeWorker.start(ProbeKind.READINESS, spec(ProbeKind.READINESS, "{}"));
        assertEquals(
                PROBE,
                readiness
                        .tick(
                                new ProbeWorker.Observation(
                                        false, "c1", Optional.of(T0), false, true, false, true),
                                T0)
                        .action(),
                "readiness goes on during deletion");
    }
}
