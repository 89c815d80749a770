package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kubernetes' deletion semantics over HTTP: status codes and bodies of DELETE, the watch events
 * two-phase deletion produces (MODIFIED while terminating, DELETED once removed), graceful pods,
 * propagation, the namespace lifecycle with {@code /finalize}, dry runs and deletecollection.
 */
class DeletionIT {

    private static final AtomicInteger names = new AtomicInteger();

    /**
     * Long enough for an event the server was about to send to arrive; waits only when it correctly
     * does not.
     */
    private static final Duration QUIET = Duration.ofMillis(700);

    @RegisterExtension
    // The API server's part alone: the controllers' part (which removes GC finalizers and finalizes
    // namespaces) is proven by GarbageCollectionIT and NamespaceLifecycleIT.
    static final TestApiServer api =
            TestApiServer.perClass(s -> s.withConfig("kubepekko.controllers.enabled = off"));

    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    private static String namespace() {
        String ns = unique("del");
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        // The controllers are off: the account the ServiceAccount plugin requires of a pod is made
        // here, as kube-controller-manager would.
        api.create(
                "/api/v1/namespaces/" + ns + "/serviceaccounts",
                json("{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'default'}}"));
        return ns;
    }

    private static String cms(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static ObjectNode configMap(String ns, String name, String finalizers) {
        return api.create(
                cms(ns),
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "','finalizers':"
                                + finalizers
                                + "},'data':{'a':'1'}}"));
    }

    private static WatchClient watch(String collection, JsonNode from) {
        return WatchClient.open(api.url(), collection + "?watch=true&resourceVersion=" + rv(from));
    }

    /** The collection's resourceVersion as a list reports it now. */
    private static long listVersion(String collection) {
        return Long.parseLong(
                api.get(collection).json().path("metadata").path("resourceVersion").asText());
    }

    @Test
    void twoPhaseDeletionIsModifiedThenDeleted() {
        String ns = namespace();
        ObjectNode created = configMap(ns, "cm", "['example.com/a','example.com/b']");
        try (WatchClient w = watch(cms(ns), created)) {
            ObjectNode terminating = api.delete(cms(ns) + "/cm").assertCode(200).json();
            assertEquals("ConfigMap", terminating.path("kind").asText());
            assertTrue(
                    terminating.at("/metadata/deletionTimestamp").isTextual(),
                    terminating.toString());
            assertEquals(0, terminating.at("/metadata/deletionGracePeriodSeconds").asInt());
            ObjectNode modified = w.next();
            assertEquals("MODIFIED", modified.path("type").asText());
            assertEquals(
                    terminating.at("/metadata/resourceVersion"),
                    modified.at("/object/metadata/resourceVersion"));

            // Either finalizer may go first; the object stays while one remains.
            api.patch(
                            cms(ns) + "/cm",
                            "application/merge-patch+json",
                            json("{'metadata':{'finalizers':['example.com/a']}}"))
                    .assertCode(200);
            assertEquals("MODIFIED", w.next().path("type").asText());
            api.patch(cms(ns) + "/cm", "application/merge-patch+json", json("{'data':{'a':'2'}}"))
                    .assertCode(200);
            assertEquals("MODIFIED", w.next().path("type").asText());

            ObjectNode last =
                    api.patch(
                                    cms(ns) + "/cm",
                                    "application/merge-patch+json",
                                    json("{'metadata':{'finalizers':null}}"))
                            .assertCode(200)
                            .json();
            ObjectNode deleted = w.next();
            assertEquals("DELETED", deleted.path("type").asText());
            assertEquals("2", deleted.at("/object/data/a").asText());
            assertEquals(
                    last.at("/metadata/resourceVersion"),
                    deleted.at("/object/metadata/resourceVersion"));
            api.get(cms(ns) + "/cm").assertCode(404);
        }
    }

    @Test
    void aRepeatedDeleteAnswersTheSameObjectAndWritesNothing() {
        String ns = namespace();
        configMap(ns, "cm", "['example.com/a']");
        ObjectNode first = api.delete(cms(ns) + "/cm").assertCode(200).json();
        try (WatchClient w = watch(cms(ns), first)) {
            ObjectNode again = api.delete(cms(ns) + "/cm").assertCode(200).json();
            assertEquals(first, again);
            w.expectNothingFor(QUIET);
        }
        api.call("DELETE", cms(ns) + "/cm")
                .json(json("{'propagationPolicy':'Foreground'}"))
                .send()
                .assertCode(200);
        assertEquals(
                json("['example.com/a','foregroundDeletion']"),
                api.get(cms(ns) + "/cm").json().at("/metadata/finalizers").toString());
    }

    @Test
    void addingAFinalizerToATerminatingObjectIsInvalid() {
        String ns = namespace();
        configMap(ns, "cm", "['example.com/a']");
        api.delete(cms(ns) + "/cm").assertCode(200);
        api.patch(
                        cms(ns) + "/cm",
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':['example.com/a','example.com/b']}}"))
                .assertStatusMessageStartsWith(
                        422,
                        "Invalid",
                        "ConfigMap \"cm\" is invalid: metadata.finalizers: "
                                + "Forbidden: no new finalizers can be added if the object is being deleted");
    }

    @Test
    void preconditionsConflictAndKeepTheObject() {
        String ns = namespace();
        ObjectNode cm = configMap(ns, "cm", "[]");
        api.call("DELETE", cms(ns) + "/cm")
                .json(json("{'preconditions':{'uid':'other'}}"))
                .send()
                .assertStatus(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on ConfigMap \"cm\": the UID in the "
                                + "precondition (other) does not match the UID in record ("
                                + cm.at("/metadata/uid").asText()
                                + "). The object might have been deleted and then recreated");
        api.get(cms(ns) + "/cm").assertCode(200);
        api.call("DELETE", cms(ns) + "/cm")
                .json(
                        json(
                                "{'preconditions':{'uid':'"
                                        + cm.at("/metadata/uid").asText()
                                        + "','resourceVersion':'"
                                        + rv(cm)
                                        + "'}}"))
                .send()
                .assertCode(200);
        api.get(cms(ns) + "/cm").assertCode(404);
    }

    @Test
    void aDeleteCollectionWhoseDeleteIsRefusedAnswersThatRefusalAndKeepsTheObject() {
        String ns = namespace();
        ObjectNode cm = configMap(ns, "only", "[]");
        api.call("DELETE", cms(ns))
                .json(json("{'preconditions':{'uid':'other'}}"))
                .send()
                .assertStatus(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on ConfigMap \"only\": the UID in the "
                                + "precondition (other) does not match the UID in record ("
                                + cm.at("/metadata/uid").asText()
                                + "). The object might have been deleted and then recreated");
        api.get(cms(ns) + "/only").assertCode(200);
    }

    @Test
    void foregroundAndOrphanAddTheirFinalizersAndOrphanDependentsFalseIsAccepted() {
        String ns = namespace();
        configMap(ns, "fg", "[]");
        ObjectNode fg =
                api.call("DELETE", cms(ns) + "/fg")
                        .json(json("{'propagationPolicy':'Foreground'}"))
                        .send()
                        .assertCode(200)
                        .json();
        assertEquals("foregroundDeletion", fg.at("/metadata/finalizers/0").asText());
        assertTrue(fg.at("/metadata/deletionTimestamp").isTextual());
        configMap(ns, "or", "[]");
        ObjectNode or = api.delete(cms(ns) + "/or?propagationPolicy=Orphan").assertCode(200).json();
        assertEquals("orphan", or.at("/metadata/finalizers/0").asText());
        configMap(ns, "od", "['example.com/a']");
        ObjectNode od = api.delete(cms(ns) + "/od?orphanDependents=false").assertCode(202).json();
        assertEquals("ConfigMap", od.path("kind").asText());
        configMap(ns, "bg", "[]");
        assertEquals(
                "Status",
                api.delete(cms(ns) + "/bg?propagationPolicy=Background")
                        .assertCode(200)
                        .json()
                        .path("kind")
                        .asText());
    }

    @Test
    void batchV1JobsOrphanTheirPodsByDefaultWithAWarning() {
        String ns = namespace();
        String jobs = "/apis/batch/v1/namespaces/" + ns + "/jobs";
        api.create(
                jobs,
                json(
                        "{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'j'},'spec':{'template':"
                                + "{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'busybox'}]}}}}"));
        Response r = api.delete(jobs + "/j").assertCode(200);
        assertEquals("orphan", r.json().at("/metadata/finalizers/0").asText());
        assertTrue(
                r.header("Warning")
                        .orElse("")
                        .contains("child pods are preserved by default when jobs are deleted"),
                r.headers().map().toString());
    }

    @Test
    void aBoundPodTerminatesGracefullyUntilItsAgentDeletesWithGraceZero() {
        String ns = namespace();
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        ObjectNode pod =
                api.create(
                        pods,
                        json(
                                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{"
                                        + "'nodeName':'n1','terminationGracePeriodSeconds':40,'containers':[{'name':'c','image':'busybox'}]}}"));
        try (WatchClient w = watch(pods, pod)) {
            ObjectNode terminating = api.delete(pods + "/p").assertCode(200).json();
            assertEquals(40, terminating.at("/metadata/deletionGracePeriodSeconds").asInt());
            assertEquals("MODIFIED", w.next().path("type").asText());
            // A longer period changes nothing; a shorter one is taken.
            assertEquals(
                    terminating,
                    api.delete(pods + "/p?gracePeriodSeconds=90").assertCode(200).json());
            assertEquals(
                    10,
                    api.delete(pods + "/p?gracePeriodSeconds=10")
                            .assertCode(200)
                            .json()
                            .at("/metadata/deletionGracePeriodSeconds")
                            .asInt());
            assertEquals("MODIFIED", w.next().path("type").asText());
            ObjectNode gone = api.delete(pods + "/p?gracePeriodSeconds=0").assertCode(200).json();
            assertEquals(
                    "Pod",
                    gone.path("kind").asText(),
                    "the pod store answers with the deleted pod");
            assertEquals("DELETED", w.next().path("type").asText());
            api.get(pods + "/p").assertCode(404);
        }
    }

    @Test
    void anUnboundPodIsRemovedAtOnce() {
        String ns = namespace();
        String pods = "/api/v1/namespaces/" + ns + "/pods";
        api.create(
                pods,
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':{"
                                + "'containers':[{'name':'c','image':'busybox'}]}}"));
        ObjectNode gone = api.delete(pods + "/p").assertCode(200).json();
        assertEquals("Pod", gone.path("kind").asText());
        api.get(pods + "/p").assertCode(404);
    }

    @Test
    void theSystemNamespacesMayNotBeDeleted() {
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            api.delete("/api/v1/namespaces/" + ns)
                    .assertStatus(
                            403,
                            "Forbidden",
                            "namespaces \""
                                    + ns
                                    + "\" is forbidden: this namespace may not be deleted");
            api.get("/api/v1/namespaces/" + ns).assertCode(200);
        }
    }

    @Test
    void aNamespaceTerminatesUntilFinalizeEmptiesItsSpecFinalizers() {
        String ns = namespace();
        ObjectNode live = api.get("/api/v1/namespaces/" + ns).assertCode(200).json();
        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        "/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3D"
                                + ns
                                + "&resourceVersion="
                                + rv(live))) {
            ObjectNode terminating = api.delete("/api/v1/namespaces/" + ns).assertCode(200).json();
            assertEquals("Namespace", terminating.path("kind").asText());
            assertEquals("Terminating", terminating.at("/status/phase").asText());
            assertEquals("kubernetes", terminating.at("/spec/finalizers/0").asText());
            assertEquals("MODIFIED", w.next().path("type").asText());
        }
        ObjectNode refused =
                api.post(
                                cms(ns),
                                json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'late'}}"))
                        .assertStatus(
                                403,
                                "Forbidden",
                                "configmaps \"late\" is forbidden: unable to create new content in "
                                        + "namespace "
                                        + ns
                                        + " because it is being terminated");
        assertEquals(
                "NamespaceTerminating",
                refused.at("/details/causes/0/reason").asText(),
                refused.toString());
        assertEquals("metadata.namespace", refused.at("/details/causes/0/field").asText());
        // A main-resource update cannot drop spec.finalizers; only /finalize can.
        ObjectNode current = api.get("/api/v1/namespaces/" + ns).json();
        ((ObjectNode) current.path("spec")).putArray("finalizers");
        ObjectNode kept =
                api.put("/api/v1/namespaces/" + ns, current.toString()).assertCode(200).json();
        assertEquals("kubernetes", kept.at("/spec/finalizers/0").asText());
        assertEquals(
                kept, api.delete("/api/v1/namespaces/" + ns).assertCode(200).json(), "still held");
        api.get("/api/v1/namespaces/" + ns + "/finalize").assertCode(405);

        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        "/api/v1/namespaces?watch=true&fieldSelector=metadata.name%3D"
                                + ns
                                + "&resourceVersion="
                                + rv(kept))) {
            ObjectNode finalized =
                    api.put("/api/v1/namespaces/" + ns + "/finalize", current.toString())
                            .assertCode(200)
                            .json();
            assertEquals(0, finalized.at("/spec/finalizers").size());
            assertEquals("DELETED", w.next().path("type").asText());
        }
        api.get("/api/v1/namespaces/" + ns).assertCode(404);
    }

    @Test
    void aDryRunDeleteAnswersLikeTheRealOneAndChangesNothing() {
        String ns = namespace();
        ObjectNode cm = configMap(ns, "cm", "['example.com/a']");
        long before = listVersion(cms(ns));
        try (WatchClient w = watch(cms(ns), cm)) {
            ObjectNode dry =
                    api.call("DELETE", cms(ns) + "/cm")
                            .json(json("{'dryRun':['All']}"))
                            .send()
                            .assertCode(200)
                            .json();
            assertTrue(
                    dry.at("/metadata/deletionTimestamp").isTextual(),
                    "the answer shows the terminating object");
            assertEquals(rv(cm), rv(dry));
            w.expectNothingFor(QUIET);
        }
        configMap(ns, "plain", "[]");
        before = listVersion(cms(ns));
        assertEquals(
                "Status",
                api.delete(cms(ns) + "/plain?dryRun=All")
                        .assertCode(200)
                        .json()
                        .path("kind")
                        .asText());
        api.get(cms(ns) + "/plain").assertCode(200);
        ObjectNode after = api.get(cms(ns) + "/cm").assertCode(200).json();
        assertFalse(after.at("/metadata/deletionTimestamp").isTextual());
        assertEquals(rv(cm), rv(after));
        assertEquals(before, listVersion(cms(ns)), "no resourceVersion consumed");
        assertEquals(
                before + 1,
                rv(configMap(ns, "next", "[]")),
                "the next write takes the next version");
    }

    @Test
    void aDryRunDeleteCollectionListsWhatWouldGoAndChangesNothing() {
        String ns = namespace();
        configMap(ns, "a", "[]");
        ObjectNode b = configMap(ns, "b", "['example.com/x']");
        long before = listVersion(cms(ns));
        try (WatchClient w = watch(cms(ns), b)) {
            ObjectNode listed = api.delete(cms(ns) + "?dryRun=All").assertCode(200).json();
            assertEquals("ConfigMapList", listed.path("kind").asText());
            assertEquals(List.of("a", "b"), itemNames(listed));
            w.expectNothingFor(QUIET);
        }
        assertEquals(List.of("a", "b"), itemNames(api.get(cms(ns)).json()));
        assertEquals(before, listVersion(cms(ns)));
        assertEquals(before + 1, rv(configMap(ns, "c", "[]")));
    }

    @Test
    void deleteCollectionHonoursEachObjectsFinalizers() {
        String ns = namespace();
        configMap(ns, "a", "[]");
        ObjectNode b = configMap(ns, "b", "['example.com/x']");
        try (WatchClient w = watch(cms(ns), b)) {
            ObjectNode listed = api.delete(cms(ns)).assertCode(200).json();
            assertEquals(List.of("a", "b"), itemNames(listed));
            List<String> types =
                    List.of(w.next().path("type").asText(), w.next().path("type").asText());
            assertTrue(types.containsAll(List.of("DELETED", "MODIFIED")), types.toString());
        }
        api.get(cms(ns) + "/a").assertCode(404);
        assertTrue(
                api.get(cms(ns) + "/b")
                        .assertCode(200)
                        .json()
                        .at("/metadata/deletionTimestamp")
                        .isTextual());
        // Again: b is already terminating and stays, unchanged.
        assertEquals(List.of("b"), itemNames(api.delete(cms(ns)).assertCode(200).json()));
    }
}
