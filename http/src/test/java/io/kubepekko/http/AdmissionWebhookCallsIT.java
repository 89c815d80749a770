package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.DEADLINE;
import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static io.kubepekko.http.AdmissionWebhookFixture.onOperations;
import static io.kubepekko.http.AdmissionWebhookFixture.onResources;
import static io.kubepekko.http.AdmissionWebhookServer.SERVICE;
import static io.kubepekko.http.AdmissionWebhookServer.SERVICE_NS;
import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Which writes call an admission webhook and how, through the API with a real HTTPS webhook server
 * ({@link AdmissionWebhookFixture}): a validating webhook's denial with its message, dry runs, the
 * object and namespace selectors, a {@code service} reference, a deletecollection's items, the
 * creates through a subresource, and a binding the server refuses before any webhook.
 */
class AdmissionWebhookCallsIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    /** A binding of Pod p to node n1. */
    private static final String BINDING =
            json(
                    "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'p'},"
                            + "'target':{'apiVersion':'v1','kind':'Node','name':'n1'}}");

    @Test
    void aValidatingWebhookDeniesWithItsMessage() {
        String c = hooks.newCase();
        hooks.configure(c, false, hooks.hook(c, "deny.example.com", "/deny", ""));

        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"deny.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertEquals(404, api.get(configMaps(c) + "/cm").code());
    }

    @Test
    void aDryRunCallsAWebhookWithoutSideEffectsTellingItSo() {
        String c = hooks.newCase();
        hooks.configure(c, true, hooks.hook(c, "label.example.com", "/label/" + c, ""));

        Response r = api.post(configMaps(c) + "?dryRun=All", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals("yes", r.json().at("/metadata/labels/mutated").asText());
        List<JsonNode> reviews = hooks.received().get("/label/" + c);
        assertTrue(reviews.get(reviews.size() - 1).at("/request/dryRun").asBoolean());
        assertEquals(404, api.get(configMaps(c) + "/cm").code());
    }

    @Test
    void selectorsSkipTheWebhook() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                hooks.hook(
                        c,
                        "deny.example.com",
                        "/deny",
                        "'objectSelector':{'matchLabels':{'checked':'yes'}}"));
        // The object selector: an object without the label is not sent.
        assertEquals(201, api.post(configMaps(c), configMap("free", "{}")).code());
        assertEquals(403, api.post(configMaps(c), configMap("held", "{'checked':'yes'}")).code());
        // The namespace selector: another namespace is not this configuration's.
        String other = hooks.newCase();
        assertEquals(
                201, api.post(configMaps(other), configMap("held", "{'checked':'yes'}")).code());
    }

    /**
     * A webhook of case {@code c} calling Service {@code service} of SERVICE_NS at {@code path}.
     */
    private static String serviceHook(String c, String name, String service, String path) {
        return hooks.hook(c, name, "/unused", "")
                .replace(
                        "'url':'" + hooks.url("/unused") + "'",
                        "'service':{'namespace':'"
                                + SERVICE_NS
                                + "','name':'"
                                + service
                                + "','path':'"
                                + path
                                + "'}");
    }

    /** Service {@code name} of SERVICE_NS, its port 443 named https. */
    private static void service(String name) {
        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/services",
                json(
                        "{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                                + name
                                + "'},'spec':{'ports':[{'name':'https','port':443,'targetPort':8443}]}}"));
    }

    /** Endpoints {@code name} of SERVICE_NS: the webhook server, as port https. */
    private static void endpoints(String name) {
        api.create(
                "/api/v1/namespaces/" + SERVICE_NS + "/endpoints",
                json(
                        "{'apiVersion':'v1','kind':'Endpoints','metadata':{'name':'"
                                + name
                                + "'},'subsets':[{'addresses':[{'ip':'127.0.0.1'}],"
                                + "'ports':[{'name':'https','port':"
                                + hooks.port()
                                + "}]}]}"));
    }

    @Test
    void aServiceReferenceCallsAReadyEndpointVerifyingTheServicesName() {
        api.create(
                "/api/v1/namespaces",
                json(
                        "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                + SERVICE_NS
                                + "'}}"));
        String c = hooks.newCase();
        hooks.configure(c, false, serviceHook(c, "svc.example.com", SERVICE, "/deny/svc"));
        String post = "Post \"https://webhook.hooks-svc.svc:443/deny/svc?timeout=10s\": ";
        String failed =
                "Internal error occurred: failed calling webhook \"svc.example.com\": failed to"
                        + " call webhook: ";

        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals(
                failed + post + "service \"webhook\" not found", r.json().path("message").asText());

        service(SERVICE);
        r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertEquals(
                failed + post + "no endpoints available for service \"webhook\"",
                r.json().path("message").asText());

        endpoints(SERVICE);
        r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"svc.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertFalse(hooks.received().get("/deny/svc").isEmpty());

        // Another Service to the same endpoint: the certificate does not name it.
        String other = hooks.newCase();
        service("other");
        endpoints("other");
        hooks.configure(
                other, false, serviceHook(other, "other.example.com", "other", "/deny/other"));
        r = api.post(configMaps(other), configMap("cm", "{}"));
        assertEquals(500, r.code(), r.text());
        assertTrue(
                r.json()
                        .path("message")
                        .asText()
                        .endsWith(
                                "tls: failed to verify certificate: x509: certificate is valid for"
                                        + " localhost, webhook.hooks-svc.svc, not"
                                        + " other.hooks-svc.svc"),
                r.text());
        assertFalse(hooks.received().containsKey("/deny/other"));
    }

    @Test
    void aDeleteCollectionCallsTheWebhooksForEachItem() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onOperations(
                        hooks.hook(
                                c,
                                "deny.example.com",
                                "/deny/" + c,
                                "'objectSelector':{'matchLabels':{'checked':'yes'}}"),
                        "DELETE"));
        api.create(configMaps(c), configMap("free", "{}"));
        api.create(configMaps(c), configMap("held", "{'checked':'yes'}"));

        Response r = api.delete(configMaps(c));
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "admission webhook \"deny.example.com\" denied the request: no configmaps here",
                r.json().path("message").asText());
        assertEquals(200, api.get(configMaps(c) + "/held").code());
        List<JsonNode> reviews = hooks.received().get("/deny/" + c);
        assertEquals(1, reviews.size(), reviews.toString());
        JsonNode request = reviews.get(0).path("request");
        assertEquals("DELETE", request.path("operation").asText());
        // kube's DeleteCollection admits each item with the request's attributes: no name.
        assertEquals("", request.path("name").asText());
        assertEquals(c, request.path("namespace").asText());
        assertEquals("held", request.at("/oldObject/metadata/name").asText());
        assertEquals("DeleteOptions", request.at("/options/kind").asText());
    }

    @Test
    void subresourceCreatesCallTheWebhooksTheirRulesName() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onResources(
                        hooks.hook(c, "deny.example.com", "/deny/" + c, ""),
                        "pods/eviction",
                        "pods/binding",
                        "bindings",
                        "serviceaccounts/token"));
        String pods = hooks.createPod(c);
        String denied =
                "admission webhook \"deny.example.com\" denied the request: no configmaps here";

        Response r = hooks.evict(pods);
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        assertEquals(200, api.get(pods + "/p").code());
        JsonNode eviction = hooks.received().get("/deny/" + c).get(0).path("request");
        assertEquals("CREATE", eviction.path("operation").asText());
        assertEquals("Eviction", eviction.at("/kind/kind").asText());
        assertEquals("policy", eviction.at("/kind/group").asText());
        assertEquals("pods", eviction.at("/resource/resource").asText());
        assertEquals("eviction", eviction.path("subResource").asText());
        assertEquals("p", eviction.path("name").asText());
        assertEquals("Eviction", eviction.at("/object/kind").asText());

        r = api.post(pods + "/p/binding", BINDING);
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        r = api.post("/api/v1/namespaces/" + c + "/bindings", BINDING);
        assertEquals(403, r.code(), r.text());
        assertEquals("", api.get(pods + "/p").json().at("/spec/nodeName").asText());

        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.get("/api/v1/namespaces/" + c + "/serviceaccounts/default")
                                                .code()
                                        == 200);
        r =
                api.post(
                        "/api/v1/namespaces/" + c + "/serviceaccounts/default/token",
                        json("{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest'}"));
        assertEquals(403, r.code(), r.text());
        assertEquals(denied, r.json().path("message").asText());
        List<JsonNode> reviews = hooks.received().get("/deny/" + c);
        assertEquals(4, reviews.size());
        assertEquals("binding", reviews.get(1).at("/request/subResource").asText());
        assertEquals("bindings", reviews.get(2).at("/request/resource/resource").asText());
        assertEquals("", reviews.get(2).at("/request/subResource").asText());
        assertEquals("TokenRequest", reviews.get(3).at("/request/kind/kind").asText());
        assertEquals("token", reviews.get(3).at("/request/subResource").asText());
    }

    /**
     * kube refuses a create in a terminating namespace in NamespaceLifecycle, a plugin of its
     * mutating phase ordered before the mutating webhooks: a binding there calls no webhook.
     */
    @Test
    void aBindingTheServerRefusesBeforeTheWebhooksCallsNone() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                true,
                onResources(
                        hooks.hook(c, "bind.example.com", "/bind/" + c, ""),
                        "pods/binding",
                        "bindings"));
        api.patch(
                        "/api/v1/namespaces/" + c,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':['example.com/keep-ns']}}"))
                .assertCode(200);
        api.delete("/api/v1/namespaces/" + c).assertCode(200);

        Response r = api.post("/api/v1/namespaces/" + c + "/pods/p/binding", BINDING);
        assertEquals(403, r.code(), r.text());
        assertEquals(
                "pods \"p\" is forbidden: unable to create new content in namespace "
                        + c
                        + " because it is being terminated",
                r.json().path("message").asText());
        r = api.post("/api/v1/namespaces/" + c + "/bindings", BINDING);
        assertEquals(403, r.code(), r.text());
        assertFalse(
                hooks.received().containsKey("/bind/" + c),
                String.valueOf(hooks.received().get("/bind/" + c)));

        api.patch(
                        "/api/v1/namespaces/" + c,
                        "application/merge-patch+json",
                        json("{'metadata':{'finalizers':null}}"))
                .assertCode(200);
    }
}
