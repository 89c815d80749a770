package io.kubepekko.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.ContainerStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pure rules of the pod worker's collaborators. */
class WorkerCollaboratorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) MAPPER.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    // ---------------------------------------------------------------- sync passes

    @Test
    void aQuietPassIsFollowedByNothing() {
        SyncPass pass = new SyncPass();
        assertTrue(pass.begin());
        assertEquals(SyncPass.Next.NOTHING, pass.end());
    }

    @Test
    void oneSyncAtATimeAndOneAskedForMeanwhileFollowsAtOnce() {
        SyncPass pass = new SyncPass();
        assertTrue(pass.begin());
        assertFalse(pass.begin());
        assertFalse(pass.begin());
        assertEquals(SyncPass.Next.NOW, pass.end());
        assertTrue(pass.begin());
        assertEquals(
                SyncPass.Next.NOTHING,
                pass.end(),
                "the sync asked for meanwhile ran: nothing more");
    }

    @Test
    void aPassThatChangedSomethingIsFollowedAtOnceEvenIfItAlsoFailed() {
        SyncPass pass = new SyncPass();
        pass.begin();
        pass.retry();
        pass.progressed();
        assertEquals(SyncPass.Next.NOW, pass.end());
    }

    @Test
    void aPassThatFailedOrWaitsForABackOffIsFollowedARelistPeriodLaterAndTheNextStartsClean() {
        SyncPass pass = new SyncPass();
        pass.begin();
        pass.retry();
        assertEquals(SyncPass.Next.AFTER_RELIST_PERIOD, pass.end());
        pass.begin();
        assertEquals(SyncPass.Next.NOTHING, pass.end());
    }

    // ---------------------------------------------------------------- termination requests

    @Test
    void theFirstTerminateBeginsOnlyAShorterGracePeriodCutsItShortAndTheReplyGoesToTheFirst() {
        TerminationRequests requests = new TerminationRequests();
        assertFalse(requests.underWay());
        assertEquals(
                TerminationRequests.Action.BEGIN,
                requests.take(new PodWorker.Terminate(Duration.ofSeconds(30), null)));
        assertTrue(requests.underWay());
        assertEquals(
                TerminationRequests.Action.NOTHING,
                requests.take(new PodWorker.Terminate(Duration.ofSeconds(30), null)));
        assertEquals(
                TerminationRequests.Action.NOTHING,
                requests.take(new PodWorker.Terminate(Duration.ofSeconds(60), null)));
        assertEquals(Duration.ofSeconds(30), requests.gracePeriod());
        assertEquals(
                TerminationRequests.Action.SHORTEN,
                requests.take(new PodWorker.Terminate(Duration.ofSeconds(5), null)));
        assertEquals(Duration.ofSeconds(5), requests.gracePeriod());
        assertEquals(
                TerminationRequests.Action.NOTHING,
                requests.take(new PodWorker.Terminate(Duration.ofSeconds(10), null)),
                "it only decreases");
        assertEquals(Duration.ofSeconds(5), requests.gracePeriod());
    }

    // ---------------------------------------------------------------- status publishing

    @Test
    void aStatusIsPublishedOnlyWhenItChangedAndTheNextBuildsOnItsConditions() {
        List<String> written = new ArrayList<>();
        StatusPublisher publisher =
                new StatusPublisher(
                        (ns, name, uid, st) ->
                                written.add(
                                        ns
                                                + "/"
                                                + name
                                                + " "
                                                + uid
                                                + " "
                                                + st.path("phase").asText()));
        ObjectNode pod =
                json(
                        """
                {"metadata": {"namespace": "ns", "name": "p", "uid": "u1"},
                 "status": {"conditions": [{"type": "PodScheduled", "status": "True"}]}}""");
        assertNull(publisher.last());
        assertEquals(
                pod.path("status").path("conditions"),
                publisher.previousConditions(pod),
                "before the first: the API object's conditions");

        ObjectNode pending =
                json(
                        """
                {"phase": "Pending", "conditions": [{"type": "Ready", "status": "False"}]}""");
        publisher.publish(pod, pending);
        publisher.publish(pod, pending.deepCopy());
        assertEquals(List.of("ns/p u1 Pending"), written);
        assertEquals(pending.path("conditions"), publisher.previousConditions(pod));

        publisher.publish(
                pod,
                json(
                        """
                {"phase": "Running"}"""));
        assertEquals(List.of("ns/p u1 Pending", "ns/p u1 Running"), written);
        assertEquals("Running", publisher.last().path("phase").asText());
    }

    // ---------------------------------------------------------------- late OOM reasons

    private static ContainerStatus exited(String id, int exitCode, String reason) {
        return ContainerStatus.newBuilder()
                .setId(id)
                .setState(ContainerState.CONTAINER_EXITED)
                .setExitCode(exitCode)
                .setReason(reason)
                .build();
    }

    private static ObservedPod pod(ContainerStatus... instances) {
        return new ObservedPod(Optional.empty(), List.of(), Map.of("app", List.of(instances)));
    }

    @Test
    void aKilledExitReadingErrorIsReadAgainAtDoublingIntervalsUntilTheResyncTakesOver() {
        LateOomReasons late = new LateOomReasons(Duration.ofSeconds(1), Duration.ofMinutes(1));
        ObservedPod killed = pod(exited("c1", 137, "Error"));
        List<Duration> waits = new ArrayList<>();
        for (int read = 0; read < 8; read++) {
            late.readAgainAfter(killed).ifPresent(waits::add);
        }
        assertEquals(
                List.of(1L, 2L, 4L, 8L, 16L, 32L),
                waits.stream().map(Duration::toSeconds).toList(),
                "64 s is past the resync, whose syncs read the pod anyway");
    }

    @Test
    void onlyAnExit137ThatReadsErrorMayStillChange() {
        LateOomReasons late = new LateOomReasons(Duration.ofSeconds(1), Duration.ofMinutes(1));
        assertEquals(Optional.empty(), late.readAgainAfter(pod(exited("c1", 137, "OOMKilled"))));
        assertEquals(Optional.empty(), late.readAgainAfter(pod(exited("c2", 1, "Error"))));
        assertEquals(Optional.empty(), late.readAgainAfter(pod(exited("c3", 0, "Completed"))));
        ContainerStatus running =
                ContainerStatus.newBuilder()
                        .setId("c4")
                        .setState(ContainerState.CONTAINER_RUNNING)
                        .build();
        assertEquals(Optional.empty(), late.readAgainAfter(pod(running)));
        assertEquals(Optional.empty(), late.readAgainAfter(ObservedPod.NOTHING));
    }

    @Test
    void aContainerThatReadsOomKilledIsForgottenAndANewKilledOneStartsFromARelistPeriod() {
        LateOomReasons late = new LateOomReasons(Duration.ofSeconds(1), Duration.ofMinutes(1));
        late.readAgainAfter(pod(exited("c1", 137, "Error")));
        late.readAgainAfter(pod(exited("c1", 137, "Error")));
        assertEquals(Optional.empty(), late.readAgainAfter(pod(exited("c1", 137, "OOMKilled"))));
        assertEquals(
                Optional.of(Duration.ofSeconds(1)),
                late.readAgainAfter(pod(exited("c1", 137, "Error"))),
                "forgotten once it read otherwise");

        assertEquals(
                Optional.of(Duration.ofSeconds(1)),
                late.readAgainAfter(pod(exited("c2", 137, "Error"), exited("c1", 137, "Error"))),
                "the soonest read of the pod's undecided exits");
    }
}
