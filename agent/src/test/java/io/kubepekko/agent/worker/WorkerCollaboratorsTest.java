package io.kubepekko.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
}
