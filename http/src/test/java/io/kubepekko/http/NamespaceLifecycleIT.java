package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The namespace controller against a running server. Each namespace carries a finalizer of its own
 * in {@code metadata.finalizers}, so it stays (terminating) after DELETE and after the controller's
 * finalize whichever way DELETE treats namespaces; the test removes it at the end.
 */
class NamespaceLifecycleIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static void createNamespace(String ns) {
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + ns
                                + "','finalizers':['example.com/keep-ns']}}"));
    }

    private static String finalizers(String... names) {
        List<String> quoted = new ArrayList<>();
        for (String n : names) {
            quoted.add("'" + n + "'");
        }
        return names.length == 0 ? "" : ",'finalizers':[" + String.join(",", quoted) + "]";
    }

    private static void configMap(String ns, String name, String... fs) {
        api.create(
                "/api/v1/namespaces/" + ns + "/configmaps",
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap',"
                                + "'metadata':{'name':'"
                                + name
                                + "'"
                                + finalizers(fs)
                                + "},'data':{'k':'v'}}"));
    }

    private static void secret(String ns, String name, String... fs) {
        api.create(
                "/api/v1/namespaces/" + ns + "/secrets",
                json(
                        "{'apiVersion':'v1','kind':'Secret',"
                                + "'metadata':{'name':'"
                                + name
                                + "'"
                                + finalizers(fs)
                                + "},'stringData':{'k':'v'}}"));
    }

    private static void role(String ns, String name) {
        api.create(
                "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles",
                json(
                        "{'apiVersion':"
                                + "'rbac.authorization.k8s.io/v1','kind':'Role','metadata':{'name':'"
                                + name
                                + "'},'rules':[]}"));
    }

    private static ObjectNode namespace(String ns) {
        return api.get("/api/v1/namespaces/" + ns).assertCode(200).json();
    }

    private static JsonNode condition(ObjectNode ns, String type) {
        for (JsonNode c : ns.at("/status/conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return MissingNode.getInstance();
    }

    private static boolean hasCondition(
            String ns, String type, String status, String reason, String message) {
        JsonNode c = condition(namespace(ns), type);
        return status.equals(c.path("status").asText())
                && reason.equals(c.path("reason").asText())
                && message.equals(c.path("message").asText());
    }

    private static List<String> names(String path) {
        return itemNames(api.get(path).assertCode(200).json());
    }

    private static void releaseFinalizers(String path) {
        api.patch(path, "application/merge-patch+json", json("{'metadata':{'finalizers':null}}"))
                .assertCode(200);
    }

    private static void releaseNamespace(String ns) {
        releaseFinalizers("/api/v1/namespaces/" + ns);
        await().atMost(DEADLINE).until(() -> api.get("/api/v1/namespaces/" + ns).code() == 404);
    }

    @Test
    void deletesAllContentReportsWhatFinalizersHoldAndFinalizesOnceEmpty() {
        String ns = "lifecycle-full";
        createNamespace(ns);
        for (int i = 0; i < 150; i++) {
            configMap(ns, "cm-" + i);
        }
        for (int i = 0; i < 100; i++) {
            secret(ns, "secret-" + i);
        }
        for (int i = 0; i < 50; i++) {
            role(ns, "role-" + i);
        }
        configMap(ns, "held-0", "example.com/x");
        configMap(ns, "held-1", "example.com/x");
        secret(ns, "held-2", "example.com/x", "example.com/y");

        api.delete("/api/v1/namespaces/" + ns).assertCode(200);

        await().atMost(DEADLINE)
                .until(
                        () ->
                                hasCondition(
                                        ns,
                                        "NamespaceContentRemaining",
                                        "True",
                                        "SomeResourcesRemain",
                                        "Some resources are remaining: configmaps. has 2 resource instances, secrets. "
                                                + "has 1 resource instances"));
        await().atMost(DEADLINE)
                .until(
                        () ->
                                hasCondition(
                                        ns,
                                        "NamespaceFinalizersRemaining",
                                        "True",
                                        "SomeFinalizersRemain",
                                        "Some content in the namespace has finalizers remaining: example.com/x in 3 "
                                                + "resource instances, example.com/y in 1 resource instances"));
        ObjectNode terminating = namespace(ns);
        assertEquals("Terminating", terminating.at("/status/phase").asText());
        assertEquals(
                "kubernetes",
                terminating.at("/spec/finalizers/0").asText(),
                "not finalized while content remains");
        assertTrue(
                hasCondition(
                        ns,
                        "NamespaceDeletionContentFailure",
                        "False",
                        "ContentDeleted",
                        "All content successfully deleted, may be waiting on finalization"));
        assertTrue(
                hasCondition(
                        ns,
                        "NamespaceDeletionDiscoveryFailure",
                        "False",
                        "ResourcesDiscovered",
                        "All resources successfully discovered"));
        assertEquals(
                List.of("held-0", "held-1"), names("/api/v1/namespaces/" + ns + "/configmaps"));
        assertEquals(List.of("held-2"), names("/api/v1/namespaces/" + ns + "/secrets"));
        assertEquals(
                List.of(), names("/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns + "/roles"));
        // On a cluster, a node that admitted a create just before the delete may trust the
        // namespace for up to
        // 2 s more (the per-node namespace cache, docs/operations.md): wait until every node
        // refuses a dry run
        // (requests go to the nodes in turn). One server refuses at once.
        String late = json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'late'}}");
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> {
                            for (int i = 0; i < api.servers().size(); i++) {
                                if (api.post(
                                                        "/api/v1/namespaces/"
                                                                + ns
                                                                + "/configmaps?dryRun=All",
                                                        late)
                                                .code()
                                        != 403) {
                                    return false;
                                }
                            }
                            return true;
                        });
        api.post("/api/v1/namespaces/" + ns + "/configmaps", late).assertCode(403);

        releaseFinalizers("/api/v1/namespaces/" + ns + "/configmaps/held-0");
        releaseFinalizers("/api/v1/namespaces/" + ns + "/configmaps/held-1");
        releaseFinalizers("/api/v1/namespaces/" + ns + "/secrets/held-2");

        await().atMost(DEADLINE).until(() -> namespace(ns).at("/spec/finalizers").size() == 0);
        assertTrue(
                hasCondition(
                        ns,
                        "NamespaceContentRemaining",
                        "False",
                        "ContentRemoved",
                        "All content successfully removed"));
        assertTrue(
                hasCondition(
                        ns,
                        "NamespaceFinalizersRemaining",
                        "False",
                        "ContentHasNoFinalizers",
                        "All content-preserving finalizers finished"));
        releaseNamespace(ns);
    }

    @Test
    void anEmptyNamespaceIsFinalizedAtOnce() {
        String ns = "lifecycle-empty";
        createNamespace(ns);

        api.delete("/api/v1/namespaces/" + ns).assertCode(200);

        await().atMost(DEADLINE).until(() -> namespace(ns).at("/spec/finalizers").size() == 0);
        ObjectNode finalized = namespace(ns);
        assertEquals("Terminating", finalized.at("/status/phase").asText());
        assertEquals(5, finalized.at("/status/conditions").size());
        for (JsonNode c : finalized.at("/status/conditions")) {
            assertEquals("False", c.path("status").asText(), c.toString());
        }
        List<String> statusManagers = new ArrayList<>();
        finalized
                .at("/metadata/managedFields")
                .forEach(
                        e -> {
                            if ("status".equals(e.path("subresource").asText())) {
                                statusManagers.add(e.path("manager").asText());
                            }
                        });
        assertEquals(List.of("kube-controller-manager"), statusManagers, finalized.toString());
        releaseNamespace(ns);
    }
}
