package io.kubepekko.api.admission.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WebhookAuditAnnotationsTest {

    private static Webhook hook(boolean mutating) {
        return Webhook.of(
                        WebhookRulesTest.obj(
                                "{'metadata':{'name':'inject','uid':'u'},'webhooks':["
                                        + "{'name':'sidecar.example.com',"
                                        + "'clientConfig':{'url':'https://h'},'sideEffects':'None',"
                                        + "'admissionReviewVersions':['v1']}]}"),
                        mutating)
                .get(0);
    }

    @Test
    void aMutatingWebhookCalledIsRecordedWithWhetherItMutated() {
        WebhookAuditAnnotations.Annotation a =
                WebhookAuditAnnotations.mutation(1, 3, hook(true), true);
        assertEquals("mutation.webhook.admission.k8s.io/round_1_index_3", a.key());
        assertEquals(
                "{\"configuration\":\"inject\",\"webhook\":\"sidecar.example.com\",\"mutated\":true}",
                a.value());
        assertFalse(a.requestLevel());
    }

    @Test
    void thePatchIsRecordedAtLevelRequestWithEachOperationsMembersSortedAsGoMarshalsAMap()
            throws Exception {
        ArrayNode ops =
                (ArrayNode)
                        Json.MAPPER.readTree(
                                "[{\"value\":\"<b>\",\"path\":\"/metadata/labels/x\",\"op\":\"add\"},"
                                        + "{\"path\":\"/a\",\"op\":\"move\",\"from\":\"/b\"}]");
        WebhookAuditAnnotations.Annotation a = WebhookAuditAnnotations.patch(0, 0, hook(true), ops);
        assertEquals("patch.webhook.admission.k8s.io/round_0_index_0", a.key());
        assertEquals(
                "{\"configuration\":\"inject\",\"webhook\":\"sidecar.example.com\",\"patch\":["
                        + "{\"op\":\"add\",\"path\":\"/metadata/labels/x\",\"value\":\"\\u003cb\\u003e\"},"
                        + "{\"from\":\"/b\",\"op\":\"move\",\"path\":\"/a\"}],\"patchType\":\"JSONPatch\"}",
                a.value());
        assertTrue(a.requestLevel());
    }

    @Test
    void aCallThatFailedOpenNamesTheWebhookUnderItsKindsPrefix() {
        assertEquals(
                new WebhookAuditAnnotations.Annotation(
                        "failed-open.mutation.webhook.admission.k8s.io/round_0_index_2",
                        "sidecar.example.com",
                        false),
                WebhookAuditAnnotations.failedOpen(0, 2, hook(true)));
        assertEquals(
                new WebhookAuditAnnotations.Annotation(
                        "failed-open.validating.webhook.admission.k8s.io/round_0_index_1",
                        "sidecar.example.com",
                        false),
                WebhookAuditAnnotations.failedOpen(0, 1, hook(false)));
    }

    @Test
    void aWebhooksOwnAnnotationsAreRecordedUnderItsName() {
        assertEquals(
                List.of(
                        new WebhookAuditAnnotations.Annotation(
                                "sidecar.example.com/decision", "allowed", false)),
                WebhookAuditAnnotations.own(hook(false), Map.of("decision", "allowed")));
    }
}
