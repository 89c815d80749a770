package io.kubepekko.api.admission.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebhookRulesTest {

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Webhook hook(String fields) {
        return Webhook.of(
                        obj(
                                "{'metadata':{'name':'c','uid':'u'},'webhooks':[{'name':'a.b.c',"
                                        + "'clientConfig':{'url':'https://h'},"
                                        + (fields.contains("sideEffects")
                                                ? ""
                                                : "'sideEffects':'None',")
                                        + "'admissionReviewVersions':['v1'],"
                                        + fields
                                        + "}]}"),
                        false)
                .get(0);
    }

    private static WebhookRequest request(
            String operation,
            String group,
            String version,
            String resource,
            String sub,
            String ns) {
        return new WebhookRequest(
                operation,
                new WebhookRequest.Gvk(group, version, "Kind"),
                new WebhookRequest.Gvr(group, version, resource),
                sub,
                ns,
                "x",
                UserInfo.of("alice", List.of("devs")),
                obj("{'metadata':{'name':'x','labels':{'app':'web'}}}"),
                null,
                false,
                null);
    }

    @ParameterizedTest(name = "{0} {1}/{2} {3}/{4} ns={5} against {6} → {7}")
    @CsvSource(
            delimiter = '|',
            value = {
                "CREATE|''|v1|pods|''|n|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods']|true",
                "UPDATE|''|v1|pods|''|n|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods']|false",
                "UPDATE|''|v1|pods|''|n|'operations':['*'],'apiGroups':['*'],'apiVersions':['*'],'resources':['*']|true",
                "UPDATE|''|v1|pods|status|n|'operations':['*'],'apiGroups':['*'],'apiVersions':['*'],'resources':['*']|false",
                "UPDATE|''|v1|pods|status|n|'operations':['*'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods/status']|true",
                "UPDATE|''|v1|pods|status|n|'operations':['*'],'apiGroups':[''],'apiVersions':['v1'],'resources':['*/*']|true",
                "UPDATE|''|v1|pods|''|n|'operations':['*'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods/*']|true",
                "CREATE|apps|v1|deployments|''|n|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['*']|false",
                "CREATE|''|v1|pods|''|n|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods'],'scope':'Cluster'|false",
                "CREATE|''|v1|nodes|''|''|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['nodes'],'scope':'Cluster'|true",
                "CREATE|''|v1|namespaces|''|x|'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['namespaces'],'scope':'Namespaced'|false",
            })
    void rulesMatchAsKubes(
            String op,
            String group,
            String version,
            String resource,
            String sub,
            String ns,
            String rule,
            boolean matches) {
        Webhook h = hook("'rules':[{" + rule + "}]");
        assertEquals(
                matches,
                WebhookRules.matchingVersion(
                                h, request(op, group, version, resource, sub, ns), List.of())
                        .isPresent());
    }

    /**
     * An update is a candidate for a create-only webhook too (an update of a missing object is a
     * create), a delete is not; the order stays the configured one.
     */
    @Test
    void candidatesOfAnUpdateIncludeTheWebhooksOfItsCreate() {
        Webhook creates =
                hook(
                        "'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],"
                                + "'resources':['pods']}]");
        Webhook deletes =
                hook(
                        "'rules':[{'operations':['DELETE'],'apiGroups':[''],'apiVersions':['v1'],"
                                + "'resources':['pods']}]");
        List<Webhook> both = List.of(deletes, creates);
        assertEquals(
                List.of(creates),
                WebhookRules.candidates(
                        both, request("UPDATE", "", "v1", "pods", "", "n"), List.of()));
        assertEquals(
                List.of(deletes),
                WebhookRules.candidates(
                        both, request("DELETE", "", "v1", "pods", "", "n"), List.of()));
    }

    @Test
    void equivalentMatchPolicySendsTheVersionTheRuleNames() {
        WebhookRules.Version v2 =
                new WebhookRules.Version(
                        new WebhookRequest.Gvr("autoscaling", "v2", "horizontalpodautoscalers"),
                        new WebhookRequest.Gvk("autoscaling", "v2", "HorizontalPodAutoscaler"));
        WebhookRequest v1 =
                request("CREATE", "autoscaling", "v1", "horizontalpodautoscalers", "", "n");
        String rule =
                "'rules':[{'operations':['*'],'apiGroups':['autoscaling'],'apiVersions':['v2'],"
                        + "'resources':['horizontalpodautoscalers']}]";
        assertEquals(Optional.of(v2), WebhookRules.matchingVersion(hook(rule), v1, List.of(v2)));
        assertEquals(
                Optional.empty(),
                WebhookRules.matchingVersion(
                        hook(rule + ",'matchPolicy':'Exact'"), v1, List.of(v2)));
    }

    @Test
    void selectorsMatchLabelsOfObjectsAndNamespace() {
        WebhookRequest r = request("CREATE", "", "v1", "pods", "", "n");
        assertTrue(WebhookRules.objectSelectorMatches(hook("'objectSelector':{}"), r));
        assertTrue(
                WebhookRules.objectSelectorMatches(
                        hook("'objectSelector':{'matchLabels':{'app':'web'}}"), r));
        assertFalse(
                WebhookRules.objectSelectorMatches(
                        hook("'objectSelector':{'matchLabels':{'app':'db'}}"), r));
        Webhook team = hook("'namespaceSelector':{'matchLabels':{'team':'a'}}");
        assertTrue(WebhookRules.namespaceSelectorMatches(team, r, ns -> Map.of("team", "a")));
        assertFalse(WebhookRules.namespaceSelectorMatches(team, r, ns -> Map.of()));
        // kube asks no namespace of other cluster-scoped resources
        WebhookRequest node = request("CREATE", "", "v1", "nodes", "", "");
        assertTrue(WebhookRules.namespaceSelectorMatches(team, node, ns -> Map.of()));
        // a Namespace created is judged by its own labels
        WebhookRequest namespace = request("CREATE", "", "v1", "namespaces", "", "");
        assertFalse(
                WebhookRules.namespaceSelectorMatches(team, namespace, ns -> Map.of("team", "a")));
    }

    @Test
    void reviewCarriesTheRequestAndAnswersAreVerifiedAsKube() {
        WebhookRequest r = request("CREATE", "", "v1", "pods", "", "n");
        ObjectNode review =
                AdmissionReviews.request(
                        "id-1", r, new WebhookRules.Version(r.resource(), r.kind()));
        assertEquals("admission.k8s.io/v1", review.path("apiVersion").asText());
        assertEquals("id-1", review.at("/request/uid").asText());
        assertEquals("pods", review.at("/request/resource/resource").asText());
        assertEquals("pods", review.at("/request/requestResource/resource").asText());
        assertEquals("alice", review.at("/request/userInfo/username").asText());
        assertEquals("devs", review.at("/request/userInfo/groups/0").asText());
        assertEquals("web", review.at("/request/object/metadata/labels/app").asText());
        assertTrue(review.at("/request/oldObject").isNull());
        assertFalse(review.at("/request/dryRun").asBoolean());

        String ok =
                "{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','response':{'uid':'id-1',";
        assertEquals(
                new AdmissionReviews.Malformed("expected response.uid=\"id-1\", got \"other\""),
                answer(
                        "{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview','response':{'uid':'other','allowed':true}}",
                        false));
        assertEquals(
                new AdmissionReviews.Malformed("webhook response was absent"),
                answer("{'apiVersion':'admission.k8s.io/v1','kind':'AdmissionReview'}", false));
        assertEquals(
                new AdmissionReviews.Malformed("validating webhook may not return response.patch"),
                answer(ok + "'allowed':true,'patch':'W10=','patchType':'JSONPatch'}}", false));
        assertEquals(
                new AdmissionReviews.Malformed(
                        "webhook returned response.patch but not response.patchType"),
                answer(ok + "'allowed':true,'patch':'W10='}}", true));
        assertEquals(new AdmissionReviews.Malformed(null), answer("garbage", true));
        AdmissionReviews.Verdict v =
                assertInstanceOf(
                        AdmissionReviews.Verdict.class,
                        answer(ok + "'allowed':false,'warnings':['w']}}", false));
        assertEquals(List.of("w"), v.warnings());
    }

    private static AdmissionReviews.Answer answer(String json, boolean mutating) {
        return AdmissionReviews.response(
                json.replace('\'', '"').getBytes(StandardCharsets.UTF_8), "id-1", mutating);
    }

    @Test
    void refusalsInKubesWords() {
        ApiStatus denied = AdmissionReviews.denied("a.b.c", obj("{'message':'no'}"));
        assertEquals(400, denied.code());
        assertEquals("admission webhook \"a.b.c\" denied the request: no", denied.message());
        assertEquals(
                "admission webhook \"a.b.c\" denied the request without explanation",
                AdmissionReviews.denied("a.b.c", null).message());
        assertEquals(403, AdmissionReviews.denied("a.b.c", obj("{'code':403}")).code());
        ApiStatus dry = AdmissionReviews.dryRunUnsupported("a.b.c");
        assertEquals(400, dry.code());
        assertEquals("admission webhook \"a.b.c\" does not support dry run", dry.message());
        ApiStatus failed = AdmissionReviews.failedCalling("a.b.c", "failed to call webhook: x");
        assertEquals(500, failed.code());
        assertEquals(
                "Internal error occurred: failed calling webhook \"a.b.c\": failed to call webhook: x",
                failed.message());
        assertFalse(hook("'sideEffects':'Some'").safeOnDryRun());
        assertTrue(hook("'sideEffects':'NoneOnDryRun'").safeOnDryRun());
    }
}
