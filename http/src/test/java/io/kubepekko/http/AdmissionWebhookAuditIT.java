package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.DEADLINE;
import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static io.kubepekko.http.AdmissionWebhookFixture.onOperations;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit annotations kube's webhook admission leaves on the request's audit event, through the
 * API with the server's audit log ({@link AdmissionWebhookFixture}): at level Request and Metadata,
 * and for the items of a deletecollection.
 */
class AdmissionWebhookAuditIT {

    /**
     * The server's audit log: requests in {@value #METADATA_NS} at Metadata, the rest at Request.
     */
    private static final Path AUDIT_LOG = AuditLogs.newFile();

    private static final String METADATA_NS = "hooks-audited-metadata";

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(
                    TestApiServer.perClass(
                            s ->
                                    s.withAudit(
                                            AuditLogs.settings(
                                                    AuditLogs.policy(
                                                            "apiVersion: audit.k8s.io/v1\n"
                                                                    + "kind: Policy\n"
                                                                    + "rules:\n"
                                                                    + "- level: Metadata\n"
                                                                    + "  namespaces: ["
                                                                    + METADATA_NS
                                                                    + "]\n"
                                                                    + "- level: Request\n"),
                                                    AUDIT_LOG))));

    private static final TestApiServer api = hooks.api();

    /**
     * kube's webhook audit annotations: every mutating webhook called says whether it mutated, the
     * patch of the one that did (at level Request), a webhook's own auditAnnotations under its
     * name, a call that failed open under Ignore; at level Metadata the patch is left out.
     */
    @Test
    void theWebhooksLeaveKubesAuditAnnotations() throws Exception {
        String request = hooks.newCase();
        for (String c : List.of(request, hooks.newCase(METADATA_NS))) {
            // The validating ones first: once the label webhook is on, the probes' creates (no
            // labels to add to) fail before any validating webhook is called.
            hooks.configure(
                    c,
                    false,
                    hooks.hook(c, "annotate.example.com", "/annotate/" + c, ""),
                    hooks.hookAt(
                            c,
                            "down.example.com",
                            "https://127.0.0.1:1/down",
                            "'failurePolicy':'Ignore'"));
            hooks.configure(c, true, hooks.hook(c, "label.example.com", "/label/" + c, ""));
        }
        Response created = api.post(configMaps(request), configMap("audited", "{'app':'x'}"));
        assertEquals(201, created.code(), created.text());
        created = api.post(configMaps(METADATA_NS), configMap("audited", "{'app':'x'}"));
        assertEquals(201, created.code(), created.text());

        Map<String, String> atRequest = auditAnnotations(request);
        Map<String, String> mutations = withPrefix(atRequest, "mutation.webhook.admission.k8s.io/");
        assertTrue(
                mutations.containsValue(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"label.example.com\",\"mutated\":true}"),
                atRequest.toString());
        assertTrue(
                mutations.containsValue(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"probe."
                                + request
                                + ".example.com\",\"mutated\":false}"),
                atRequest.toString());
        Map<String, String> patches = withPrefix(atRequest, "patch.webhook.admission.k8s.io/");
        assertEquals(
                List.of(
                        "{\"configuration\":\""
                                + request
                                + "\",\"webhook\":\"label.example.com\",\"patch\":[{\"op\":\"add\","
                                + "\"path\":\"/metadata/labels/mutated\",\"value\":\"yes\"}],"
                                + "\"patchType\":\"JSONPatch\"}"),
                List.copyOf(patches.values()),
                atRequest.toString());
        // The patch's key is the mutation's of the same webhook: round 0, its index.
        String patchKey = patches.keySet().iterator().next();
        assertTrue(
                atRequest
                        .get(
                                "mutation.webhook.admission.k8s.io/"
                                        + patchKey.substring(patchKey.indexOf('/') + 1))
                        .contains("\"mutated\":true"),
                atRequest.toString());
        assertEquals("fine", atRequest.get("annotate.example.com/verdict"), atRequest.toString());
        assertEquals(
                List.of("down.example.com"),
                List.copyOf(
                        withPrefix(atRequest, "failed-open.validating.webhook.admission.k8s.io/")
                                .values()),
                atRequest.toString());
        assertTrue(
                withPrefix(
                                        atRequest,
                                        "failed-open.validating.webhook.admission.k8s.io/round_0_index_")
                                .size()
                        == 1);

        Map<String, String> atMetadata = auditAnnotations(METADATA_NS);
        assertFalse(
                withPrefix(atMetadata, "mutation.webhook.admission.k8s.io/").isEmpty(),
                atMetadata.toString());
        assertTrue(
                withPrefix(atMetadata, "patch.webhook.admission.k8s.io/").isEmpty(),
                atMetadata.toString());
    }

    @Test
    void aDeleteCollectionsItemsAnnotateTheRequestsOneAuditEventAsKube() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                true,
                onOperations(hooks.hook(c, "item.example.com", "/item/" + c, ""), "DELETE"));
        hooks.configure(
                c,
                false,
                onOperations(
                        hooks.hookAt(
                                c,
                                "down.example.com",
                                "https://127.0.0.1:1/down",
                                "'failurePolicy':'Ignore'"),
                        "DELETE"));
        api.create(configMaps(c), configMap("one", "{'batch':'yes'}"));
        api.create(configMaps(c), configMap("two", "{'batch':'yes'}"));

        // Not the namespace's kube-root-ca.crt: the two items only.
        Response r = api.delete(configMaps(c) + "?labelSelector=batch%3Dyes");
        assertEquals(200, r.code(), r.text());
        assertEquals(2, hooks.received().get("/item/" + c).size());

        Map<String, String> annotations = auditAnnotations(c, "deletecollection", "");
        // Each item calls the same webhooks: their annotations meet under the same keys, and the
        // request's one event keeps each key's first value, as kube's audit context.
        assertEquals(
                List.of(
                        "{\"configuration\":\""
                                + c
                                + "\",\"webhook\":\"item.example.com\",\"mutated\":false}"),
                List.copyOf(withPrefix(annotations, "mutation.webhook.admission.k8s.io/").values()),
                annotations.toString());
        assertEquals(
                Map.of(
                        "failed-open.validating.webhook.admission.k8s.io/round_0_index_0",
                        "down.example.com"),
                withPrefix(annotations, "failed-open."),
                annotations.toString());
        // The items answered "one" and "two": one of them, whichever was first.
        assertTrue(
                List.of("one", "two").contains(annotations.get("item.example.com/item")),
                annotations.toString());
    }

    /** The annotations of the create of ConfigMap "audited" in {@code ns}, once logged. */
    private static Map<String, String> auditAnnotations(String ns) {
        return auditAnnotations(ns, "create", "audited");
    }

    /** The annotations of the request {@code verb} of {@code name} in {@code ns}, once logged. */
    private static Map<String, String> auditAnnotations(String ns, String verb, String name) {
        return await().atMost(DEADLINE)
                .until(
                        () -> {
                            for (JsonNode e : AuditLogs.events(AUDIT_LOG)) {
                                if (e.path("stage").asText().equals("ResponseComplete")
                                        && e.path("verb").asText().equals(verb)
                                        && e.at("/objectRef/namespace").asText().equals(ns)
                                        && e.at("/objectRef/name").asText().equals(name)) {
                                    Map<String, String> out = new TreeMap<>();
                                    e.path("annotations")
                                            .properties()
                                            .forEach(
                                                    a ->
                                                            out.put(
                                                                    a.getKey(),
                                                                    a.getValue().asText()));
                                    return out;
                                }
                            }
                            return null;
                        },
                        found -> found != null);
    }

    private static Map<String, String> withPrefix(Map<String, String> all, String prefix) {
        Map<String, String> out = new TreeMap<>();
        all.forEach(
                (k, v) -> {
                    if (k.startsWith(prefix)) {
                        out.put(k, v);
                    }
                });
        return out;
    }
}
