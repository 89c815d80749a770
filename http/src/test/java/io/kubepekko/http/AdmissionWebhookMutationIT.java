package io.kubepekko.http;

import static io.kubepekko.http.AdmissionWebhookFixture.configMap;
import static io.kubepekko.http.AdmissionWebhookFixture.configMaps;
import static io.kubepekko.http.AdmissionWebhookFixture.onOperations;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutating webhooks through the API ({@link AdmissionWebhookFixture}): their JSON patch stored,
 * made again when the object changed meanwhile, and the managedFields kube's field manager records
 * around them.
 */
class AdmissionWebhookMutationIT {

    @RegisterExtension
    static final AdmissionWebhookFixture hooks =
            new AdmissionWebhookFixture(TestApiServer.perClass());

    private static final TestApiServer api = hooks.api();

    @Test
    void aMutatingWebhooksPatchIsStored() {
        String c = hooks.newCase();
        hooks.configure(c, true, hooks.hook(c, "label.example.com", "/label", ""));

        ObjectNode created = api.create(configMaps(c), configMap("cm", "{'app':'web'}"));
        assertEquals("yes", created.at("/metadata/labels/mutated").asText());
        assertEquals("web", created.at("/metadata/labels/app").asText());
        assertEquals(
                "yes",
                api.get(configMaps(c) + "/cm").json().at("/metadata/labels/mutated").asText());
        JsonNode review = hooks.received().get("/label").get(0);
        assertEquals("CREATE", review.at("/request/operation").asText());
        assertEquals("configmaps", review.at("/request/resource/resource").asText());
        assertEquals("ConfigMap", review.at("/request/kind/kind").asText());
        assertEquals(c, review.at("/request/namespace").asText());
        assertEquals("kubernetes-admin", review.at("/request/userInfo/username").asText());
        assertEquals("CreateOptions", review.at("/request/options/kind").asText());
    }

    @Test
    void aPatchAWebhookChangedIsMadeAgainWhenTheObjectChangedMeanwhile() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                true,
                onOperations(
                        hooks.hook(c, "interfere.example.com", "/interfere/" + c, ""), "UPDATE"));
        api.create(configMaps(c), configMap("cm", "{'app':'web'}"));

        Response r =
                api.patch(
                        configMaps(c) + "/cm",
                        "application/merge-patch+json",
                        json("{'data':{'k':'patched'}}"));
        assertEquals(200, r.code(), r.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("patched", stored.at("/data/k").asText());
        assertEquals("written", stored.at("/data/meanwhile").asText());
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        // The webhook's own write called it too (the second review); the patch was then asked
        // again on the object that write left.
        List<JsonNode> reviews = hooks.received().get("/interfere/" + c);
        assertEquals(3, reviews.size());
        assertEquals("written", reviews.get(2).at("/request/object/data/meanwhile").asText());
        assertEquals("patched", reviews.get(2).at("/request/object/data/k").asText());
    }

    /** A webhook of case {@code c} calling {@code path} on ConfigMap creates and updates. */
    private static String createAndUpdateHook(String c, String name, String path) {
        return onOperations(hooks.hook(c, name, path, ""), "CREATE", "UPDATE");
    }

    private static boolean calledOnUpdate(String path) {
        return hooks.received().get(path).stream()
                .anyMatch(r -> r.at("/request/operation").asText().equals("UPDATE"));
    }

    private static JsonNode managedFields(String ns) {
        return api.get(configMaps(ns) + "/cm").json().at("/metadata/managedFields");
    }

    /** An apply of ConfigMap cm with label app=web and data k={@code value}, as "applier". */
    private static Response applyConfigMap(String ns, String value) {
        return api.patch(
                configMaps(ns) + "/cm?fieldManager=applier",
                "application/apply-patch+yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    app: web\n"
                        + "data:\n  k: "
                        + value
                        + "\n");
    }

    /** Whether {@code entries} are the applier's Apply of {@link #applyConfigMap} alone. */
    private static void assertTheAppliersApplyAlone(JsonNode entries) {
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("applier", entries.get(0).path("manager").asText());
        assertEquals("Apply", entries.get(0).path("operation").asText());
        assertEquals(
                json("{'f:data':{'f:k':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                entries.get(0).path("fieldsV1").toString());
    }

    /**
     * kube's field manager records a write before mutating admission: an apply a webhook changed is
     * the applier's Apply, of the fields it applied, with no Update beside it, and the webhook's
     * label is nobody's.
     */
    @Test
    void anApplyAWebhookChangedIsRecordedAsTheAppliersApplyAlone() {
        String c = hooks.newCase();
        hooks.configure(
                c,
                true,
                onOperations(hooks.hook(c, "label.example.com", "/label/" + c, ""), "UPDATE"));
        Response created = applyConfigMap(c, "v");
        assertEquals(201, created.code(), created.text());
        assertTheAppliersApplyAlone(managedFields(c));

        Response updated = applyConfigMap(c, "w");
        assertEquals(200, updated.code(), updated.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("w", stored.at("/data/k").asText());
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        assertTheAppliersApplyAlone(stored.at("/metadata/managedFields"));
        assertEquals(
                stored.at("/metadata/managedFields"), updated.json().at("/metadata/managedFields"));
        assertTrue(calledOnUpdate("/label/" + c), "the webhook saw the apply's update");
    }

    /** An apply that creates an object a webhook changed creates it, recorded as the Apply. */
    @Test
    void anApplyThatCreatesAnObjectAWebhookChangedCreatesItAsTheAppliersApply() {
        String c = hooks.newCase();
        hooks.configure(c, true, hooks.hook(c, "label.example.com", "/label/" + c, ""));
        Response created = applyConfigMap(c, "v");
        assertEquals(201, created.code(), created.text());
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        assertTheAppliersApplyAlone(stored.at("/metadata/managedFields"));
        assertEquals(
                "CREATE",
                hooks.received().get("/label/" + c).stream()
                        .filter(r -> r.at("/request/name").asText().equals("cm"))
                        .findFirst()
                        .orElseThrow()
                        .at("/request/operation")
                        .asText());
    }

    /**
     * A create and a merge patch a webhook changed are their managers' Updates, of what the request
     * changed: the webhook's label is nobody's.
     */
    @Test
    void aCreateAndAPatchAWebhookChangedRecordTheirManagersUpdatesAlone() {
        String c = hooks.newCase();
        hooks.configure(c, true, createAndUpdateHook(c, "label.example.com", "/label/" + c));
        Response r =
                api.post(configMaps(c) + "?fieldManager=creator", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals("yes", r.json().at("/metadata/labels/mutated").asText());
        JsonNode entries = managedFields(c);
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertEquals("Update", entries.get(0).path("operation").asText());
        JsonNode labels = entries.get(0).at("/fieldsV1/f:metadata/f:labels");
        assertTrue(labels.has("f:app"), entries.toString());
        assertFalse(labels.has("f:mutated"), entries.toString());

        r =
                api.patch(
                        configMaps(c) + "/cm?fieldManager=patcher",
                        "application/merge-patch+json",
                        json("{'data':{'k':'patched'}}"));
        assertEquals(200, r.code(), r.text());
        entries = managedFields(c);
        assertEquals(2, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertFalse(
                entries.get(0).at("/fieldsV1/f:metadata/f:labels").has("f:mutated"),
                entries.toString());
        assertEquals("patcher", entries.get(1).path("manager").asText());
        assertEquals("Update", entries.get(1).path("operation").asText());
        assertEquals(json("{'f:data':{'f:k':{}}}"), entries.get(1).path("fieldsV1").toString());
        assertTrue(calledOnUpdate("/label/" + c), "the webhook saw the patch");
    }

    /**
     * kube's managedFields check after mutating admission: managedFields a webhook left invalid are
     * reset to those the write recorded, with its warning.
     */
    @Test
    void managedFieldsAWebhookBrokeAreResetWithKubesWarning() {
        String c = hooks.newCase();
        hooks.configure(c, true, hooks.hook(c, "break.example.com", "/breakmanaged/" + c, ""));
        Response r =
                api.post(configMaps(c) + "?fieldManager=creator", configMap("cm", "{'app':'web'}"));
        assertEquals(201, r.code(), r.text());
        assertEquals(
                List.of(
                        "299 - \".metadata.managedFields was in an invalid state after admission;"
                                + " this could be caused by an outdated mutating admission controller;"
                                + " please fix your requests: missing fieldsType in managed fields"
                                + " entry 0\""),
                r.headers().allValues("Warning"));
        JsonNode stored = api.get(configMaps(c) + "/cm").json();
        assertEquals("yes", stored.at("/metadata/labels/mutated").asText());
        JsonNode entries = stored.at("/metadata/managedFields");
        assertEquals(1, entries.size(), entries.toString());
        assertEquals("creator", entries.get(0).path("manager").asText());
        assertEquals("FieldsV1", entries.get(0).path("fieldsType").asText());
    }
}
