package io.kubepekko.api.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Events as kube's audit filter emits them: shape, stages, bodies, and no credential in any. */
class RequestAuditTest {

    private static final Instant RECEIVED = Instant.parse("2026-01-02T03:04:05.123456789Z");
    private static final InstantSource CLOCK =
            InstantSource.fixed(Instant.parse("2026-01-02T03:04:06.5Z"));
    private static final String ID = "0f0c9d6e-3c1b-4c55-9d1f-2a3b4c5d6e7f";
    private static final UserInfo ALICE =
            new UserInfo(
                    "alice",
                    "u-1",
                    List.of("devs", UserInfo.AUTHENTICATED),
                    Map.of("scopes", List.of("a", "b")));
    private static final String TOKEN = "s3cr3t-bearer-token-value";

    private static AuditRequestFacts facts(String uri, boolean longRunning) {
        return new AuditRequestFacts(
                ID, uri, List.of("127.0.0.1"), "kubectl/v1.35.0", RECEIVED, longRunning);
    }

    private static RequestAuditConfig at(AuditLevel level, AuditStage... omit) {
        return new RequestAuditConfig(level, Set.of(omit), false);
    }

    private static AuthorizationAttributes createPod() {
        return AuthorizationAttributes.resource(ALICE, "create", "ns", "", "v1", "pods", "", "");
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void normalRequestRecordsReceivedThenCompleteInKubesShape() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE),
                        createPod(),
                        facts("/api/v1/namespaces/ns/pods?fieldManager=kubectl", false),
                        CLOCK);
        AuditEvent received = audit.received().orElseThrow();
        audit.authorized(Decision.allow("RBAC: allowed by RoleBinding \"edit/ns\""));
        JsonNode body =
                json(
                        "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web\","
                                + "\"managedFields\":[{\"manager\":\"kubectl\"}]}}");
        audit.requestObject(body);
        JsonNode created =
                json(
                        "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web\","
                                + "\"namespace\":\"ns\",\"uid\":\"p-1\",\"resourceVersion\":\"7\"}}");
        List<AuditEvent> complete = audit.responseComplete(201, created);
        assertEquals(1, complete.size());

        assertEquals(
                json(
                        "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\","
                                + "\"level\":\"RequestResponse\",\"auditID\":\""
                                + ID
                                + "\",\"stage\":\"RequestReceived\","
                                + "\"requestURI\":\"/api/v1/namespaces/ns/pods?fieldManager=kubectl\","
                                + "\"verb\":\"create\",\"user\":{\"username\":\"alice\",\"uid\":\"u-1\","
                                + "\"groups\":[\"devs\",\"system:authenticated\"],"
                                + "\"extra\":{\"scopes\":[\"a\",\"b\"]}},"
                                + "\"sourceIPs\":[\"127.0.0.1\"],\"userAgent\":\"kubectl/v1.35.0\","
                                + "\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"ns\","
                                + "\"apiVersion\":\"v1\"},"
                                + "\"requestReceivedTimestamp\":\"2026-01-02T03:04:05.123456Z\","
                                + "\"stageTimestamp\":\"2026-01-02T03:04:05.123456Z\"}"),
                received.toJson());

        JsonNode done = complete.get(0).toJson();
        List<String> order = new ArrayList<>();
        done.fieldNames().forEachRemaining(order::add);
        assertEquals(
                List.of(
                        "kind",
                        "apiVersion",
                        "level",
                        "auditID",
                        "stage",
                        "requestURI",
                        "verb",
                        "user",
                        "sourceIPs",
                        "userAgent",
                        "objectRef",
                        "responseStatus",
                        "requestObject",
                        "responseObject",
                        "requestReceivedTimestamp",
                        "stageTimestamp",
                        "annotations"),
                order);
        assertEquals("ResponseComplete", done.get("stage").asText());
        assertEquals(
                json(
                        "{\"resource\":\"pods\",\"namespace\":\"ns\",\"name\":\"web\","
                                + "\"apiVersion\":\"v1\"}"),
                done.get("objectRef"));
        assertEquals(json("{\"metadata\":{},\"code\":201}"), done.get("responseStatus"));
        assertEquals(body, done.get("requestObject"));
        assertEquals(created, done.get("responseObject"));
        assertEquals("2026-01-02T03:04:05.123456Z", done.get("requestReceivedTimestamp").asText());
        assertEquals("2026-01-02T03:04:06.500000Z", done.get("stageTimestamp").asText());
        assertEquals(
                json(
                        "{\"authorization.k8s.io/decision\":\"allow\","
                                + "\"authorization.k8s.io/reason\":"
                                + "\"RBAC: allowed by RoleBinding \\\"edit/ns\\\"\"}"),
                done.get("annotations"));
    }

    @Test
    void anAnnotationKeepsItsFirstValueAndTellsWhichWhenAnotherComes() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA),
                        createPod(),
                        facts("/api/v1/namespaces/ns/pods", false),
                        CLOCK);
        audit.received();
        assertEquals(Optional.empty(), audit.annotate("hook.example.com/item", "one"));
        // The same value again (every item of a deletecollection calls the same webhooks).
        assertEquals(Optional.empty(), audit.annotate("hook.example.com/item", "one"));
        // kube's audit context keeps the first value and logs the other.
        assertEquals(Optional.of("one"), audit.annotate("hook.example.com/item", "two"));
        // Below the request's level: neither recorded nor compared.
        assertEquals(
                Optional.empty(),
                audit.annotate("hook.example.com/item", "three", AuditLevel.REQUEST));
        assertEquals(
                Optional.empty(),
                audit.annotate("patch.example.com/item", "p", AuditLevel.REQUEST));

        JsonNode done = audit.responseComplete(201, json("{}")).get(0).toJson();
        assertEquals(json("{\"hook.example.com/item\":\"one\"}"), done.get("annotations"));
    }

    @Test
    void deniedRequestRecordsTheForbiddenStatusAndTheDecision() {
        AuthorizationAttributes get =
                AuthorizationAttributes.resource(ALICE, "get", "other", "", "v1", "pods", "", "x");
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA),
                        get,
                        facts("/api/v1/namespaces/other/pods/x", false),
                        CLOCK);
        audit.received();
        audit.authorized(Decision.noOpinion(""));
        JsonNode status =
                json(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                                + "\"message\":\"pods \\\"x\\\" is forbidden: User \\\"alice\\\" cannot get"
                                + " resource \\\"pods\\\" in API group \\\"\\\" in the namespace \\\"other\\\"\","
                                + "\"reason\":\"Forbidden\",\"details\":{\"name\":\"x\",\"kind\":\"pods\"},"
                                + "\"code\":403}");
        JsonNode done = audit.responseComplete(403, status).get(0).toJson();
        assertEquals(
                json(
                        "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"pods \\\"x\\\" is"
                                + " forbidden: User \\\"alice\\\" cannot get resource \\\"pods\\\" in API"
                                + " group \\\"\\\" in the namespace \\\"other\\\"\",\"reason\":\"Forbidden\","
                                + "\"details\":{\"name\":\"x\",\"kind\":\"pods\"},\"code\":403}"),
                done.get("responseStatus"));
        assertEquals(
                json(
                        "{\"authorization.k8s.io/decision\":\"forbid\","
                                + "\"authorization.k8s.io/reason\":\"\"}"),
                done.get("annotations"));
        // Metadata level: no bodies
        assertFalse(done.has("requestObject"));
        assertFalse(done.has("responseObject"));
    }

    @Test
    void watchRecordsResponseStartedWhenItsResponseBeginsThenComplete() {
        AuthorizationAttributes watch =
                AuthorizationAttributes.resource(ALICE, "watch", "ns", "", "v1", "pods", "", "");
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA),
                        watch,
                        facts("/api/v1/namespaces/ns/pods?watch=1", true),
                        CLOCK);
        List<String> stages = new ArrayList<>();
        audit.received().ifPresent(e -> stages.add(e.stage().wireName()));
        Optional<AuditEvent> started = audit.responseStarted(200);
        started.ifPresent(e -> stages.add(e.stage().wireName()));
        assertEquals(
                json("{\"metadata\":{},\"code\":200}"),
                started.orElseThrow().toJson().get("responseStatus"));
        assertEquals(Optional.empty(), audit.responseStarted(200));
        audit.responseComplete(200, null).forEach(e -> stages.add(e.stage().wireName()));
        assertEquals(List.of("RequestReceived", "ResponseStarted", "ResponseComplete"), stages);
    }

    @Test
    void normalRequestRecordsNoResponseStarted() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA), createPod(), facts("/api/v1/pods", false), CLOCK);
        audit.received();
        assertEquals(Optional.empty(), audit.responseStarted(201));
        assertEquals(
                List.of(AuditStage.RESPONSE_COMPLETE),
                audit.responseComplete(201, null).stream().map(AuditEvent::stage).toList());
    }

    @Test
    void omittedStagesAndLevelNoneRecordNothing() {
        RequestAudit omitting =
                RequestAudit.start(
                        at(AuditLevel.METADATA, AuditStage.REQUEST_RECEIVED),
                        createPod(),
                        facts("/api/v1/pods", false),
                        CLOCK);
        assertEquals(Optional.empty(), omitting.received());
        assertEquals(1, omitting.responseComplete(201, null).size());

        RequestAudit none =
                RequestAudit.start(
                        RequestAuditConfig.NONE, createPod(), facts("/api/v1/pods", false), CLOCK);
        assertEquals(Optional.empty(), none.received());
        assertEquals(List.of(), none.responseComplete(201, null));
    }

    @Test
    void panicRecordsKubesInternalErrorInsteadOfComplete() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA), createPod(), facts("/api/v1/pods", false), CLOCK);
        JsonNode panic = audit.panic("boom").orElseThrow().toJson();
        assertEquals("Panic", panic.get("stage").asText());
        assertEquals(
                json(
                        "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"APIServer panic'd: boom\","
                                + "\"reason\":\"InternalError\",\"code\":500}"),
                panic.get("responseStatus"));
        assertEquals(List.of(), audit.responseComplete(500, null));
    }

    @Test
    void requestLevelRecordsTheRequestBodyButNotTheResponse() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST), createPod(), facts("/api/v1/pods", false), CLOCK);
        audit.requestObject(json("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"}}"));
        JsonNode done = audit.responseComplete(201, json("{\"kind\":\"Pod\"}")).get(0).toJson();
        assertTrue(done.has("requestObject"));
        assertFalse(done.has("responseObject"));
    }

    @Test
    void omitManagedFieldsDropsThemFromObjectsAndListItems() {
        RequestAudit audit =
                RequestAudit.start(
                        new RequestAuditConfig(AuditLevel.REQUEST_RESPONSE, Set.of(), true),
                        createPod(),
                        facts("/api/v1/pods", false),
                        CLOCK);
        audit.requestObject(
                json("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\",\"managedFields\":[{}]}}"));
        JsonNode done =
                audit.responseComplete(
                                200,
                                json(
                                        "{\"kind\":\"PodList\",\"metadata\":{},\"items\":[{\"metadata\":"
                                                + "{\"name\":\"a\",\"managedFields\":[{}]}}]}"))
                        .get(0)
                        .toJson();
        assertEquals(json("{\"name\":\"a\"}"), done.at("/requestObject/metadata"));
        assertEquals(json("{\"name\":\"a\"}"), done.at("/responseObject/items/0/metadata"));
    }

    @Test
    void impersonatedUserIsRecordedBesideTheAuthenticatedOne() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.METADATA), createPod(), facts("/api/v1/pods", false), CLOCK);
        audit.impersonating(UserInfo.of("bob", List.of("team")));
        JsonNode done = audit.responseComplete(201, null).get(0).toJson();
        assertEquals("alice", done.at("/user/username").asText());
        assertEquals(
                json("{\"username\":\"bob\",\"groups\":[\"team\"]}"), done.get("impersonatedUser"));
    }

    @Test
    void longUserAgentIsCutAsKubeDoes() {
        AuditRequestFacts f =
                new AuditRequestFacts(ID, "/x", List.of(), "a".repeat(2000), RECEIVED, false);
        assertEquals("a".repeat(1024) + "...TRUNCATED", f.userAgent());
    }

    @Test
    void failedAuthenticationRecordsOneResponseStartedWithoutUserOrCredential() {
        Credentials presented = new Credentials(List.of(), Optional.of(TOKEN), false);
        AuthorizationAttributes attrs =
                AuthorizationAttributes.resource(
                        UserInfo.anonymous(), "list", "", "", "v1", "pods", "", "");
        JsonNode event =
                RequestAudit.authenticationFailed(
                                at(AuditLevel.METADATA),
                                attrs,
                                facts("/api/v1/pods", false),
                                presented,
                                401,
                                CLOCK)
                        .orElseThrow()
                        .toJson();
        assertEquals("ResponseStarted", event.get("stage").asText());
        assertEquals(json("{}"), event.get("user"));
        assertEquals(
                json(
                        "{\"metadata\":{},\"message\":\"Authentication failed, attempted: bearer\","
                                + "\"code\":401}"),
                event.get("responseStatus"));
        assertFalse(Json.string(event).contains(TOKEN));
    }

    @Test
    void noTokenReachesAnEventEvenAtRequestResponse() {
        AuthorizationAttributes review =
                AuthorizationAttributes.resource(
                        ALICE, "create", "", "authentication.k8s.io", "v1", "tokenreviews", "", "");
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE),
                        review,
                        facts("/apis/authentication.k8s.io/v1/tokenreviews", false),
                        CLOCK);
        audit.requestObject(
                json("{\"kind\":\"TokenReview\",\"spec\":{\"token\":\"" + TOKEN + "\"}}"));
        String reviewed = Json.string(audit.responseComplete(201, null).get(0).toJson());
        assertFalse(reviewed.contains(TOKEN), reviewed);

        AuthorizationAttributes tokenRequest =
                AuthorizationAttributes.resource(
                        ALICE, "create", "ns", "", "v1", "serviceaccounts", "token", "default");
        RequestAudit issuing =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE),
                        tokenRequest,
                        facts("/api/v1/namespaces/ns/serviceaccounts/default/token", false),
                        CLOCK);
        String issued =
                Json.string(
                        issuing.responseComplete(
                                        201,
                                        json(
                                                "{\"kind\":\"TokenRequest\",\"apiVersion\":\"authentication.k8s.io/v1\","
                                                        + "\"status\":{\"token\":\""
                                                        + TOKEN
                                                        + "\"}}"))
                                .get(0)
                                .toJson());
        assertFalse(issued.contains(TOKEN), issued);
    }

    @Test
    void bodiesAreDecodedOnlyWhenTheEventIsLaidOut() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE),
                        createPod(),
                        facts("/api/v1/namespaces/ns/pods", false),
                        CLOCK);
        AtomicInteger decoded = new AtomicInteger();
        AuditBody counted =
                () -> {
                    decoded.incrementAndGet();
                    return Optional.of(json("{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"}}"));
                };
        audit.requestObject(json("{\"name\":\"web\"}"), counted);
        AuditEvent done = audit.responseComplete(AuditResponseStatus.ofCode(201), counted).get(0);
        assertEquals(0, decoded.get(), "decoded on the request's thread");
        assertEquals("web", done.objectRef().name(), "the metadata was read at once");
        JsonNode laidOut = done.toJson();
        assertEquals(2, decoded.get());
        assertEquals("web", laidOut.at("/requestObject/metadata/name").asText());
        assertEquals("web", laidOut.at("/responseObject/metadata/name").asText());
    }

    @Test
    void aBodyThatDoesNotDecodeLeavesItsFieldOut() {
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE), createPod(), facts("/x", false), CLOCK);
        audit.requestObject(json("{}"), Optional::empty);
        JsonNode done =
                audit.responseComplete(AuditResponseStatus.ofCode(201), Optional::empty)
                        .get(0)
                        .toJson();
        assertFalse(done.has("requestObject"));
        assertFalse(done.has("responseObject"));
    }

    @Test
    void aPatchIsRecordedFromLevelRequestAndNamesNothing() {
        AuthorizationAttributes patch =
                AuthorizationAttributes.resource(ALICE, "patch", "ns", "", "v1", "pods", "", "web");
        JsonNode ops = json("[{\"op\":\"remove\",\"path\":\"/metadata/labels\"}]");
        for (AuditLevel level : List.of(AuditLevel.METADATA, AuditLevel.REQUEST)) {
            RequestAudit audit = RequestAudit.start(at(level), patch, facts("/x", false), CLOCK);
            audit.requestPatch(AuditBody.of(ops));
            JsonNode done = audit.responseComplete(200, null).get(0).toJson();
            assertEquals(level == AuditLevel.REQUEST, done.has("requestObject"), level.wireName());
            if (done.has("requestObject")) {
                assertEquals(ops, done.get("requestObject"));
            }
            assertEquals("web", done.at("/objectRef/name").asText());
        }
    }

    @Test
    void aStatusGivenApartIsTheOutcomeAndTheBodyOnlyAtRequestResponse() {
        AuditResponseStatus conflict =
                new AuditResponseStatus(409, "Failure", "exists", "AlreadyExists", null);
        RequestAudit request =
                RequestAudit.start(at(AuditLevel.REQUEST), createPod(), facts("/x", false), CLOCK);
        JsonNode done =
                request.responseComplete(conflict, AuditBody.of(json("{\"kind\":\"Status\"}")))
                        .get(0)
                        .toJson();
        assertEquals("AlreadyExists", done.at("/responseStatus/reason").asText());
        assertFalse(done.has("responseObject"));
    }

    @Test
    void aTokenReviewWithoutItsKindStillLosesItsToken() {
        AuthorizationAttributes review =
                AuthorizationAttributes.resource(
                        ALICE, "create", "", "authentication.k8s.io", "v1", "tokenreviews", "", "");
        RequestAudit audit =
                RequestAudit.start(
                        at(AuditLevel.REQUEST_RESPONSE),
                        review,
                        facts("/apis/authentication.k8s.io/v1/tokenreviews", false),
                        CLOCK);
        audit.requestObject(json("{\"spec\":{\"token\":\"" + TOKEN + "\"}}"));
        String line =
                Json.string(
                        audit.responseComplete(
                                        201,
                                        json(
                                                "{\"spec\":{\"token\":\""
                                                        + TOKEN
                                                        + "\"},\"status\":{}}"))
                                .get(0)
                                .toJson());
        assertFalse(line.contains(TOKEN), line);
    }
}
