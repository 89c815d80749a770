package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.webhook.MatchConditions.Result;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CelMatchConditionsTest {

    /** Allows alice to create deployments in "apps-ns" and get /healthz; nothing else. */
    private final CelMatchConditions conditions =
            new CelMatchConditions(
                    a -> {
                        boolean deployments =
                                a.user().name().equals("alice")
                                        && a.resourceRequest()
                                        && a.apiGroup().equals("apps")
                                        && a.resource().equals("deployments")
                                        && a.namespace().equals("apps-ns")
                                        && a.verb().equals("create");
                        boolean healthz =
                                !a.resourceRequest()
                                        && a.path().equals("/healthz")
                                        && a.verb().equals("get");
                        return deployments || healthz
                                ? Decision.allow("fine by the test")
                                : Decision.noOpinion("");
                    });

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static WebhookRequest create(String namespace, String user) {
        return new WebhookRequest(
                "CREATE",
                new WebhookRequest.Gvk("apps", "v1", "Deployment"),
                new WebhookRequest.Gvr("apps", "v1", "deployments"),
                "",
                namespace,
                "web",
                UserInfo.of(user, List.of("devs", "system:authenticated")),
                obj(
                        "{'metadata':{'name':'web','namespace':'"
                                + namespace
                                + "','labels':{'app':'web'}},'spec':{'replicas':3}}"),
                null,
                false,
                obj("{'kind':'CreateOptions','apiVersion':'meta.k8s.io/v1'}"));
    }

    private Result evaluate(WebhookRequest request, String... expressions) {
        List<Webhook.MatchCondition> list = new ArrayList<>();
        for (int i = 0; i < expressions.length; i++) {
            list.add(new Webhook.MatchCondition("c" + i, expressions[i]));
        }
        return conditions.compile(list).evaluate(request);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "object.metadata.name == 'web'",
                "object.spec.replicas > 2",
                "oldObject == null",
                "request.operation == 'CREATE'",
                "request.kind.kind == 'Deployment' && request.kind.group == 'apps'",
                "request.resource.resource == 'deployments' && request.resource.version == 'v1'",
                "request.requestResource.resource == 'deployments'",
                "request.name == 'web' && request.namespace == 'apps-ns'",
                "request.userInfo.username == 'alice' && 'devs' in request.userInfo.groups",
                "!request.dryRun",
                "request.options.kind == 'CreateOptions'",
                "!has(request.subResource)",
                "object.metadata.labels.exists(k, k == 'app')",
                "'web'.upperAscii() == 'WEB' && 'a,b'.split(',').size() == 2",
                "object.metadata.name.matches('^w.b$')",
                "'abc 123 de45'.find('[0-9]+') == '123' && 'abc'.find('[0-9]+') == ''",
                "'abc 123 de45'.findAll('[0-9]+') == ['123', '45']",
                "'a1b2c3'.findAll('[0-9]', 2) == ['1', '2'] && 'a1'.findAll('[0-9]', 0) == []",
                "object.?spec.?paused.orValue(false) == false",
                "sets.contains(['a', 'b'], ['a'])",
                "[1, 2, 2].isSorted() && !['b', 'a'].isSorted() && [].isSorted()",
                "[3, 1, 2].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [1u, 2u].sum() == 3u",
                "[3, 1, 2].min() == 1 && ['b', 'c', 'a'].max() == 'c'",
                "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2"
                        + " && ['a'].indexOf('z') == -1",
                "'abcb'.indexOf('b') == 1 && 'abcb'.lastIndexOf('b') == 3",
                "object.metadata.labels.map(k, k).indexOf('app') == 0",
                "object.metadata.labels.map(k, k).isSorted()"
                        + " && object.metadata.labels.map(k, k).max() == 'app'",
                "authorizer.group('apps').resource('deployments').namespace('apps-ns')"
                        + ".check('create').allowed()",
                "authorizer.requestResource.check('create').allowed()",
                "authorizer.requestResource.check('create').reason() == 'fine by the test'",
                "!authorizer.requestResource.check('delete').allowed()",
                "authorizer.path('/healthz').check('get').allowed()",
            })
    void conditionsThatHold(String expression) {
        assertEquals(Result.MATCH, evaluate(create("apps-ns", "alice"), expression));
    }

    @Test
    void aServiceAccountIsAskedAboutAsItself() {
        assertEquals(
                new Result.NoMatch("c0"),
                evaluate(
                        create("apps-ns", "alice"),
                        "authorizer.serviceAccount('apps-ns', 'bot').group('apps')"
                                + ".resource('deployments').namespace('apps-ns').check('create')"
                                + ".allowed()"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "authorizer.path('').check('get').allowed()|path must not be empty",
                "authorizer.path('  ').check('get').allowed()|path must not be empty",
                "authorizer.group('apps').resource(' ').check('get').allowed()"
                        + "|resource must not be empty",
                "authorizer.serviceAccount('default', 'invalid@*name').path('/x').check('get')"
                        + ".allowed()|Invalid service account name",
                "authorizer.serviceAccount('not@a#valid!namespace', 'validname').path('/x')"
                        + ".check('get').allowed()|Invalid service account namespace",
            })
    void theAuthorizerLibraryRefusesWhatKubesRefuses(String expression, String error) {
        assertEquals(
                new Result.Failed("expression '" + expression + "' resulted in error: " + error),
                evaluate(create("apps-ns", "alice"), expression));
    }

    @Test
    void kubesExclusionExamplesSkipTheWebhook() {
        WebhookRequest admin = create("kube-system", "system:admin");
        assertEquals(
                new Result.NoMatch("exclude-kube-system"),
                conditions
                        .compile(
                                List.of(
                                        new Webhook.MatchCondition(
                                                "exclude-kube-system",
                                                "'kube-system' != object.metadata.namespace")))
                        .evaluate(admin));
        assertEquals(
                new Result.NoMatch("c0"),
                evaluate(admin, "!(request.userInfo.username == 'system:admin')"));
        assertEquals(
                Result.MATCH,
                evaluate(
                        create("apps-ns", "alice"),
                        "!(request.userInfo.username == 'system:admin')",
                        "'kube-system' != object.metadata.namespace"));
    }

    @Test
    void theFirstFalseConditionSkipsEvenAfterAnError() {
        assertEquals(
                new Result.NoMatch("c1"),
                evaluate(create("apps-ns", "alice"), "object.nope == 1", "false", "true"));
    }

    @Test
    void anErrorWithNoneFalseIsAFailureInKubesWords() {
        assertEquals(
                new Result.Failed(
                        "expression 'object.nope == 1' resulted in error: "
                                + "key 'nope' is not present in map."),
                evaluate(create("apps-ns", "alice"), "true", "object.nope == 1"));
        assertEquals(
                new Result.Failed(
                        "[expression 'object.a == 1' resulted in error: key 'a' is not present in"
                                + " map., expression 'object.b == 1' resulted in error: key 'b' is"
                                + " not present in map.]"),
                evaluate(create("apps-ns", "alice"), "object.a == 1", "object.b == 1"));
    }

    @Test
    void namespaceObjectIsDeclaredButNotBoundForWebhooks() {
        assertEquals(
                new Result.Failed(
                        "expression 'namespaceObject.metadata.name == \"x\"' resulted in error:"
                                + " no such attribute(s): namespaceObject"),
                evaluate(create("apps-ns", "alice"), "namespaceObject.metadata.name == \"x\""));
    }

    @Test
    void aBadRegexIsAnEvaluationError() {
        assertEquals(
                new Result.Failed(
                        "expression 'object.metadata.name.find(\"(\") == \"\"' resulted in error:"
                                + " error parsing regexp: missing closing ): `(`"),
                evaluate(create("apps-ns", "alice"), "object.metadata.name.find(\"(\") == \"\""));
    }

    @Test
    void listsOfWhatDoesNotCompareFailWhenEvaluated() {
        assertEquals(
                new Result.Failed(
                        "expression '[{'a': 1}, {'b': 2}].isSorted()' resulted in error: no such"
                                + " overload"),
                evaluate(create("apps-ns", "alice"), "[{'a': 1}, {'b': 2}].isSorted()"));
    }

    @Test
    void theMinOfNothingIsAnError() {
        assertEquals(
                new Result.Failed(
                        "expression '[1].filter(x, x > 1).min() == 0' resulted in error:"
                                + " min called on empty list"),
                evaluate(create("apps-ns", "alice"), "[1].filter(x, x > 1).min() == 0"));
    }

    @Test
    void aDeleteHasNoObject() {
        WebhookRequest delete =
                new WebhookRequest(
                        "DELETE",
                        new WebhookRequest.Gvk("", "v1", "ConfigMap"),
                        new WebhookRequest.Gvr("", "v1", "configmaps"),
                        "",
                        "ns",
                        "cm",
                        UserInfo.of("alice", List.of()),
                        null,
                        obj("{'metadata':{'name':'cm'},'data':{'k':'v'}}"),
                        true,
                        null);
        assertEquals(
                Result.MATCH,
                evaluate(
                        delete,
                        "object == null",
                        "oldObject.data.k == 'v'",
                        "request.dryRun",
                        "request.kind.group == ''",
                        "request.options == null"));
        assertEquals(
                new Result.Failed(
                        "expression 'object.metadata.name == \"cm\"' resulted in error: "
                                + "Error resolving field 'metadata'. Field selections must be"
                                + " performed on messages or maps."),
                evaluate(delete, "object.metadata.name == \"cm\""));
    }

    /**
     * A webhook's condition cannot hold a request for long: an expression's comprehensions together
     * get 1e6 iterations (kube's per-call cost limit is of the same order), then it is an error,
     * which the failure policy decides on.
     */
    @Test
    void nestedComprehensionsPastTheBudgetAreAnErrorNotAHang() {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < 200; i++) {
            items.append(i == 0 ? "" : ",").append(i);
        }
        WebhookRequest request =
                create("apps-ns", "alice").withObject(obj("{'items':[" + items + "]}"));
        String expression = "object.items.all(a, object.items.all(b, object.items.all(c, true)))";
        assertEquals(
                new Result.Failed(
                        "expression '"
                                + expression
                                + "' resulted in error: Iteration budget exceeded: 1000000"),
                evaluate(request, expression));
    }
}
