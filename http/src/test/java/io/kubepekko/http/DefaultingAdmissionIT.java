package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The defaulting admission plugins kube-apiserver enables by default, through the API: Priority (a
 * pod's priority and preemption policy from its PriorityClass or the global default, the built-in
 * system classes, kube's 403 for an unknown class, a mismatched priority and a second global
 * default), DefaultTolerationSeconds (the two NoExecute tolerations of 300 s) and
 * DefaultStorageClass (a claim without a class gets the default one). Dry runs show the defaults
 * and store nothing.
 */
class DefaultingAdmissionIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final AtomicInteger names = new AtomicInteger();
    private static final String PRIORITY_CLASSES = "/apis/scheduling.k8s.io/v1/priorityclasses";
    private static final String STORAGE_CLASSES = "/apis/storage.k8s.io/v1/storageclasses";

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "defaulting-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String pods(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    private static String claims(String ns) {
        return "/api/v1/namespaces/" + ns + "/persistentvolumeclaims";
    }

    private static String pod(String name, String specFields) {
        return json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "'},'spec':{"
                        + specFields
                        + "'containers':[{'name':'app','image':'nginx'}]}}");
    }

    private static String priorityClass(String name, long value, String more) {
        return json(
                "{'apiVersion':'scheduling.k8s.io/v1','kind':'PriorityClass','metadata':{'name':'"
                        + name
                        + "'},'value':"
                        + value
                        + more
                        + "}");
    }

    /**
     * Waits until every server's informer has seen a change: as many dry-run creates in a row as
     * there are servers (they take turns) answer as {@code seen} says.
     */
    private static void awaitEveryServer(String path, String body, Predicate<Response> seen) {
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            for (int i = 0; i < api.servers().size(); i++) {
                                if (!seen.test(api.post(path + "?dryRun=All", body))) {
                                    return false;
                                }
                            }
                            return true;
                        });
    }

    private static Predicate<Response> priority(long expected) {
        return r -> r.code() == 201 && r.json().at("/spec/priority").asLong(-1) == expected;
    }

    @Test
    void theSystemPriorityClassesExistFromTheStart() {
        ObjectNode node =
                api.get(PRIORITY_CLASSES + "/system-node-critical").assertCode(200).json();
        assertEquals(2_000_001_000L, node.path("value").asLong());
        assertEquals("PreemptLowerPriority", node.path("preemptionPolicy").asText());
        assertEquals(
                "Used for system critical pods that must not be moved from their current node.",
                node.path("description").asText());
        ObjectNode cluster =
                api.get(PRIORITY_CLASSES + "/system-cluster-critical").assertCode(200).json();
        assertEquals(2_000_000_000L, cluster.path("value").asLong());
        assertFalse(cluster.path("globalDefault").asBoolean());
    }

    @Test
    void aPodGetsThePriorityAndPolicyOfItsClassAndSystemClassesWorkInAnyNamespace() {
        String ns = newNamespace();
        api.create(
                PRIORITY_CLASSES, priorityClass("batch-never", 100, ",'preemptionPolicy':'Never'"));
        String named = pod("batch", "'priorityClassName':'batch-never',");
        awaitEveryServer(pods(ns), named, priority(100));

        ObjectNode created = api.create(pods(ns), named);
        assertEquals(100, created.at("/spec/priority").asLong());
        assertEquals("Never", created.at("/spec/preemptionPolicy").asText());
        ObjectNode stored = api.get(pods(ns) + "/batch").assertCode(200).json();
        assertEquals(100, stored.at("/spec/priority").asLong());
        assertEquals("Never", stored.at("/spec/preemptionPolicy").asText());

        ObjectNode critical =
                api.create(
                        pods(ns),
                        pod("critical", "'priorityClassName':'system-cluster-critical',"));
        assertEquals(2_000_000_000L, critical.at("/spec/priority").asLong());
        assertEquals("PreemptLowerPriority", critical.at("/spec/preemptionPolicy").asText());

        // an update that leaves the priority out keeps it (kube's plugin copies it over)
        ObjectNode update = stored.deepCopy();
        ((ObjectNode) update.get("spec")).remove("priority");
        ((ObjectNode) update.get("spec")).remove("preemptionPolicy");
        ObjectNode updated = api.put(pods(ns) + "/batch", update.toString()).assertCode(200).json();
        assertEquals(100, updated.at("/spec/priority").asLong());
        assertEquals("Never", updated.at("/spec/preemptionPolicy").asText());
    }

    @Test
    void anUnknownClassAndAMismatchedPriorityAreForbiddenAndADryRunStoresNothing() {
        String ns = newNamespace();
        api.post(pods(ns), pod("lost", "'priorityClassName':'no-such-class',"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"lost\" is forbidden: no PriorityClass with name no-such-class was"
                                + " found");
        api.post(pods(ns), pod("bold", "'priorityClassName':'system-node-critical','priority':7,"))
                .assertStatus(
                        403,
                        "Forbidden",
                        "pods \"bold\" is forbidden: the integer value of priority (7) must not be"
                                + " provided in pod spec; priority admission controller computed"
                                + " 2000001000 from the given PriorityClass name");
        api.get(pods(ns) + "/lost").assertCode(404);
        api.get(pods(ns) + "/bold").assertCode(404);

        ObjectNode shown =
                api.post(
                                pods(ns) + "?dryRun=All",
                                pod("dry", "'priorityClassName':'system-node-critical',"))
                        .assertCode(201)
                        .json();
        assertEquals(2_000_001_000L, shown.at("/spec/priority").asLong());
        assertEquals(2, shown.at("/spec/tolerations").size());
        api.get(pods(ns) + "/dry").assertCode(404);
    }

    @Test
    void aPodNamingNoClassGetsTheGlobalDefaultOfWhichThereIsOnlyOne() {
        String ns = newNamespace();
        String plain = pod("plain", "");
        ObjectNode before = api.create(pods(ns), plain);
        assertEquals(0, before.at("/spec/priority").asLong(-1));
        assertEquals("PreemptLowerPriority", before.at("/spec/preemptionPolicy").asText());
        assertFalse(before.at("/spec").has("priorityClassName"));

        api.create(PRIORITY_CLASSES, priorityClass("everyone", 7, ",'globalDefault':true"));
        try {
            awaitEveryServer(pods(ns), pod("probe", ""), priority(7));
            ObjectNode after = api.create(pods(ns), pod("defaulted", ""));
            assertEquals(7, after.at("/spec/priority").asLong());
            assertEquals("everyone", after.at("/spec/priorityClassName").asText());

            api.post(PRIORITY_CLASSES, priorityClass("another", 8, ",'globalDefault':true"))
                    .assertStatus(
                            403,
                            "Forbidden",
                            "priorityclasses.scheduling.k8s.io \"another\" is forbidden:"
                                    + " PriorityClass everyone is already marked as default. Only"
                                    + " one default can exist");
            api.get(PRIORITY_CLASSES + "/another").assertCode(404);
        } finally {
            api.delete(PRIORITY_CLASSES + "/everyone").assertCode(200);
            awaitEveryServer(pods(ns), pod("probe", ""), priority(0));
        }
    }

    @Test
    void aPodGetsKubesTwoNoExecuteTolerationsUnlessItHasThem() {
        String ns = newNamespace();
        ObjectNode plain = api.create(pods(ns), pod("plain", ""));
        assertEquals(
                TestApiServer.obj(
                                "{'t':[{'key':'node.kubernetes.io/not-ready','operator':'Exists',"
                                        + "'effect':'NoExecute','tolerationSeconds':300},"
                                        + "{'key':'node.kubernetes.io/unreachable','operator':'Exists',"
                                        + "'effect':'NoExecute','tolerationSeconds':300}]}")
                        .get("t"),
                plain.at("/spec/tolerations"));

        ObjectNode own =
                api.create(
                        pods(ns),
                        pod(
                                "own",
                                "'tolerations':[{'key':'node.kubernetes.io/not-ready',"
                                        + "'operator':'Exists','effect':'NoExecute',"
                                        + "'tolerationSeconds':10}],"));
        JsonNode tolerations = own.at("/spec/tolerations");
        assertEquals(2, tolerations.size());
        assertEquals(10, tolerations.get(0).path("tolerationSeconds").asInt());
        assertEquals("node.kubernetes.io/unreachable", tolerations.get(1).path("key").asText());
        assertEquals(300, tolerations.get(1).path("tolerationSeconds").asInt());
    }

    @Test
    void aClaimWithoutAClassGetsTheDefaultStorageClass() {
        String ns = newNamespace();
        String noClass = claim("data", "");
        ObjectNode before = api.create(claims(ns), noClass);
        assertFalse(before.at("/spec").has("storageClassName"));

        api.create(STORAGE_CLASSES, storageClass("fast", true));
        api.create(STORAGE_CLASSES, storageClass("slow", false));
        awaitEveryServer(
                claims(ns),
                claim("probe", ""),
                r ->
                        r.code() == 201
                                && "fast".equals(r.json().at("/spec/storageClassName").asText()));
        ObjectNode defaulted = api.create(claims(ns), claim("defaulted", ""));
        assertEquals("fast", defaulted.at("/spec/storageClassName").asText());
        ObjectNode dry =
                api.post(claims(ns) + "?dryRun=All", claim("dry", "")).assertCode(201).json();
        assertEquals("fast", dry.at("/spec/storageClassName").asText());
        api.get(claims(ns) + "/dry").assertCode(404);

        // a class asked for, even none (""), is kept
        assertEquals(
                "slow",
                api.create(claims(ns), claim("named", "'storageClassName':'slow',"))
                        .at("/spec/storageClassName")
                        .asText());
        ObjectNode none = api.create(claims(ns), claim("none", "'storageClassName':'',"));
        assertEquals("", none.at("/spec/storageClassName").asText("missing"));
    }

    private static String claim(String name, String specFields) {
        return json(
                "{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'"
                        + name
                        + "'},'spec':{"
                        + specFields
                        + "'accessModes':['ReadWriteOnce'],"
                        + "'resources':{'requests':{'storage':'1Gi'}}}}");
    }

    private static String storageClass(String name, boolean isDefault) {
        return json(
                "{'apiVersion':'storage.k8s.io/v1','kind':'StorageClass','metadata':{'name':'"
                        + name
                        + "','annotations':{'storageclass.kubernetes.io/is-default-class':'"
                        + isDefault
                        + "'}},'provisioner':'example.com/disk'}");
    }
}
