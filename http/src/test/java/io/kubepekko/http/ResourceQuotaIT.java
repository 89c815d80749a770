package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.http.server.ApiServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ResourceQuota admission plugin and the quota controller through the API: a pod beyond a quota
 * is refused with kube's 403, a pod that does not state what the quota tracks too, a dry run is
 * checked and charges nothing, {@code status.hard} and {@code status.used} follow creates and
 * deletes, a quota created after the objects it counts counts them exactly (their informer starts
 * only then), and 64 concurrent writers in one namespace never exceed the quota together.
 */
class ResourceQuotaIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "quota-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String pods(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    private static String quotaPath(String ns) {
        return "/api/v1/namespaces/" + ns + "/resourcequotas/q";
    }

    private static void quota(String ns, String hard) {
        api.create(
                "/api/v1/namespaces/" + ns + "/resourcequotas",
                json(
                        "{'apiVersion':'v1','kind':'ResourceQuota','metadata':{'name':'q'},"
                                + "'spec':{'hard':"
                                + hard
                                + "}}"));
    }

    private static String pod(String name, String resources) {
        return json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "'},'spec':{'containers':[{'name':'app','image':'nginx',"
                        + "'resources':"
                        + resources
                        + "}]}}");
    }

    /**
     * Waits until the quota, with the status the controller wrote, reached the informer of the
     * server that admits the namespace's pods: a dry-run create (which charges nothing) of a pod
     * asking {@code cpu} exceeds it (until the status is there, kube's {@code status unknown} 403).
     */
    private static void awaitQuotaEnforced(String ns, String cpu) {
        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.post(
                                                pods(ns) + "?dryRun=All",
                                                pod("probe", "{'requests':{'cpu':'" + cpu + "'}}"))
                                        .text()
                                        .contains("exceeded quota"));
    }

    private static void awaitStatus(String ns, String hard, String used) {
        await().atMost(DEADLINE)
                .untilAsserted(
                        () -> {
                            JsonNode status =
                                    api.get(quotaPath(ns)).assertCode(200).json().path("status");
                            assertEquals(TestApiServer.obj(hard), status.path("hard"));
                            assertEquals(TestApiServer.obj(used), status.path("used"));
                        });
    }

    @Test
    void aPodBeyondTheQuotaIsRefusedWithKubesMessageAndStatusFollowsCreatesAndDeletes() {
        String ns = newNamespace();
        quota(ns, "{'pods':'2','requests.cpu':'1'}");
        awaitQuotaEnforced(ns, "2");
        api.post(pods(ns) + "?dryRun=All", pod("big", "{'requests':{'cpu':'2'}}"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"big\" is forbidden: exceeded quota: q, requested:"
                                + " requests.cpu=2, used: requests.cpu=0, limited: requests.cpu=1");
        api.post(pods(ns), pod("bare", "{}"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"bare\" is forbidden: failed quota: q: must specify requests.cpu"
                                + " for: app");

        api.create(pods(ns), pod("p1", "{'requests':{'cpu':'500m'}}"));
        // a dry run is checked and charges nothing: p2 still fits after it
        api.post(pods(ns) + "?dryRun=All", pod("p2", "{'requests':{'cpu':'500m'}}"))
                .assertCode(201);
        api.create(pods(ns), pod("p2", "{'requests':{'cpu':'500m'}}"));
        api.post(pods(ns), pod("p3", "{'requests':{'cpu':'100m'}}"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"p3\" is forbidden: exceeded quota: q, requested:"
                                + " pods=1,requests.cpu=100m, used: pods=2,requests.cpu=1,"
                                + " limited: pods=2,requests.cpu=1");
        awaitStatus(ns, "{'pods':'2','requests.cpu':'1'}", "{'pods':'2','requests.cpu':'1'}");

        api.delete(pods(ns) + "/p1").assertCode(200);
        awaitStatus(ns, "{'pods':'2','requests.cpu':'1'}", "{'pods':'1','requests.cpu':'500m'}");
        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.post(pods(ns), pod("p3", "{'requests':{'cpu':'100m'}}")).code()
                                        == 201);
        awaitStatus(ns, "{'pods':'2','requests.cpu':'1'}", "{'pods':'2','requests.cpu':'600m'}");
    }

    /**
     * The serviceaccounts controller's create passes the quota admission as a user's does (kube's
     * controllers are the API's clients): its re-create of {@code default} beyond the quota is
     * refused, and retried until the quota allows it.
     */
    @Test
    void aControllersCreateIsHeldByTheQuotaAsAUsersIs() {
        String ns = newNamespace();
        String account = "/api/v1/namespaces/" + ns + "/serviceaccounts/default";
        await().atMost(DEADLINE).until(() -> api.get(account).code() == 200);
        quota(ns, "{'count/serviceaccounts':'0'}");
        awaitStatus(ns, "{'count/serviceaccounts':'0'}", "{'count/serviceaccounts':'1'}");

        api.delete(account).assertCode(200);
        awaitStatus(ns, "{'count/serviceaccounts':'0'}", "{'count/serviceaccounts':'0'}");
        assertEquals(404, api.get(account).code());

        api.patch(
                        quotaPath(ns),
                        "application/merge-patch+json",
                        json("{'spec':{'hard':{'count/serviceaccounts':'1'}}}"))
                .assertCode(200);
        await().atMost(DEADLINE).until(() -> api.get(account).code() == 200);
    }

    private static String deployment(String name) {
        return json(
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "'},'spec':{'selector':{'matchLabels':{'app':'a'}},"
                        + "'template':{'metadata':{'labels':{'app':'a'}},"
                        + "'spec':{'containers':[{'name':'app','image':'nginx'}]}}}}");
    }

    @Test
    void anyResourceIsCountedAsCountResourceDotGroup() {
        String ns = newNamespace();
        String deployments = "/apis/apps/v1/namespaces/" + ns + "/deployments";
        quota(ns, "{'count/deployments.apps':'1'}");
        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.post(deployments + "?dryRun=All", deployment("probe")).code()
                                        == 201);
        // Once the quota's status reached the admitting server, a 403 "status unknown" until its
        // informer of deployments (started when the quota was created) has listed.
        await().atMost(DEADLINE).until(() -> api.post(deployments, deployment("d1")).code() == 201);
        // Once the quota has reached the admitting server's informer, d2 is one too many.
        await().atMost(DEADLINE)
                .until(() -> api.post(deployments + "?dryRun=All", deployment("d2")).code() == 403);
        api.post(deployments, deployment("d2"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "deployments.apps \"d2\" is forbidden: exceeded quota: q, requested:"
                                + " count/deployments.apps=1, used: count/deployments.apps=1,"
                                + " limited: count/deployments.apps=1");
        awaitStatus(ns, "{'count/deployments.apps':'1'}", "{'count/deployments.apps':'1'}");
    }

    private static String configMaps(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static String configMap(String name) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'k':'v'}}");
    }

    private static boolean followsConfigMaps(ApiServer node) {
        return node.quotaFollowed().contains(new GroupResource("", "configmaps"));
    }

    @Test
    void configMapsAreFollowedOnlyOnceAQuotaCountsThemAndThenCountedExactly() {
        String ns = newNamespace();
        api.create(configMaps(ns), configMap("a"));
        api.create(configMaps(ns), configMap("b"));
        // A quota on pods elsewhere: once every server follows pods for it, none follows
        // configmaps, which no quota names.
        quota(newNamespace(), "{'count/pods':'1'}");
        for (ApiServer node : api.servers()) {
            await().atMost(DEADLINE)
                    .until(() -> node.quotaFollowed().contains(new GroupResource("", "pods")));
            assertFalse(followsConfigMaps(node), node.url() + ": " + node.quotaFollowed());
        }

        quota(ns, "{'count/configmaps':'2'}");
        awaitStatus(ns, "{'count/configmaps':'2'}", "{'count/configmaps':'2'}");
        for (ApiServer node : api.servers()) {
            await().atMost(DEADLINE).until(() -> followsConfigMaps(node));
        }
        // Until the admitting server's informer has listed configmaps (and its quota informer
        // has the status), a dry run is 403 "status unknown" (or admitted: no status.hard yet).
        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.post(configMaps(ns) + "?dryRun=All", configMap("c"))
                                        .text()
                                        .contains("exceeded quota"));
        api.post(configMaps(ns), configMap("c"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "configmaps \"c\" is forbidden: exceeded quota: q, requested:"
                                + " count/configmaps=1, used: count/configmaps=2,"
                                + " limited: count/configmaps=2");

        api.delete(configMaps(ns) + "/a").assertCode(200);
        awaitStatus(ns, "{'count/configmaps':'2'}", "{'count/configmaps':'1'}");
        await().atMost(DEADLINE)
                .until(() -> api.post(configMaps(ns), configMap("c")).code() == 201);
        awaitStatus(ns, "{'count/configmaps':'2'}", "{'count/configmaps':'2'}");
    }

    @Test
    void sixtyFourConcurrentWritersNeverExceedTheQuota() throws Exception {
        String ns = newNamespace();
        quota(ns, "{'pods':'10','requests.cpu':'100'}");
        awaitQuotaEnforced(ns, "200");
        ExecutorService writers = Executors.newFixedThreadPool(64);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String name = "w" + i;
            answers.add(
                    writers.submit(
                            () -> {
                                start.await();
                                return api.post(pods(ns), pod(name, "{'requests':{'cpu':'250m'}}"));
                            }));
        }
        start.countDown();
        int created = 0;
        for (Future<Response> f : answers) {
            Response r = f.get(60, TimeUnit.SECONDS);
            if (r.code() == 201) {
                created++;
            } else {
                assertEquals(403, r.code(), r.text());
                assertTrue(
                        r.json().path("message").asText().contains("exceeded quota: q"), r.text());
            }
        }
        writers.shutdown();
        assertEquals(10, created);
        assertEquals(10, api.get(pods(ns)).assertCode(200).json().path("items").size());
        awaitStatus(
                ns, "{'pods':'10','requests.cpu':'100'}", "{'pods':'10','requests.cpu':'2500m'}");
    }
}
