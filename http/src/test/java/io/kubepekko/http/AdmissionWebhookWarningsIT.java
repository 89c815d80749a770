package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static io.kubepekko.http.AdmissionWebhookFixture.onOperations;
import static io.kubepekko.http.AdmissionWebhookFixture.onResources;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The warnings webhooks return through the API ({@link AdmissionWebhookFixture}): {@code Warning}
 * headers on a write, on a refusal, for each item of a deletecollection, and truncated past kube's
 * limits as kube's warning recorder does.
 */
class AdmissionWebhookWarningsIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    @Test
    void aWebhooksWarningsAreWarningHeaders() {
        String c = hooks.newCase();
        hooks.configure(c, false, hooks.hook(c, "warn.example.com", "/warn", ""));
        Response r = api.post(configMaps(c), configMap("cm", "{}"));
        assertEquals(201, r.code(), r.text());
        assertEquals(List.of("299 - \"careful now\""), r.headers().allValues("Warning"));
        assertFalse(hooks.received().get("/warn").isEmpty());
    }

    @Test
    void aDeleteCollectionsItemsWarningsAreItsWarningHeadersOnceEach() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onOperations(
                        hooks.hook(c, "itemwarn.example.com", "/itemwarn/" + c, ""), "DELETE"));
        for (String name : List.of("one", "two", "three")) {
            api.create(configMaps(c), configMap(name, "{'batch':'yes'}"));
        }

        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        assertEquals(3, hooks.received().get("/itemwarn/" + c).size());
        // Each item's webhook warns: kube's recorder adds every item's warnings to the request's
        // response, the same text once (the items go in no order the test may rely on).
        List<String> headers = r.headers().allValues("Warning");
        assertEquals(4, headers.size(), headers.toString());
        assertEquals(
                Set.of(
                        "299 - \"careful now\"",
                        "299 - \"deleting one\"",
                        "299 - \"deleting two\"",
                        "299 - \"deleting three\""),
                Set.copyOf(headers));
    }

    @Test
    void aRefusalCarriesTheWarningsOfTheWebhookThatRefused() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onOperations(
                        hooks.hook(c, "denywarn.example.com", "/denywarn/" + c, ""), "DELETE"));
        api.create(configMaps(c), configMap("held", "{'batch':'yes'}"));

        // kube's recorder writes the warnings before the answer, a refusal's too.
        Response one = api.delete(configMaps(c) + "/held");
        assertEquals(403, one.code(), one.text());
        assertEquals(List.of("299 - \"careful now\""), one.headers().allValues("Warning"));
        Response all = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(403, all.code(), all.text());
        assertEquals(List.of("299 - \"careful now\""), all.headers().allValues("Warning"));
    }

    /** A subresource create's refusal carries the refusing webhook's warnings too (eviction). */
    @Test
    void aSubresourceCreatesRefusalCarriesTheWebhooksWarnings() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onResources(
                        hooks.hook(c, "denywarn.example.com", "/denywarn/" + c, ""),
                        "pods/eviction"));
        String pods = hooks.createPod(c);

        Response r = hooks.evict(pods);
        assertEquals(403, r.code(), r.text());
        assertEquals(List.of("299 - \"careful now\""), r.headers().allValues("Warning"));
        assertEquals(200, api.get(pods + "/p").code());
    }

    @Test
    void warningsPastKubesLimitsAreTruncatedAsKubesRecorder() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                false,
                onOperations(
                        hooks.hook(c, "bigwarn.example.com", "/bigwarn/" + c, ""),
                        "CREATE",
                        "DELETE"));
        // A warning of more than kube's 4096 runes: every warning is cut to 256 runes from then.
        Response created = api.post(configMaps(c), configMap("one", "{'batch':'yes'}"));
        assertEquals(201, created.code(), created.text());
        assertEquals(
                List.of("299 - \"one" + "x".repeat(253) + "\"", "299 - \"careful now\""),
                created.headers().allValues("Warning"));
        api.create(configMaps(c), configMap("two", "{'batch':'yes'}"));

        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        List<String> headers = r.headers().allValues("Warning");
        assertEquals(3, headers.size(), headers.toString());
        assertEquals(
                Set.of(
                        "299 - \"one" + "x".repeat(253) + "\"",
                        "299 - \"two" + "x".repeat(253) + "\"",
                        "299 - \"careful now\""),
                Set.copyOf(headers));
    }
}
