package io.kubepekko.api.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.policy.DisruptionStatus.ControllerScale;
import io.kubepekko.api.policy.DisruptionStatus.Disrupted;
import io.kubepekko.api.policy.DisruptionStatus.Expectation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The disruption controller's arithmetic, against kube's disruption controller tests and the
 * examples of kube's "Specifying a Disruption Budget" page.
 */
class DisruptionStatusTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    static ObjectNode obj(String singleQuoted) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectNode budget(String spec) {
        return obj(
                "{'metadata':{'name':'pdb','namespace':'ns','generation':1},'spec':{"
                        + spec
                        + ",'selector':{'matchLabels':{'app':'web'}}}}");
    }

    /** A pod of app=web owned by the controller with uid {@code owner} (none when null). */
    static ObjectNode pod(String name, boolean ready, String owner) {
        return obj(
                "{'metadata':{'name':'"
                        + name
                        + "','namespace':'ns','labels':{'app':'web'}"
                        + (owner == null
                                ? ""
                                : ",'ownerReferences':[{'apiVersion':'apps/v1','kind':'ReplicaSet',"
                                        + "'name':'rs','uid':'"
                                        + owner
                                        + "','controller':true}]")
                        + "},'status':{'phase':'Running','conditions':[{'type':'Ready','status':'"
                        + (ready ? "True" : "False")
                        + "'}]}}");
    }

    static List<JsonNode> pods(int ready, int unready, String owner) {
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < ready + unready; i++) {
            out.add(pod("p" + i, i < ready, owner));
        }
        return out;
    }

    /**
     * kube's docs: minAvailable / maxUnavailable as an int or a percentage of the scale, rounded
     * up.
     */
    static Stream<Arguments> expectations() {
        return Stream.of(
                Arguments.of("min 2 of 3 pods", "'minAvailable':2", 3, 0, 3, 2),
                Arguments.of("min int ignores the scale", "'minAvailable':2", 3, 7, 3, 2),
                Arguments.of("min 50% of 7 rounds up", "'minAvailable':'50%'", 3, 7, 7, 4),
                Arguments.of("min 100% of 3", "'minAvailable':'100%'", 3, 3, 3, 3),
                Arguments.of("max 1 of scale 5", "'maxUnavailable':1", 3, 5, 5, 4),
                Arguments.of("max 30% of 7 rounds up to 3", "'maxUnavailable':'30%'", 3, 7, 7, 4),
                Arguments.of("max 0 allows none", "'maxUnavailable':0", 3, 3, 3, 3),
                Arguments.of("max above the scale is 0 needed", "'maxUnavailable':9", 3, 3, 3, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expectations")
    void expectedAndDesiredFollowTheBudgetAndTheControllersScale(
            String name, String spec, int podCount, int scale, int expected, int desired) {
        List<JsonNode> pods = pods(podCount, 0, "rs-uid");
        Expectation e =
                DisruptionStatus.expectation(
                        budget(spec), pods, Map.of("rs-uid", new ControllerScale("rs-uid", scale)));
        assertEquals(expected, e.expectedCount(), "expectedPods");
        assertEquals(desired, e.desiredHealthy(), "desiredHealthy");
    }

    @Test
    void controllersAreCountedOncePerController() {
        // Two ReplicaSets of one Deployment (scale 4) count the Deployment once.
        List<JsonNode> pods = new ArrayList<>(pods(2, 0, "rs-a"));
        pods.add(pod("q", true, "rs-b"));
        Map<String, ControllerScale> scales =
                Map.of(
                        "rs-a", new ControllerScale("dep", 4),
                        "rs-b", new ControllerScale("dep", 4));
        Expectation e = DisruptionStatus.expectation(budget("'maxUnavailable':1"), pods, scales);
        assertEquals(4, e.expectedCount());
        assertEquals(3, e.desiredHealthy());
    }

    @Test
    void aPodWhoseControllerIsNotFoundFailsWithKubesMessage() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                DisruptionStatus.expectation(
                                        budget("'maxUnavailable':1"),
                                        pods(1, 0, "gone"),
                                        Map.of()));
        assertEquals("found no controllers for pod \"p0\"", e.getMessage());
    }

    @Test
    void unmanagedPodsAreReportedAndNotCounted() {
        Expectation e =
                DisruptionStatus.expectation(
                        budget("'minAvailable':'50%'"), pods(2, 0, null), Map.of());
        assertEquals(0, e.expectedCount());
        assertEquals(List.of("p0", "p1"), e.unmanagedPods());
        assertTrue(
                DisruptionStatus.controllersToResolve(budget("'minAvailable':2"), pods(2, 0, "x"))
                        .isEmpty(),
                "an integer minAvailable needs no scale");
        assertEquals(
                1,
                DisruptionStatus.controllersToResolve(budget("'maxUnavailable':1"), pods(3, 0, "x"))
                        .size());
    }

    @ParameterizedTest(name = "{0} ready, {1} unready, minAvailable 2 → {2} allowed")
    @CsvSource({"3,0,1", "2,1,0", "1,2,0", "4,0,2", "0,0,0"})
    void disruptionsAllowedAreTheHealthyPodsAboveTheDesired(int ready, int unready, int allowed) {
        ObjectNode pdb = budget("'minAvailable':2");
        List<JsonNode> pods = pods(ready, unready, null);
        Expectation e = DisruptionStatus.expectation(pdb, pods, Map.of());
        Disrupted d = DisruptionStatus.disrupted(pdb, pods, NOW);
        int healthy = DisruptionStatus.currentHealthy(pods, d, NOW);
        assertEquals(ready, healthy);
        ObjectNode status =
                (ObjectNode)
                        DisruptionStatus.updated(pdb, healthy, e, d, NOW)
                                .orElseThrow()
                                .get("status");
        assertEquals(allowed, status.get("disruptionsAllowed").asInt());
        assertEquals(ready, status.get("currentHealthy").asInt());
        assertEquals(2, status.get("desiredHealthy").asInt());
        assertEquals(ready + unready, status.get("expectedPods").asInt());
        assertEquals(1, status.get("observedGeneration").asLong());
        JsonNode c = status.at("/conditions/0");
        assertEquals("DisruptionAllowed", c.get("type").asText());
        assertEquals(allowed > 0 ? "True" : "False", c.get("status").asText());
        assertEquals(allowed > 0 ? "SufficientPods" : "InsufficientPods", c.get("reason").asText());
        assertEquals("", c.get("message").asText());
        assertEquals("2026-03-04T05:06:07Z", c.get("lastTransitionTime").asText());
    }

    @Test
    void aStatusThatAlreadySaysItIsNotWrittenAgainAndTransitionsKeepTheirTime() {
        ObjectNode pdb = budget("'minAvailable':1");
        List<JsonNode> pods = pods(2, 0, null);
        Expectation e = DisruptionStatus.expectation(pdb, pods, Map.of());
        Disrupted d = DisruptionStatus.disrupted(pdb, pods, NOW);
        ObjectNode first = DisruptionStatus.updated(pdb, 2, e, d, NOW).orElseThrow();
        assertTrue(DisruptionStatus.updated(first, 2, e, d, NOW.plusSeconds(60)).isEmpty());
        // one pod turns unready: allowed 1 → 0, the condition flips at the new time
        ObjectNode second =
                DisruptionStatus.updated(first, 1, e, d, NOW.plusSeconds(60)).orElseThrow();
        assertEquals("False", second.at("/status/conditions/0/status").asText());
        assertEquals(
                "2026-03-04T05:07:07Z",
                second.at("/status/conditions/0/lastTransitionTime").asText());
        assertEquals(1, second.at("/status/conditions").size());
        // a newer generation is a change even when the counts are not
        ObjectNode bumped = second.deepCopy();
        ((ObjectNode) bumped.get("metadata")).put("generation", 2);
        assertEquals(
                2,
                DisruptionStatus.updated(bumped, 1, e, d, NOW)
                        .orElseThrow()
                        .at("/status/observedGeneration")
                        .asLong());
    }

    @Test
    void noDisruptionIsAllowedWhileNoPodIsExpected() {
        ObjectNode pdb = budget("'maxUnavailable':1");
        Expectation none = new Expectation(0, 0, List.of());
        ObjectNode out =
                DisruptionStatus.updated(pdb, 0, none, new Disrupted(Map.of(), null), NOW)
                        .orElseThrow();
        assertEquals(0, out.at("/status/disruptionsAllowed").asInt());
    }

    @Test
    void pendingEvictionsCountAsDisruptedForTwoMinutesThenExpire() {
        ObjectNode pdb = budget("'minAvailable':1");
        pdb.putObject("status")
                .putObject("disruptedPods")
                .put("p0", "2026-03-04T05:05:07Z") // a minute ago: pending
                .put("p1", "2026-03-04T05:03:07Z") // three minutes ago: expired
                .put("gone", "2026-03-04T05:06:00Z"); // no such pod: dropped
        List<JsonNode> pods = pods(3, 0, null);
        Disrupted d = DisruptionStatus.disrupted(pdb, pods, NOW);
        assertEquals(Map.of("p0", "2026-03-04T05:05:07Z"), d.pods());
        assertEquals(Instant.parse("2026-03-04T05:07:07Z"), d.recheckAt());
        assertEquals(2, DisruptionStatus.currentHealthy(pods, d, NOW), "p0 is not counted healthy");
        ObjectNode out =
                DisruptionStatus.updated(
                                pdb, 2, DisruptionStatus.expectation(pdb, pods, Map.of()), d, NOW)
                        .orElseThrow();
        assertEquals(1, out.at("/status/disruptedPods").size());
        // later, p0's entry has expired too
        Disrupted later = DisruptionStatus.disrupted(out, pods, NOW.plusSeconds(121));
        assertTrue(later.pods().isEmpty());
        assertNull(later.recheckAt());
    }

    @Test
    void podsBeingDeletedAreNeitherHealthyNorPending() {
        ObjectNode deleting = pod("p0", true, null);
        ((ObjectNode) deleting.get("metadata")).put("deletionTimestamp", "2026-03-04T05:06:00Z");
        ObjectNode pdb = budget("'minAvailable':1");
        pdb.putObject("status").putObject("disruptedPods").put("p0", "2026-03-04T05:06:00Z");
        Disrupted d = DisruptionStatus.disrupted(pdb, List.of(deleting), NOW);
        assertTrue(d.pods().isEmpty());
        assertEquals(0, DisruptionStatus.currentHealthy(List.of(deleting), d, NOW));
    }

    @Test
    void theFailSafeStatusAllowsNothingWithSyncFailed() {
        ObjectNode pdb = budget("'maxUnavailable':1");
        pdb.putObject("status").put("disruptionsAllowed", 3).put("observedGeneration", 1);
        ObjectNode out = DisruptionStatus.failSafe(pdb, "found no controllers for pod \"p0\"", NOW);
        assertEquals(0, out.at("/status/disruptionsAllowed").asInt());
        JsonNode c = out.at("/status/conditions/0");
        assertEquals("False", c.get("status").asText());
        assertEquals("SyncFailed", c.get("reason").asText());
        assertEquals("found no controllers for pod \"p0\"", c.get("message").asText());
        assertEquals(1, c.get("observedGeneration").asLong());
    }

    @Test
    void selectorsSelectAsPolicyV1Does() {
        ObjectNode web = pod("p", true, null);
        assertTrue(DisruptionStatus.selects(budget("'minAvailable':1"), web));
        ObjectNode empty = obj("{'metadata':{'name':'e','namespace':'ns'},'spec':{'selector':{}}}");
        assertTrue(DisruptionStatus.selects(empty, web), "an empty selector selects every pod");
        ObjectNode absent = obj("{'metadata':{'name':'a','namespace':'ns'},'spec':{}}");
        assertFalse(DisruptionStatus.selects(absent, web), "no selector selects nothing");
        ObjectNode other =
                obj("{'metadata':{'name':'o','namespace':'other'},'spec':{'selector':{}}}");
        assertFalse(DisruptionStatus.selects(other, web), "only its own namespace");
        ObjectNode invalid =
                obj(
                        "{'metadata':{'name':'i','namespace':'ns'},'spec':{'selector':"
                                + "{'matchExpressions':[{'key':'app','operator':'Near'}]}}}");
        assertFalse(DisruptionStatus.selects(invalid, web));
    }

    @ParameterizedTest(name = "{0} of {1}, round up {2} = {3}")
    @CsvSource({
        "'\"50%\"',7,true,4",
        "'\"50%\"',7,false,3",
        "'3',7,true,3",
        "'\"0%\"',7,true,0",
        "'\"100%\"',5,false,5"
    })
    void intOrPercentScalesAsApimachinery(String value, int total, boolean up, int expected) {
        assertEquals(expected, IntOrPercent.scaled(obj("{'v':" + value + "}").get("v"), total, up));
    }

    @Test
    void aStringThatIsNoPercentageIsRefused() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> IntOrPercent.scaled(obj("{'v':'5'}").get("v"), 10, true));
        assertEquals(
                "invalid value for IntOrString: invalid type: string is not a percentage",
                e.getMessage());
    }
}
