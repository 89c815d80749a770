package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST pods/{name}/eviction} against PodDisruptionBudgets that the disruption controller
 * keeps: every answer kube gives (201, 400, 404, 405, 429, 500, dry run), what an eviction does to
 * the pod and the budget, and the budget's status as pods turn Ready. One server for all cases;
 * each case has its own namespace.
 */
class EvictionIT {

    private static final String SUCCESS =
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
                    + "\"status\":\"Success\",\"code\":201}";
    private static final String VIOLATES =
            "Cannot evict pod as it would violate the pod's disruption budget.";
    private static final AtomicInteger names = new AtomicInteger();

    /** A stale DisruptionTarget condition is reset after 3 s here (kube: 2 min). */
    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s ->
                            s.withConfig(
                                    "kubepekko.controllers.disruption-controller"
                                            + ".stale-pod-disruption-timeout = 3s"));

    private static String newNamespace() {
        String ns = "evict-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String pods(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    private static String budgets(String ns) {
        return "/apis/policy/v1/namespaces/" + ns + "/poddisruptionbudgets";
    }

    /**
     * A pod of app=web, Running and Ready as {@code ready} says (its status written as a kubelet
     * would).
     */
    private static void runningPod(String ns, String name, boolean ready, String owner) {
        api.create(
                pods(ns),
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                                + name
                                + "','labels':{'app':'web'}"
                                + (owner == null ? "" : ",'ownerReferences':[" + owner + "]")
                                + "},'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
        setReady(ns, name, ready);
    }

    private static void setReady(String ns, String name, boolean ready) {
        ObjectNode pod = api.get(pods(ns) + "/" + name).assertCode(200).json();
        ObjectNode status = pod.putObject("status");
        status.put("phase", "Running");
        status.putArray("conditions")
                .addObject()
                .put("type", "Ready")
                .put("status", ready ? "True" : "False");
        api.put(pods(ns) + "/" + name + "/status", pod.toString()).assertCode(200);
    }

    private static void budget(String ns, String name, String spec) {
        api.create(
                budgets(ns),
                json(
                        "{'apiVersion':'policy/v1','kind':'PodDisruptionBudget','metadata':{'name':'"
                                + name
                                + "'},'spec':{"
                                + spec
                                + ",'selector':{'matchLabels':{'app':'web'}}}}"));
    }

    private static JsonNode awaitStatus(String ns, String name, String field, int value) {
        JsonNode[] last = new JsonNode[1];
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> {
                            last[0] = api.get(budgets(ns) + "/" + name).assertCode(200).json();
                            return last[0].at("/status/observedGeneration").asLong() == 1
                                    && last[0].at("/status/" + field).asInt(-1) == value;
                        });
        return last[0].get("status");
    }

    private static String eviction(String name) {
        return json(
                "{'apiVersion':'policy/v1','kind':'Eviction','metadata':{'name':'" + name + "'}}");
    }

    private static Response evict(String ns, String pod, String body) {
        return api.post(pods(ns) + "/" + pod + "/eviction", body);
    }

    @Test
    void aPodNoBudgetGuardsIsDeletedAndTheAnswerIsKubesSuccess() {
        String ns = newNamespace();
        runningPod(ns, "p", true, null);
        Response r = evict(ns, "p", eviction("p")).assertCode(201);
        assertEquals(SUCCESS, r.text());
        api.get(pods(ns) + "/p").assertCode(404);
    }

    @Test
    void badRequestsAreRefusedAsKubeRefusesThem() {
        String ns = newNamespace();
        runningPod(ns, "p", true, null);
        evict(ns, "p", eviction("q"))
                .assertStatus(
                        400, "BadRequest", "name in URL does not match name in Eviction object");
        evict(ns, "nope", eviction("nope"))
                .assertStatus(404, "NotFound", "pods \"nope\" not found");
        api.get(pods(ns) + "/p/eviction")
                .assertStatus(
                        405,
                        "MethodNotAllowed",
                        "the server does not allow this method on the requested resource");
        evict(
                        ns,
                        "p",
                        json(
                                "{'apiVersion':'policy/v1','kind':'Eviction','metadata':{'name':'p',"
                                        + "'namespace':'elsewhere'}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the namespace of the provided object does not match the namespace sent on"
                                + " the request");
        evict(ns, "p", json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'p'}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "ConfigMap in version \"v1\" cannot be handled as a Eviction: converting"
                                + " (v1.ConfigMap) to (policy.Eviction): unknown conversion");
        evict(ns, "p", json("{'apiVersion':'policy/v1','kind':'Pod','metadata':{'name':'p'}}"))
                .assertCode(400);
        api.get(pods(ns) + "/p").assertCode(200);
    }

    @Test
    void aBudgetThatAllowsNoDisruptionRefuses429WithTheBudgetAsCause() {
        String ns = newNamespace();
        runningPod(ns, "a", true, null);
        runningPod(ns, "b", true, null);
        budget(ns, "web", "'minAvailable':2");
        awaitStatus(ns, "web", "currentHealthy", 2);
        Response r = evict(ns, "a", eviction("a"));
        ObjectNode status = r.assertStatus(429, "TooManyRequests", VIOLATES);
        assertEquals("DisruptionBudget", status.at("/details/causes/0/reason").asText());
        assertEquals(
                "The disruption budget web needs 2 healthy pods and has 2 currently",
                status.at("/details/causes/0/message").asText());
        // kube sends Retry-After only with a suggested delay, which this refusal has not
        assertFalse(r.header("Retry-After").isPresent());
        api.get(pods(ns) + "/a").assertCode(200);
    }

    @Test
    void anAllowedEvictionIsCountedInTheBudgetThenTheNextOneIsRefused() {
        String ns = newNamespace();
        runningPod(ns, "a", true, null);
        runningPod(ns, "b", true, null);
        budget(ns, "web", "'minAvailable':1");
        awaitStatus(ns, "web", "disruptionsAllowed", 1);

        assertEquals(SUCCESS, evict(ns, "a", eviction("a")).assertCode(201).text());
        api.get(pods(ns) + "/a").assertCode(404);
        // the controller catches up: one pod left, none to spare
        JsonNode status = awaitStatus(ns, "web", "expectedPods", 1);
        assertEquals(1, status.get("currentHealthy").asInt());

        evict(ns, "b", eviction("b")).assertStatus(429, "TooManyRequests", VIOLATES);
        api.get(pods(ns) + "/b").assertCode(200);
    }

    @Test
    void aPodTwoBudgetsGuardIsRefused500AsKubeDoes() {
        String ns = newNamespace();
        runningPod(ns, "a", true, null);
        runningPod(ns, "b", true, null);
        // pods without a controller: a percentage cannot be scaled, so none are expected
        budget(ns, "web", "'maxUnavailable':'50%'");
        JsonNode status = awaitStatus(ns, "web", "currentHealthy", 2);
        assertEquals(0, status.get("expectedPods").asInt());
        assertEquals(0, status.get("disruptionsAllowed").asInt());
        budget(ns, "two", "'minAvailable':1");
        evict(ns, "a", eviction("a"))
                .assertStatus(
                        500,
                        "",
                        "This pod has more than one PodDisruptionBudget, which the eviction"
                                + " subresource does not support.");
        api.get(pods(ns) + "/a").assertCode(200);
    }

    @Test
    void anEvictedPodOnANodeIsMarkedThenDeletedGracefullyAndTheGrantIsCounted() {
        String ns = newNamespace();
        for (String name : new String[] {"a", "b"}) {
            api.create(
                    pods(ns),
                    json(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                                    + name
                                    + "','labels':{'app':'web'}},'spec':{'nodeName':'n1',"
                                    + "'containers':[{'name':'c','image':'nginx:1.27'}]}}"));
            setReady(ns, name, true);
        }
        budget(ns, "web", "'minAvailable':1");
        awaitStatus(ns, "web", "disruptionsAllowed", 1);
        assertEquals(SUCCESS, evict(ns, "a", eviction("a")).assertCode(201).text());
        // written before the delete: the allowance is spent at once
        assertEquals(
                0, api.get(budgets(ns) + "/web").json().at("/status/disruptionsAllowed").asInt());
        ObjectNode pod = api.get(pods(ns) + "/a").assertCode(200).json();
        assertTrue(pod.at("/metadata/deletionTimestamp").isTextual(), pod.toString());
        JsonNode target = null;
        for (JsonNode c : pod.at("/status/conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                target = c;
            }
        }
        assertEquals("True", target.get("status").asText(), pod.toString());
        assertEquals("EvictionByEvictionAPI", target.get("reason").asText());
        assertEquals("Eviction API: evicting", target.get("message").asText());
        evict(ns, "b", eviction("b")).assertStatus(429, "TooManyRequests", VIOLATES);
    }

    /**
     * kube's stale-pod-disruption clean-up: a pod an eviction marked but that is not being deleted
     * (its delete failed) has the condition reset to False once the timeout passed; one the kubelet
     * marked keeps it.
     */
    @Test
    void aStaleDisruptionTargetIsResetToFalseButNotTheKubeletsOne() {
        String ns = newNamespace();
        runningPod(ns, "kubelets", true, null);
        runningPod(ns, "evicted", true, null);
        markDisruptionTarget(ns, "kubelets", "TerminationByKubelet");
        markDisruptionTarget(ns, "evicted", "EvictionByEvictionAPI");
        JsonNode[] reset = new JsonNode[1];
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> {
                            reset[0] = disruptionTarget(ns, "evicted");
                            return reset[0].path("status").asText().equals("False");
                        });
        assertFalse(reset[0].has("reason"), reset[0].toString());
        assertFalse(reset[0].has("message"), reset[0].toString());
        assertEquals("True", disruptionTarget(ns, "kubelets").path("status").asText());
        assertEquals("Running", api.get(pods(ns) + "/evicted").json().at("/status/phase").asText());
    }

    private static void markDisruptionTarget(String ns, String name, String reason) {
        ObjectNode pod = api.get(pods(ns) + "/" + name).assertCode(200).json();
        ((ArrayNode) pod.at("/status/conditions"))
                .addObject()
                .put("type", "DisruptionTarget")
                .put("status", "True")
                .put("reason", reason)
                .put("message", "Eviction API: evicting")
                .put("lastTransitionTime", Instant.now().toString());
        api.put(pods(ns) + "/" + name + "/status", pod.toString()).assertCode(200);
    }

    private static JsonNode disruptionTarget(String ns, String name) {
        for (JsonNode c : api.get(pods(ns) + "/" + name).json().at("/status/conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                return c;
            }
        }
        throw new AssertionError("no DisruptionTarget condition on " + name);
    }

    @Test
    void aDryRunEvictsNothingAndCountsNothing() {
        String ns = newNamespace();
        runningPod(ns, "a", true, null);
        runningPod(ns, "b", true, null);
        budget(ns, "web", "'minAvailable':1");
        awaitStatus(ns, "web", "disruptionsAllowed", 1);
        String rv = api.get(budgets(ns) + "/web").json().at("/metadata/resourceVersion").asText();

        assertEquals(
                SUCCESS,
                api.post(pods(ns) + "/a/eviction?dryRun=All", eviction("a"))
                        .assertCode(201)
                        .text());
        assertEquals(
                SUCCESS,
                evict(
                                ns,
                                "a",
                                json(
                                        "{'apiVersion':'policy/v1','kind':'Eviction','metadata':{'name':'a'},"
                                                + "'deleteOptions':{'dryRun':['All']}}"))
                        .assertCode(201)
                        .text());
        ObjectNode pod = api.get(pods(ns) + "/a").assertCode(200).json();
        assertFalse(pod.at("/metadata/deletionTimestamp").isTextual());
        JsonNode budget = api.get(budgets(ns) + "/web").json();
        assertEquals(rv, budget.at("/metadata/resourceVersion").asText());
        assertEquals(1, budget.at("/status/disruptionsAllowed").asInt());
        assertTrue(budget.at("/status/disruptedPods").isMissingNode());
    }

    @Test
    void theControllerCountsPodsAsTheyTurnReadyAgainstTheirControllersScale() {
        String ns = newNamespace();
        ObjectNode rs =
                api.create(
                        "/apis/apps/v1/namespaces/" + ns + "/replicasets",
                        json(
                                "{'apiVersion':'apps/v1','kind':'ReplicaSet','metadata':{'name':'rs'},"
                                        + "'spec':{'replicas':4,'selector':{'matchLabels':{'app':'web'}},"
                                        + "'template':{'metadata':{'labels':{'app':'web'}},"
                                        + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}}}"));
        String owner =
                json(
                        "{'apiVersion':'apps/v1','kind':'ReplicaSet','name':'rs','uid':'"
                                + rs.at("/metadata/uid").asText()
                                + "','controller':true}");
        runningPod(ns, "a", false, owner);
        runningPod(ns, "b", false, owner);
        runningPod(ns, "c", false, owner);
        budget(ns, "web", "'maxUnavailable':1");
        JsonNode status = awaitStatus(ns, "web", "expectedPods", 4);
        assertEquals(3, status.get("desiredHealthy").asInt());
        assertEquals(0, status.get("currentHealthy").asInt());
        assertEquals("InsufficientPods", status.at("/conditions/0/reason").asText());

        setReady(ns, "a", true);
        setReady(ns, "b", true);
        awaitStatus(ns, "web", "currentHealthy", 2);
        setReady(ns, "c", true);
        status = awaitStatus(ns, "web", "currentHealthy", 3);
        assertEquals(0, status.get("disruptionsAllowed").asInt());

        // scaled down to 3, one pod may go (seen at the next change of a pod, as kube's
        // controller sees it)
        api.patch(
                        "/apis/apps/v1/namespaces/" + ns + "/replicasets/rs",
                        "application/merge-patch+json",
                        json("{'spec':{'replicas':3}}"))
                .assertCode(200);
        api.patch(
                        pods(ns) + "/a",
                        "application/merge-patch+json",
                        json("{'metadata':{'labels':{'touched':'yes'}}}"))
                .assertCode(200);
        status = awaitStatus(ns, "web", "disruptionsAllowed", 1);
        assertEquals(3, status.get("expectedPods").asInt());
        assertEquals("True", status.at("/conditions/0/status").asText());
        assertEquals("SufficientPods", status.at("/conditions/0/reason").asText());
    }

    @Test
    void aControllerWithoutScaleFailsTheSyncWithKubesFailSafeStatus() {
        String ns = newNamespace();
        // a controller that exists (the garbage collector leaves its pods) but has no scale
        ObjectNode owner =
                api.create(
                        "/api/v1/namespaces/" + ns + "/configmaps",
                        json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'owner'}}"));
        runningPod(
                ns,
                "a",
                true,
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','name':'owner','uid':'"
                                + owner.at("/metadata/uid").asText()
                                + "','controller':true}"));
        budget(ns, "web", "'maxUnavailable':1");
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                api.get(budgets(ns) + "/web")
                                        .json()
                                        .at("/status/conditions/0/reason")
                                        .asText()
                                        .equals("SyncFailed"));
        JsonNode status = api.get(budgets(ns) + "/web").json().get("status");
        assertEquals(0, status.get("disruptionsAllowed").asInt());
        assertEquals("False", status.at("/conditions/0/status").asText());
        assertEquals(
                "configmaps does not implement the scale subresource",
                status.at("/conditions/0/message").asText());
        evict(ns, "a", eviction("a")).assertStatus(429, "TooManyRequests", VIOLATES);
    }

    @Test
    void anUnreadyPodIsEvictedWithoutSpendingAHealthyBudget() {
        String ns = newNamespace();
        runningPod(ns, "a", true, null);
        runningPod(ns, "b", true, null);
        runningPod(ns, "sick", false, null);
        budget(ns, "web", "'minAvailable':2");
        awaitStatus(ns, "web", "currentHealthy", 2);
        assertEquals(SUCCESS, evict(ns, "sick", eviction("sick")).assertCode(201).text());
        api.get(pods(ns) + "/sick").assertCode(404);
        JsonNode budget = api.get(budgets(ns) + "/web").json();
        assertTrue(budget.at("/status/disruptedPods").isMissingNode());
    }
}
