package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.admission.webhook.MatchConditions.Result;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.auth.node.NodeAuthorizer;
import io.kubepekko.api.auth.node.NodeGraph;
import io.kubepekko.api.auth.node.NodeIdentifier;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.selector.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code AuthzSelectors} CEL library: {@code fieldSelector} and {@code labelSelector} on a
 * resource check, put in the authorization attributes as kube's {@code resourceCheckVal} does.
 */
class CelAuthzSelectorsTest {

    private static WebhookRequest podCreate(UserInfo user) {
        return new WebhookRequest(
                "CREATE",
                new WebhookRequest.Gvk("", "v1", "Pod"),
                new WebhookRequest.Gvr("", "v1", "pods"),
                "",
                "ns",
                "p",
                user,
                null,
                null,
                false,
                null);
    }

    private static Result evaluate(
            CelMatchConditions conditions, WebhookRequest request, String expression) {
        return conditions
                .compile(List.of(new Webhook.MatchCondition("c", expression)))
                .evaluate(request);
    }

    @Test
    void theSelectorsReachTheAuthorizationAttributes() {
        List<AuthorizationAttributes> asked = new ArrayList<>();
        CelMatchConditions conditions =
                new CelMatchConditions(
                        a -> {
                            asked.add(a);
                            return Decision.allow("");
                        });
        assertEquals(
                Result.MATCH,
                evaluate(
                        conditions,
                        podCreate(UserInfo.of("alice", List.of())),
                        "authorizer.group('').resource('pods').fieldSelector('spec.nodeName=n')"
                                + ".labelSelector('app=x,tier in (web)').check('list').allowed()"));
        AuthorizationAttributes a = asked.get(0);
        assertEquals(FieldSelector.parse("spec.nodeName=n"), a.fieldSelector());
        assertEquals(LabelSelector.parse("app=x,tier in (web)"), a.labelSelector());
        assertEquals("list", a.verb());
        assertEquals("pods", a.resource());
        assertEquals("*", a.apiVersion());
    }

    @Test
    void aSelectorThatDoesNotParseAddsNoRequirementAndNoError() {
        List<AuthorizationAttributes> asked = new ArrayList<>();
        CelMatchConditions conditions =
                new CelMatchConditions(
                        a -> {
                            asked.add(a);
                            return Decision.allow("");
                        });
        assertEquals(
                Result.MATCH,
                evaluate(
                        conditions,
                        podCreate(UserInfo.of("alice", List.of())),
                        "authorizer.requestResource.fieldSelector('no operator')"
                                + ".labelSelector('app in (').check('list').allowed()"));
        assertEquals(FieldSelector.everything(), asked.get(0).fieldSelector());
        assertEquals(LabelSelector.everything(), asked.get(0).labelSelector());
    }

    /** The node authorizer lets a node list only its own pods: the field selector says which. */
    @Test
    void theNodeAuthorizerReadsTheFieldSelector() {
        CelMatchConditions conditions = new CelMatchConditions(NodeAuthorizer.of(new NodeGraph()));
        WebhookRequest byNode =
                podCreate(
                        UserInfo.of(
                                NodeIdentifier.userName("n1"),
                                List.of(NodeIdentifier.NODES_GROUP, UserInfo.AUTHENTICATED)));
        assertEquals(
                Result.MATCH,
                evaluate(
                        conditions,
                        byNode,
                        "authorizer.group('').resource('pods')"
                                + ".fieldSelector('spec.nodeName=n1').check('list').allowed()"));
        assertEquals(
                new Result.NoMatch("c"),
                evaluate(
                        conditions,
                        byNode,
                        "authorizer.group('').resource('pods')"
                                + ".fieldSelector('spec.nodeName=n2').check('list').allowed()"));
        assertEquals(
                new Result.NoMatch("c"),
                evaluate(
                        conditions,
                        byNode,
                        "authorizer.group('').resource('pods').check('list').allowed()"));
    }
}
