package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.Decision;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AdmissionCelTest {

    @Test
    void stringsAreCelGosVersionTwoWithoutReverse() throws Exception {
        CelEval.assertTrue("'a,b'.split(',').join('-') == 'a-b' && strings.quote('x') == '\"x\"'");
        assertTrue(
                CelEval.compileError("'abc'.reverse() == 'cba'")
                        .contains("found no matching overload for 'reverse'"));
    }

    /** kube's libraries' types are type values named as kube names them. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "type(ip('1.2.3.4')) == net.IP",
                "type(cidr('10.0.0.0/8')) == net.CIDR",
                "type(ip('1.2.3.4')) != net.CIDR",
                "type(cidr('10.0.0.0/8').ip()) == net.IP",
                "type(quantity('1Gi')) == kubernetes.Quantity",
                "type(url('https://example.com')) == kubernetes.URL",
                "type(semver('1.2.3')) == kubernetes.Semver",
                "type(format.dns1123Label()) == kubernetes.NamedFormat",
                "type(authorizer) == kubernetes.authorization.Authorizer",
                "type(authorizer.path('/healthz')) == kubernetes.authorization.PathCheck",
                "type(authorizer.group('apps')) == kubernetes.authorization.GroupCheck",
                "type(authorizer.requestResource) == kubernetes.authorization.ResourceCheck",
                "type(authorizer.path('/healthz').check('get'))"
                        + " == kubernetes.authorization.Decision",
                "[ip('::1')].all(x, type(x) == net.IP)",
                "'%s'.format([type(ip('::1'))]) == 'net.IP'",
                "type(net.IP) == type",
            })
    void kubesTypesAreTypeValues(String expression) {
        assertEquals(
                MatchConditions.Result.MATCH,
                new CelMatchConditions(a -> Decision.allow(""))
                        .compile(List.of(new Webhook.MatchCondition("c", expression)))
                        .evaluate(
                                new WebhookRequest(
                                        "CREATE",
                                        new WebhookRequest.Gvk("", "v1", "ConfigMap"),
                                        new WebhookRequest.Gvr("", "v1", "configmaps"),
                                        "",
                                        "ns",
                                        "cm",
                                        UserInfo.of("alice", List.of()),
                                        null,
                                        null,
                                        false,
                                        null)),
                expression);
    }
}
