package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kube's NamespaceLifecycle refuses every create in a namespace being deleted, the creates through
 * {@code pods/eviction} and {@code serviceaccounts/token} included (only local access reviews are
 * exempt): 403 with the {@code NamespaceTerminating} cause. The namespace is held in Terminating by
 * finalizers on the pod and the account, which its deletion leaves in place.
 */
class TerminatingNamespaceSubresourceIT {

    private static final String NS = "term-sub";

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static void terminatingNamespaceWithHeldPodAndAccount() {
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + NS + "'}}"));
        api.create(
                "/api/v1/namespaces/" + NS + "/serviceaccounts",
                json(
                        "{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'held',"
                                + "'finalizers':['example.com/hold']}}"));
        api.create(
                "/api/v1/namespaces/" + NS + "/pods",
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'held',"
                                + "'finalizers':['example.com/hold']},"
                                + "'spec':{'containers':[{'name':'app','image':'nginx'}]}}"));
        api.delete("/api/v1/namespaces/" + NS).assertCode(200);
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                "Terminating"
                                        .equals(
                                                api.get("/api/v1/namespaces/" + NS)
                                                        .json()
                                                        .at("/status/phase")
                                                        .asText()));
    }

    private static void assertRefusedAsTerminating(Response r, String resource) {
        ObjectNode status = r.assertCode(403).json();
        assertEquals("Forbidden", status.path("reason").asText(), status.toString());
        assertEquals(
                resource
                        + " \"held\" is forbidden: unable to create new content in namespace "
                        + NS
                        + " because it is being terminated",
                status.path("message").asText());
        assertEquals(
                "NamespaceTerminating",
                status.at("/details/causes/0/reason").asText(),
                status.toString());
    }

    @Test
    void anEvictionAndATokenRequestInATerminatingNamespaceAreRefusedAsKube() {
        terminatingNamespaceWithHeldPodAndAccount();
        assertRefusedAsTerminating(
                api.post(
                        "/api/v1/namespaces/" + NS + "/serviceaccounts/held/token",
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                        + "'spec':{}}")),
                "serviceaccounts");
        assertRefusedAsTerminating(
                api.post(
                        "/api/v1/namespaces/" + NS + "/pods/held/eviction",
                        json(
                                "{'apiVersion':'policy/v1','kind':'Eviction','metadata':"
                                        + "{'name':'held','namespace':'"
                                        + NS
                                        + "'}}")),
                "pods");
    }
}
