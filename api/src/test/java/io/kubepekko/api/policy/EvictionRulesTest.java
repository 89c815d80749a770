package io.kubepekko.api.policy;

import static io.kubepekko.api.policy.DisruptionStatusTest.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.Preconditions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The eviction subresource's decisions, as kube's {@code EvictionREST} makes them. */
class EvictionRulesTest {

    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

    private static ObjectNode pod(String phase, boolean ready, boolean deleting) {
        return obj(
                "{'metadata':{'name':'p','namespace':'ns','uid':'u1','resourceVersion':'7',"
                        + "'labels':{'app':'web'}"
                        + (deleting ? ",'deletionTimestamp':'2026-03-04T05:00:00Z'" : "")
                        + "},'status':{'phase':'"
                        + phase
                        + "','conditions':[{'type':'Ready','status':'"
                        + (ready ? "True" : "False")
                        + "'}]}}");
    }

    private static ObjectNode budget(String name, String status) {
        return obj(
                "{'metadata':{'name':'"
                        + name
                        + "','namespace':'ns','generation':1,'resourceVersion':'5'},"
                        + "'spec':{'minAvailable':1,'selector':{'matchLabels':{'app':'web'}}},"
                        + "'status':{"
                        + status
                        + "}}");
    }

    @ParameterizedTest(name = "{0} ready={1} deleting={2}: ignore={3} enforce={4}")
    @CsvSource({
        "Running,true,false,false,true",
        "Pending,false,false,true,true",
        "Succeeded,false,false,true,false",
        "Failed,false,false,true,false",
        "Running,true,true,true,false"
    })
    void terminalPendingAndTerminatingPodsIgnoreBudgets(
            String phase, boolean ready, boolean deleting, boolean ignore, boolean enforce) {
        ObjectNode pod = pod(phase, ready, deleting);
        assertEquals(ignore, EvictionRules.canIgnoreBudget(pod));
        assertEquals(enforce, EvictionRules.enforceResourceVersion(pod));
    }

    @Test
    void noMatchingBudgetMeansDelete() {
        ObjectNode other =
                obj(
                        "{'metadata':{'name':'x','namespace':'ns'},"
                                + "'spec':{'selector':{'matchLabels':{'app':'db'}}}}");
        assertInstanceOf(
                EvictionRules.NoBudget.class,
                EvictionRules.plan(pod("Running", true, false), List.of(other)));
    }

    @Test
    void twoMatchingBudgetsAreKubes500() {
        EvictionRules.Plan plan =
                EvictionRules.plan(
                        pod("Running", true, false),
                        List.of(budget("a", "'disruptionsAllowed':1"), budget("b", "")));
        ApiStatus s = ((EvictionRules.TooManyBudgets) plan).status();
        assertEquals(500, s.code());
        assertNull(s.reason());
        assertEquals(
                "This pod has more than one PodDisruptionBudget, which the eviction subresource"
                        + " does not support.",
                s.message());
    }

    @Test
    void anUnreadyPodOfAHealthyBudgetIsDeletedWithoutDecrement() {
        ObjectNode healthy = budget("b", "'currentHealthy':2,'desiredHealthy':1");
        assertEquals(
                new EvictionRules.DeleteUnhealthy("b"),
                EvictionRules.plan(pod("Running", false, false), List.of(healthy)));
        ObjectNode unhealthy = budget("b", "'currentHealthy':0,'desiredHealthy':1");
        assertInstanceOf(
                EvictionRules.Decrement.class,
                EvictionRules.plan(pod("Running", false, false), List.of(unhealthy)));
        ObjectNode alwaysAllow = unhealthy.deepCopy();
        ((ObjectNode) alwaysAllow.get("spec")).put("unhealthyPodEvictionPolicy", "AlwaysAllow");
        assertEquals(
                new EvictionRules.DeleteUnhealthy("b"),
                EvictionRules.plan(pod("Running", false, false), List.of(alwaysAllow)));
        assertInstanceOf(
                EvictionRules.Decrement.class,
                EvictionRules.plan(pod("Running", true, false), List.of(alwaysAllow)),
                "a Ready pod is guarded whatever the policy");
    }

    @Test
    void anExhaustedBudgetIs429WithTheBudgetAsCauseAndNoRetryAfter() {
        EvictionRules.Check c =
                EvictionRules.checkAndDecrement(
                        budget(
                                "b",
                                "'observedGeneration':1,'disruptionsAllowed':0,"
                                        + "'currentHealthy':1,'desiredHealthy':1"),
                        "p",
                        false,
                        NOW);
        ApiStatus s = ((EvictionRules.Refused) c).status();
        assertEquals(429, s.code());
        assertEquals("TooManyRequests", s.reason());
        assertEquals(
                "Cannot evict pod as it would violate the pod's disruption budget.", s.message());
        assertEquals("DisruptionBudget", s.details().causes().get(0).reason());
        assertEquals(
                "The disruption budget b needs 1 healthy pods and has 1 currently",
                s.details().causes().get(0).message());
        assertNull(s.details().retryAfterSeconds());
    }

    @Test
    void aBudgetTheControllerHasNotSeenIs429RetryAfter10() {
        ObjectNode stale = budget("b", "'observedGeneration':0,'disruptionsAllowed':3");
        ApiStatus s =
                ((EvictionRules.Refused) EvictionRules.checkAndDecrement(stale, "p", false, NOW))
                        .status();
        assertEquals(429, s.code());
        assertEquals(10, s.details().retryAfterSeconds());
        assertEquals(
                "The disruption budget b is still being processed by the server.",
                s.details().causes().get(0).message());
    }

    @Test
    void negativeOrOverfullBudgetsAre403() {
        ApiStatus negative =
                ((EvictionRules.Refused)
                                EvictionRules.checkAndDecrement(
                                        budget(
                                                "b",
                                                "'observedGeneration':1,'disruptionsAllowed':-1"),
                                        "p",
                                        false,
                                        NOW))
                        .status();
        assertEquals(403, negative.code());
        assertEquals(
                "poddisruptionbudget.policy \"b\" is forbidden: pdb disruptions allowed is negative",
                negative.message());
    }

    @Test
    void aGrantDecrementsRecordsThePodAndFlipsTheConditionAtZero() {
        ObjectNode b =
                budget(
                        "b",
                        "'observedGeneration':1,'disruptionsAllowed':1,'currentHealthy':2,"
                                + "'desiredHealthy':1,'conditions':[{'type':'DisruptionAllowed',"
                                + "'status':'True','observedGeneration':1,"
                                + "'lastTransitionTime':'2026-03-04T05:00:00Z',"
                                + "'reason':'SufficientPods','message':''}]");
        ObjectNode granted =
                ((EvictionRules.Granted) EvictionRules.checkAndDecrement(b, "p", false, NOW))
                        .budget();
        JsonNode status = granted.get("status");
        assertEquals(0, status.get("disruptionsAllowed").asInt());
        assertEquals("2026-03-04T05:06:07Z", status.at("/disruptedPods/p").asText());
        assertEquals("False", status.at("/conditions/0/status").asText());
        assertEquals("InsufficientPods", status.at("/conditions/0/reason").asText());
        assertEquals(
                "2026-03-04T05:06:07Z", status.at("/conditions/0/lastTransitionTime").asText());
        assertEquals(1, b.at("/status/disruptionsAllowed").asInt(), "the input is not changed");

        ObjectNode dry =
                ((EvictionRules.Granted) EvictionRules.checkAndDecrement(b, "p", true, NOW))
                        .budget();
        assertTrue(dry.at("/status/disruptedPods").isMissingNode(), "a dry run records nothing");
    }

    @Test
    void dryRunIsPropagatedFromTheRequestIntoTheDeleteOptions() {
        assertEquals(List.of("All"), EvictionRules.dryRun(List.of("All"), obj("{}")));
        assertEquals(List.of("All"), EvictionRules.dryRun(List.of(), obj("{'dryRun':['All']}")));
        assertEquals(
                List.of("All"), EvictionRules.dryRun(List.of("All"), obj("{'dryRun':['All']}")));
        assertEquals(List.of(), EvictionRules.dryRun(List.of(), obj("{}")));
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () ->
                                EvictionRules.dryRun(
                                        List.of("All"), obj("{'dryRun':['All','All']}")));
        assertEquals(400, e.status().code());
        assertEquals(
                "Non-matching dry-run options in request and content: [All] and [All All]",
                e.status().message());
    }

    @Test
    void theDisruptionTargetConditionIsAddedOnce() {
        ObjectNode marked = EvictionRules.withDisruptionTarget(pod("Running", true, false), NOW);
        JsonNode c = marked.at("/status/conditions/1");
        assertEquals("DisruptionTarget", c.get("type").asText());
        assertEquals("True", c.get("status").asText());
        assertEquals("EvictionByEvictionAPI", c.get("reason").asText());
        assertEquals("Eviction API: evicting", c.get("message").asText());
        assertTrue(c.get("lastProbeTime").isNull());
        ObjectNode again = EvictionRules.withDisruptionTarget(marked, NOW.plusSeconds(5));
        assertEquals(2, again.at("/status/conditions").size());
        assertEquals(
                "2026-03-04T05:06:07Z",
                again.at("/status/conditions/1/lastTransitionTime").asText());
    }

    @Test
    void preconditionsAreCheckedAgainstTheLatestPodInKubesWords() {
        ObjectNode pod = pod("Running", true, false);
        assertFalse(
                EvictionRules.preconditionFailure(pod, new Preconditions("u1", "7")).isPresent());
        assertEquals(
                "Operation cannot be fulfilled on Pod \"p\": the ResourceVersion in the"
                        + " precondition (6) does not match the ResourceVersion in record (7). The"
                        + " object might have been modified",
                EvictionRules.preconditionFailure(pod, new Preconditions(null, "6"))
                        .orElseThrow()
                        .message());
        assertEquals(
                409,
                EvictionRules.preconditionFailure(pod, new Preconditions("u0", null))
                        .orElseThrow()
                        .code());
    }
}
