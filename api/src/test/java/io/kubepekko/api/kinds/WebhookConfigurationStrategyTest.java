package io.kubepekko.api.kinds;

import static io.kubepekko.api.kinds.KindStrategiesTest.create;
import static io.kubepekko.api.kinds.KindStrategiesTest.defaulted;
import static io.kubepekko.api.kinds.KindStrategiesTest.obj;
import static io.kubepekko.api.kinds.KindStrategiesTest.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookConfigurationStrategyTest {

    private static final String GROUP = "admissionregistration.k8s.io";
    private static final String RULE =
            "{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['pods']}";

    private static String hook(String fields) {
        return "{'webhooks':[{'name':'a.example.com','clientConfig':{'url':'https://h/x'},"
                + "'sideEffects':'None','admissionReviewVersions':['v1'],'rules':["
                + RULE
                + "]"
                + (fields.isEmpty() ? "" : "," + fields)
                + "}]}";
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"})
    void defaultsAsKubeV1(String kind) {
        var o =
                defaulted(
                        GROUP,
                        kind,
                        "{'webhooks':[{'name':'a.b.c','clientConfig':{'service':{'namespace':'n','name':'s'}},'rules':["
                                + RULE
                                + "]}]}");
        var h = o.get("webhooks").get(0);
        assertEquals("Fail", h.get("failurePolicy").asText());
        assertEquals("Equivalent", h.get("matchPolicy").asText());
        assertEquals(obj("{}"), h.get("namespaceSelector"));
        assertEquals(obj("{}"), h.get("objectSelector"));
        assertEquals(10, h.get("timeoutSeconds").asInt());
        assertEquals("*", h.get("rules").get(0).get("scope").asText());
        assertEquals(443, h.at("/clientConfig/service/port").asInt());
        assertEquals(
                kind.startsWith("Mutating") ? "Never" : null,
                h.has("reinvocationPolicy") ? h.get("reinvocationPolicy").asText() : null);
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        "sideEffects required",
                        "{'webhooks':[{'name':'a.example.com','clientConfig':{'url':'https://h'},'admissionReviewVersions':['v1']}]}",
                        List.of(
                                "webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun")),
                Arguments.of(
                        "name not fully qualified, review versions missing",
                        "{'webhooks':[{'name':'hook','clientConfig':{'url':'https://h'},'sideEffects':'Some'}]}",
                        List.of(
                                "webhooks[0].name: Invalid value: \"hook\": should be a domain with at least three segments separated by dots",
                                "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\"",
                                "webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1")),
                Arguments.of(
                        "unknown review version",
                        hook("").replace("['v1']", "['v2']"),
                        List.of(
                                "webhooks[0].admissionReviewVersions: Invalid value: [\"v2\"]: must include at least one of v1, v1beta1")),
                Arguments.of(
                        "duplicate names",
                        "{'webhooks':[{'name':'a.b.c','clientConfig':{'url':'https://h'},'sideEffects':'None','admissionReviewVersions':['v1']},"
                                + "{'name':'a.b.c','clientConfig':{'url':'https://h'},'sideEffects':'None','admissionReviewVersions':['v1']}]}",
                        List.of("webhooks[1].name: Duplicate value: \"a.b.c\"")),
                Arguments.of(
                        "both url and service",
                        hook("").replace(
                                        "{'url':'https://h/x'}",
                                        "{'url':'https://h','service':{'namespace':'n','name':'s'}}"),
                        List.of(
                                "webhooks[0].clientConfig: Required value: exactly one of url or service is required")),
                Arguments.of(
                        "url: http, user, query, fragment",
                        hook("").replace("https://h/x", "http://u:p@h/x?a=b#f"),
                        List.of(
                                "webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                                "webhooks[0].clientConfig.url: Invalid value: \"u:p\": user information is not permitted in the URL",
                                "webhooks[0].clientConfig.url: Invalid value: \"f\": fragments are not permitted in the URL",
                                "webhooks[0].clientConfig.url: Invalid value: \"a=b\": query parameters are not permitted in the URL")),
                Arguments.of(
                        "service without name, bad port and path",
                        hook("").replace(
                                        "{'url':'https://h/x'}",
                                        "{'service':{'namespace':'n','port':0,'path':'a/b'}}"),
                        List.of(
                                "webhooks[0].clientConfig.service.name: Required value",
                                "webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive",
                                "webhooks[0].clientConfig.service.path: Invalid value: \"a/b\": must start with a '/'",
                                "webhooks[0].clientConfig.service.path: Invalid value: \"a/b\": segment[0] may not be empty")),
                Arguments.of(
                        "timeout out of range, unknown policies",
                        hook("'timeoutSeconds':31,'failurePolicy':'Maybe','matchPolicy':'Close'"),
                        List.of(
                                "webhooks[0].failurePolicy: Unsupported value: \"Maybe\": supported values: \"Fail\", \"Ignore\"",
                                "webhooks[0].matchPolicy: Unsupported value: \"Close\": supported values: \"Equivalent\", \"Exact\"",
                                "webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds")),
                Arguments.of(
                        "rules: empty operations and resources, wildcard mixes, bad scope",
                        hook("").replace(
                                        RULE,
                                        "{'operations':[],'apiGroups':['*','apps'],'apiVersions':['v1'],'resources':[],'scope':'Everywhere'},"
                                                + "{'operations':['*','CREATE','PATCH'],'apiGroups':[''],'apiVersions':['v1'],'resources':['*/*','pods']}"),
                        List.of(
                                "webhooks[0].rules[0].operations: Required value",
                                "webhooks[0].rules[0].apiGroups: Invalid value: [\"*\",\"apps\"]: if '*' is present, must not specify other API groups",
                                "webhooks[0].rules[0].resources: Required value",
                                "webhooks[0].rules[0].scope: Unsupported value: \"Everywhere\": supported values: \"*\", \"Cluster\", \"Namespaced\"",
                                "webhooks[0].rules[1].operations: Invalid value: [\"*\",\"CREATE\",\"PATCH\"]: if '*' is present, must not specify other operations",
                                "webhooks[0].rules[1].operations[2]: Unsupported value: \"PATCH\": supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\"",
                                "webhooks[0].rules[1].resources: Invalid value: [\"*/*\",\"pods\"]: if '*/*' is present, must not specify other resources")),
                Arguments.of(
                        "match conditions: empty expression, bad and duplicate names",
                        hook(
                                "'matchConditions':[{'name':'a b','expression':' '},{'name':'x','expression':'true'},{'name':'x','expression':'true'}]"),
                        List.of(
                                "webhooks[0].matchConditions[0].expression: Required value",
                                "webhooks[0].matchConditions[0].name: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
                                "webhooks[0].matchConditions[2].name: Duplicate value: \"x\"")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void validatesAsKube(String name, String json, List<String> expected) {
        assertEquals(expected, create(GROUP, "ValidatingWebhookConfiguration", json));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"})
    void acceptsAValidConfiguration(String kind) {
        assertEquals(List.of(), create(GROUP, kind, hook("")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"MutatingWebhookConfiguration"})
    void mutatingChecksReinvocationPolicy(String kind) {
        assertEquals(
                List.of(
                        "webhooks[0].reinvocationPolicy: Unsupported value: \"Always\": supported values: \"IfNeeded\", \"Never\""),
                create(GROUP, kind, hook("'reinvocationPolicy':'Always'")));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ValidatingWebhookConfiguration"})
    void updateKeepsWhatTheOldObjectAlreadyBroke(String kind) {
        String old = hook("").replace("'None'", "'Some'");
        assertEquals(List.of(), update(GROUP, kind, old, old));
        assertEquals(
                List.of(
                        "webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: \"None\", \"NoneOnDryRun\""),
                update(GROUP, kind, hook(""), old));
    }
}
