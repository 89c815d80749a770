package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.pekko.util.ByteString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the request path hands the audit, as the server has it (bodies as bytes, in the encoding
 * they travelled in), and what lands in the log's {@code requestObject} and {@code responseObject}:
 * per level, per verb, per encoding.
 */
class AuditHandleTest {

    private static final InstantSource CLOCK =
            InstantSource.fixed(Instant.parse("2026-01-02T03:04:05Z"));
    private static final UserInfo ALICE = UserInfo.of("alice", List.of("system:authenticated"));
    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");

    private static final String CREATED_JSON =
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\","
                    + "\"namespace\":\"ns\",\"uid\":\"u-1\",\"resourceVersion\":\"5\"},"
                    + "\"data\":{\"k\":\"v\"}}";
    private static final String SENT_JSON =
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},"
                    + "\"data\":{\"k\":\"v\"}}";
    private static final String CONFLICT_JSON =
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                    + "\"message\":\"configmaps \\\"c\\\" already exists\",\"reason\":\"AlreadyExists\","
                    + "\"details\":{\"name\":\"c\",\"kind\":\"configmaps\"},\"code\":409}";

    private static AuditPolicy policy(String rules) {
        String text = "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n" + rules;
        return ((AuditPolicyReader.Result.Loaded)
                        AuditPolicyReader.read(text.getBytes(StandardCharsets.UTF_8)))
                .policy();
    }

    private static ByteString bytes(String text) {
        return ByteString.fromString(text, StandardCharsets.UTF_8);
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AuthorizationAttributes attrs(Verb verb, String name) {
        return AuthorizationAttributes.resource(
                ALICE, verb.wireName(), "ns", "", "v1", "configmaps", "", name);
    }

    /** The lines one request leaves in a log with {@code rules}, told what {@code script} says. */
    private static List<JsonNode> audited(
            String rules, AuthorizationAttributes attrs, Consumer<AuditHandle> script) {
        AuditLogTest.Capture out = new AuditLogTest.Capture();
        try (Auditor auditor =
                new Auditor(
                        Optional.of(policy(rules)),
                        AuditLogTest.log(out, AuditMode.BLOCKING, 16),
                        AuditMode.BLOCKING,
                        CLOCK,
                        () -> "id-1")) {
            AuditHandle handle =
                    auditor.begin(attrs, "/x", List.of("127.0.0.1"), "", Optional.empty(), false);
            script.accept(handle);
        }
        return out.lines.stream().map(line -> json(line.strip())).toList();
    }

    private static JsonNode completed(List<JsonNode> events) {
        return events.stream()
                .filter(e -> e.path("stage").asText().equals("ResponseComplete"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ResponseComplete in " + events));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "None,            false, false, false",
        "Metadata,        true,  false, false",
        "Request,         true,  true,  false",
        "RequestResponse, true,  true,  true"
    })
    void aCreateRecordsTheObjectsItsLevelAsksFor(
            String level, boolean logged, boolean requestObject, boolean responseObject) {
        List<JsonNode> events =
                audited(
                        "- level: " + level + "\n",
                        attrs(Verb.CREATE, ""),
                        h -> {
                            h.requestBody(Verb.CREATE, "application/json", bytes(SENT_JSON));
                            h.responseComplete(201, "application/json", bytes(CREATED_JSON));
                        });
        if (!logged) {
            assertEquals(List.of(), events);
            return;
        }
        assertFalse(events.get(0).has("requestObject"), "RequestReceived precedes the body");
        JsonNode done = completed(events);
        // A create names its object in the body only: kube's objectRef takes it from there.
        assertEquals("c", done.at("/objectRef/name").asText());
        assertEquals(json("{\"metadata\":{},\"code\":201}"), done.get("responseStatus"));
        assertEquals(requestObject, done.has("requestObject"));
        assertEquals(responseObject, done.has("responseObject"));
        if (requestObject) {
            assertEquals(json(SENT_JSON), done.get("requestObject"));
        }
        if (responseObject) {
            assertEquals(json(CREATED_JSON), done.get("responseObject"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"Metadata, false", "Request, false", "RequestResponse, true"})
    void aStatusLendsItsFieldsAtEveryLevelAndIsTheResponseObjectAtRequestResponse(
            String level, boolean responseObject) {
        JsonNode done =
                completed(
                        audited(
                                "- level: " + level + "\n",
                                attrs(Verb.CREATE, ""),
                                h ->
                                        h.responseComplete(
                                                409, "application/json", bytes(CONFLICT_JSON))));
        assertEquals(
                json(
                        "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"c\\\""
                                + " already exists\",\"reason\":\"AlreadyExists\",\"details\":"
                                + "{\"name\":\"c\",\"kind\":\"configmaps\"},\"code\":409}"),
                done.get("responseStatus"));
        assertEquals(responseObject, done.has("responseObject"));
        if (responseObject) {
            assertEquals(json(CONFLICT_JSON), done.get("responseObject"));
        }
    }

    @Test
    void omittedStagesCarryNoObjectsAnywhere() {
        List<JsonNode> events =
                audited(
                        "- level: RequestResponse\n  omitStages: [ResponseComplete]\n",
                        attrs(Verb.CREATE, ""),
                        h -> {
                            h.requestBody(Verb.CREATE, "application/json", bytes(SENT_JSON));
                            h.responseComplete(201, "application/json", bytes(CREATED_JSON));
                        });
        assertEquals(1, events.size());
        assertEquals("RequestReceived", events.get(0).get("stage").asText());
        assertFalse(events.get(0).has("requestObject"));
        assertFalse(events.get(0).has("responseObject"));
    }

    @Test
    void yamlAndProtobufBodiesAreRecordedAsJson() {
        String yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n";
        byte[] protobuf = ProtobufBodies.builtin().encode(json(CREATED_JSON), CONFIG_MAP);
        JsonNode done =
                completed(
                        audited(
                                "- level: RequestResponse\n",
                                attrs(Verb.CREATE, ""),
                                h -> {
                                    h.requestBody(
                                            Verb.CREATE,
                                            "application/yaml; charset=utf-8",
                                            bytes(yaml));
                                    h.responseComplete(
                                            201,
                                            ProtobufBodies.MEDIA_TYPE,
                                            ByteString.fromArray(protobuf));
                                }));
        assertEquals(json(SENT_JSON), done.get("requestObject"));
        assertEquals(json(CREATED_JSON), done.get("responseObject"));
    }

    @Test
    void aProtobufRequestNamesItsObjectAndIsRecordedAsJson() {
        byte[] protobuf = ProtobufBodies.builtin().encode(json(SENT_JSON), CONFIG_MAP);
        JsonNode done =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.CREATE, ""),
                                h -> {
                                    h.requestBody(
                                            Verb.CREATE,
                                            ProtobufBodies.MEDIA_TYPE,
                                            ByteString.fromArray(protobuf));
                                    h.responseComplete(201, null);
                                }));
        assertEquals("c", done.at("/objectRef/name").asText());
        assertEquals(json(SENT_JSON), done.get("requestObject"));
    }

    /**
     * A create's or update's object is recorded as kube's codec decodes it (the decoding the route
     * gives: here a marker field), in JSON whatever its encoding; a patch and DeleteOptions as
     * sent.
     */
    @Test
    void aCreateOrUpdateObjectIsRecordedDecodedAPatchOrDeleteAsSent() {
        UnaryOperator<JsonNode> decoding =
                body -> ((ObjectNode) body.deepCopy()).put("decoded", true);
        ByteString protobuf =
                ByteString.fromArray(ProtobufBodies.builtin().encode(json(SENT_JSON), CONFIG_MAP));
        for (Verb verb : List.of(Verb.CREATE, Verb.UPDATE)) {
            for (String type : List.of("application/json", ProtobufBodies.MEDIA_TYPE)) {
                ByteString body = type.equals("application/json") ? bytes(SENT_JSON) : protobuf;
                JsonNode done =
                        completed(
                                audited(
                                        "- level: Request\n",
                                        attrs(verb, verb == Verb.CREATE ? "" : "c"),
                                        h -> {
                                            h.requestBody(verb, type, body, decoding);
                                            h.responseComplete(200, null);
                                        }));
                assertEquals("c", done.at("/objectRef/name").asText(), verb + " " + type);
                assertTrue(done.at("/requestObject/decoded").asBoolean(), verb + " " + type);
                assertEquals("v", done.at("/requestObject/data/k").asText(), verb + " " + type);
            }
        }
        String patch = "{\"data\":{\"k\":\"w\"}}";
        JsonNode patched =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.PATCH, "c"),
                                h -> {
                                    h.requestBody(
                                            Verb.PATCH,
                                            "application/merge-patch+json",
                                            bytes(patch),
                                            decoding);
                                    h.responseComplete(200, null);
                                }));
        assertEquals(json(patch), patched.get("requestObject"));
        String options =
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":0}";
        JsonNode deleted =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.DELETE, "c"),
                                h -> {
                                    h.requestBody(
                                            Verb.DELETE,
                                            "application/json",
                                            bytes(options),
                                            decoding);
                                    h.responseComplete(200, null);
                                }));
        assertEquals(json(options), deleted.get("requestObject"));
    }

    @Test
    void prettyJsonIsRecordedCompactOnOneLine() {
        String pretty = Json.string(json(CREATED_JSON)).replace(",", ",\n  ");
        JsonNode done =
                completed(
                        audited(
                                "- level: RequestResponse\n",
                                attrs(Verb.GET, "c"),
                                h -> h.responseComplete(200, "application/json", bytes(pretty))));
        assertEquals(json(CREATED_JSON), done.get("responseObject"));
    }

    @Test
    void aPatchIsRecordedAsThePatchItself() {
        String jsonPatch = "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"w\"}]";
        JsonNode jsonPatched =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.PATCH, "c"),
                                h -> {
                                    h.requestBody(
                                            Verb.PATCH,
                                            "application/json-patch+json",
                                            bytes(jsonPatch));
                                    h.responseComplete(200, null);
                                }));
        assertEquals(json(jsonPatch), jsonPatched.get("requestObject"));

        String apply = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n";
        JsonNode applied =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.PATCH, "c"),
                                h -> {
                                    h.requestBody(
                                            Verb.PATCH,
                                            "application/apply-patch+yaml",
                                            bytes(apply));
                                    h.responseComplete(200, null);
                                }));
        assertEquals(json(SENT_JSON), applied.get("requestObject"));
    }

    @Test
    void aDeleteRecordsItsDeleteOptionsAndNothingWithoutABody() {
        String options =
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"propagationPolicy\":\"Foreground\"}";
        JsonNode withBody =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.DELETE, "c"),
                                h -> {
                                    h.requestBody(Verb.DELETE, null, bytes(options));
                                    h.responseComplete(200, null);
                                }));
        assertEquals(json(options), withBody.get("requestObject"));
        assertEquals("c", withBody.at("/objectRef/name").asText());

        JsonNode without =
                completed(
                        audited(
                                "- level: Request\n",
                                attrs(Verb.DELETE, "c"),
                                h -> {
                                    h.requestBody(Verb.DELETE, null, ByteString.emptyByteString());
                                    h.responseComplete(200, null);
                                }));
        assertFalse(without.has("requestObject"));
    }

    @Test
    void aBodyThatDoesNotDecodeIsLeftOutAndTheEventStillWritten() {
        JsonNode done =
                completed(
                        audited(
                                "- level: RequestResponse\n",
                                attrs(Verb.CREATE, ""),
                                h -> {
                                    h.requestBody(
                                            Verb.CREATE, "application/json", bytes("{\"metadata"));
                                    h.requestBody(Verb.CREATE, "text/plain", bytes(SENT_JSON));
                                    h.responseComplete(
                                            400, "application/json", bytes("not json at all"));
                                }));
        assertFalse(done.has("requestObject"), done.toString());
        assertFalse(done.has("responseObject"), done.toString());
        assertEquals(400, done.at("/responseStatus/code").asInt());
    }

    @Test
    void readsAndNonResourceRequestsRecordNoRequestObject() {
        JsonNode get =
                completed(
                        audited(
                                "- level: RequestResponse\n",
                                attrs(Verb.GET, "c"),
                                h -> {
                                    h.requestBody(Verb.GET, "application/json", bytes(SENT_JSON));
                                    h.responseComplete(
                                            200, "application/json", bytes(CREATED_JSON));
                                }));
        assertFalse(get.has("requestObject"));
        assertTrue(get.has("responseObject"));

        JsonNode version =
                completed(
                        audited(
                                "- level: RequestResponse\n",
                                AuthorizationAttributes.nonResource(ALICE, "get", "/version"),
                                h ->
                                        h.responseComplete(
                                                200,
                                                "application/json",
                                                bytes("{\"major\":\"1\"}"))));
        assertFalse(version.has("responseObject"), "kube omits bodies of non-resource requests");
    }

    @Test
    void aSecretIsRecordedWhereThePolicyAsksForItsBodyAndOnlyThere() {
        String secret =
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
                        + "\"data\":{\"password\":\"aHVudGVyMg==\"}}";
        AuthorizationAttributes createSecret =
                AuthorizationAttributes.resource(
                        ALICE, "create", "ns", "", "v1", "secrets", "", "");
        String rules =
                "- level: Metadata\n  resources: [{group: \"\", resources: [secrets]}]\n"
                        + "- level: RequestResponse\n";
        List<JsonNode> events =
                audited(
                        rules,
                        createSecret,
                        h -> {
                            h.requestBody(Verb.CREATE, "application/json", bytes(secret));
                            h.responseComplete(201, "application/json", bytes(secret));
                        });
        for (JsonNode e : events) {
            assertFalse(e.toString().contains("aHVudGVyMg=="), e.toString());
        }
        assertEquals("s", completed(events).at("/objectRef/name").asText());
    }
}
