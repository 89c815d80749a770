package io.kubepekko.api.admission.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WebhookIndexTest {

    private static ObjectNode configuration(String name, String conditions) {
        try {
            return (ObjectNode)
                    Json.MAPPER.readTree(
                            ("{'metadata':{'name':'"
                                            + name
                                            + "','uid':'u'},'webhooks':[{'name':'a.b.c',"
                                            + "'clientConfig':{'url':'https://h'},"
                                            + "'sideEffects':'None','admissionReviewVersions':['v1']"
                                            + conditions
                                            + "}]}")
                                    .replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static WebhookRequest request() {
        return new WebhookRequest(
                "CREATE",
                new WebhookRequest.Gvk("", "v1", "ConfigMap"),
                new WebhookRequest.Gvr("", "v1", "configmaps"),
                "",
                "ns",
                "cm",
                UserInfo.of("alice", List.of()),
                Json.MAPPER.createObjectNode(),
                null,
                false,
                null);
    }

    @Test
    void conditionsAreCompiledOnceWhenTheIndexTakesTheConfiguration() {
        List<List<Webhook.MatchCondition>> compiled = new ArrayList<>();
        WebhookIndex index =
                new WebhookIndex(
                        conditions -> {
                            compiled.add(conditions);
                            return request -> new MatchConditions.Result.NoMatch("skip");
                        });
        index.put(
                false,
                configuration("c", ",'matchConditions':[{'name':'skip','expression':'false'}]"));
        index.put(true, configuration("plain", ""));

        assertEquals(List.of(List.of(new Webhook.MatchCondition("skip", "false"))), compiled);
        Webhook hook = index.validating().get(0);
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    new MatchConditions.Result.NoMatch("skip"),
                    MatchConditions.COMPILED.evaluate(hook, request()));
        }
        assertEquals(1, compiled.size());
        // A webhook without conditions is called without a compile.
        assertSame(MatchConditions.Compiled.NONE, index.mutating().get(0).conditions());
        assertEquals(
                MatchConditions.Result.MATCH,
                MatchConditions.COMPILED.evaluate(index.mutating().get(0), request()));
    }
}
