package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.security.Pki;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The review resources (TokenReview, SelfSubjectReview, SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview) and the {@code
 * serviceaccounts/{name}/token} subresource, served against test doubles of {@link AccessReviews}
 * and {@link TokenIssuer}: discovered with the verb create only, answered 201 with the SPI's answer
 * in {@code status}, validated with kube's messages, and never stored.
 */
class ReviewsIT {
    private static final String AUTHN = "/apis/authentication.k8s.io/v1";
    private static final String AUTHZ = "/apis/authorization.k8s.io/v1";
    private static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";
    private static final Instant EXPIRY = Instant.parse("2030-01-02T03:04:05Z");

    /** The last subject and attributes the double was asked about. */
    private static final AtomicReference<AccessReviews.Subject> asked = new AtomicReference<>();

    private static final AtomicReference<AccessReviews.Attributes> attributes =
            new AtomicReference<>();

    private static final AtomicReference<Optional<ObjectNode>> boundSeen = new AtomicReference<>();

    /**
     * Allows alice and the group admins, has no opinion otherwise; authenticates the token "good"
     * as jane.
     */
    private static final AccessReviews DOUBLE =
            new AccessReviews() {
                @Override
                public TokenReview reviewToken(String token, List<String> audiences) {
                    if (!token.equals("good")) {
                        return TokenReview.unauthenticated("invalid bearer token");
                    }
                    return TokenReview.authenticated(
                            new UserInfo(
                                    "jane", "u-1", List.of("g1"), Map.of("scope", List.of("a"))),
                            audiences.isEmpty() ? List.of("api") : audiences);
                }

                @Override
                public Decision authorize(Subject subject, Attributes a) {
                    asked.set(subject);
                    attributes.set(a);
                    return subject.user().equals("alice")
                                    || subject.groups().contains("admins")
                                    || subject.groups().contains(UserInfo.MASTERS)
                            ? Decision.allow("double: allowed")
                            : Decision.noOpinion("double: no rule");
                }

                @Override
                public Rules rules(UserInfo subject, String namespace) {
                    return new Rules(
                            List.of(
                                    new ResourceRule(
                                            List.of("get"),
                                            List.of(""),
                                            List.of("pods"),
                                            List.of(namespace))),
                            List.of(new NonResourceRule(List.of("get"), List.of("/healthz"))),
                            true,
                            "double: partial");
                }
            };

    private static final TokenIssuer ISSUER =
            new TokenIssuer() {
                @Override
                public Result issue(
                        ObjectNode serviceAccount, Request request, Optional<ObjectNode> bound) {
                    boundSeen.set(bound);
                    return new Issued(
                            "token-of-"
                                    + serviceAccount.path("metadata").path("name").asText()
                                    + "-for-"
                                    + String.join(",", request.audiences())
                                    + "-"
                                    + request.expirationSeconds(),
                            EXPIRY);
                }

                @Override
                public List<String> defaultAudiences() {
                    return List.of("https://kubernetes.default.svc");
                }
            };

    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.startWithReviews(DOUBLE, ISSUER);
        api.create(
                "/api/v1/namespaces/default/serviceaccounts",
                json("{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'robot'}}"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    // --- discovery

    @Test
    void discoveryListsTheReviewsWithTheVerbCreateOnly() {
        assertResources(
                AUTHN,
                List.of(
                        "selfsubjectreviews:false:SelfSubjectReview",
                        "tokenreviews:false:TokenReview"));
        assertResources(
                AUTHZ,
                List.of(
                        "localsubjectaccessreviews:true:LocalSubjectAccessReview",
                        "selfsubjectaccessreviews:false:SelfSubjectAccessReview",
                        "selfsubjectrulesreviews:false:SelfSubjectRulesReview",
                        "subjectaccessreviews:false:SubjectAccessReview"));
    }

    private static void assertResources(String groupVersion, List<String> expected) {
        ObjectNode list = api.get(groupVersion).assertCode(200).json();
        List<String> seen = new ArrayList<>();
        for (JsonNode r : list.path("resources")) {
            seen.add(
                    r.path("name").asText()
                            + ":"
                            + r.path("namespaced").asBoolean()
                            + ":"
                            + r.path("kind").asText());
            assertEquals(
                    "[\"create\"]", r.path("verbs").toString(), r.path("name").asText() + " verbs");
            assertFalse(r.has("shortNames"), r.path("name").asText() + " has no short names");
            assertFalse(r.has("storageVersionHash"), r.path("name").asText() + " is not stored");
            assertEquals(
                    r.path("kind").asText().toLowerCase(),
                    r.path("singularName").asText(),
                    "singularName");
        }
        assertEquals(expected, seen.stream().sorted().toList());
    }

    @Test
    void discoveryListsTheTokenSubresourceOfServiceAccounts() {
        ObjectNode core = api.get("/api/v1").assertCode(200).json();
        JsonNode token = null;
        for (JsonNode r : core.path("resources")) {
            if (r.path("name").asText().equals("serviceaccounts/token")) {
                token = r;
            }
        }
        assertTrue(token != null, "serviceaccounts/token is listed");
        assertEquals("authentication.k8s.io", token.path("group").asText());
        assertEquals("v1", token.path("version").asText());
        assertEquals("TokenRequest", token.path("kind").asText());
        assertEquals("[\"create\"]", token.path("verbs").toString());
    }

    @Test
    void aggregatedDiscoveryListsTheReviewsWithoutStorage() {
        ObjectNode all =
                api.get(
                                "/apis",
                                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
                        .assertCode(200)
                        .json();
        JsonNode sar = null;
        List<String> groups = new ArrayList<>();
        for (JsonNode group : all.path("items")) {
            groups.add(group.path("metadata").path("name").asText());
            for (JsonNode r : group.path("versions").path(0).path("resources")) {
                if (r.path("resource").asText().equals("subjectaccessreviews")) {
                    sar = r;
                }
            }
        }
        assertEquals(
                List.of(
                        "apps",
                        "events.k8s.io",
                        "authentication.k8s.io",
                        "authorization.k8s.io",
                        "autoscaling",
                        "batch"),
                groups.subList(0, 6),
                "kube-apiserver's group order");
        assertEquals(
                json(
                        "{'resource':'subjectaccessreviews','responseKind':{'group':'authorization.k8s.io',"
                                + "'version':'v1','kind':'SubjectAccessReview'},'scope':'Cluster',"
                                + "'singularResource':'subjectaccessreview','verbs':['create']}"),
                Json.string(sar));
    }

    @Test
    void openApiDescribesOnlyTheCreateWithKubesSchemas() {
        ObjectNode doc = api.get("/openapi/v3/apis/authorization.k8s.io/v1").assertCode(200).json();
        JsonNode paths = doc.path("paths");
        List<String> operations = new ArrayList<>();
        paths.path("/apis/authorization.k8s.io/v1/subjectaccessreviews")
                .fieldNames()
                .forEachRemaining(operations::add);
        assertEquals(List.of("parameters", "post"), operations.stream().sorted().toList());
        assertEquals(
                "createAuthorizationV1NamespacedLocalSubjectAccessReview",
                paths.path(
                                "/apis/authorization.k8s.io/v1/namespaces/{namespace}/localsubjectaccessreviews")
                        .path("post")
                        .path("operationId")
                        .asText());
        JsonNode schema =
                doc.path("components")
                        .path("schemas")
                        .path("io.k8s.api.authorization.v1.SubjectAccessReviewSpec");
        assertTrue(
                schema.path("properties").has("resourceAttributes"),
                "kube's schema, not a minimal one: " + schema);
        ObjectNode core = api.get("/openapi/v3/api/v1").assertCode(200).json();
        assertEquals(
                "createCoreV1NamespacedServiceAccountToken",
                core.path("paths")
                        .path("/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token")
                        .path("post")
                        .path("operationId")
                        .asText());
        assertTrue(
                core.path("components")
                        .path("schemas")
                        .has("io.k8s.api.authentication.v1.TokenRequest"));
    }

    // --- authentication.k8s.io

    @Test
    void tokenReviewAnswersWithTheAuthenticatedUser() {
        ObjectNode out =
                api.post(
                                AUTHN + "/tokenreviews",
                                json(
                                        "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenReview',"
                                                + "'spec':{'token':'good','audiences':['vault']}}"))
                        .assertCode(201)
                        .json();
        assertEquals("TokenReview", out.path("kind").asText());
        assertTrue(out.path("metadata").path("creationTimestamp").isNull(), out::toString);
        assertEquals(
                json(
                        "{'authenticated':true,'user':{'username':'jane','uid':'u-1','groups':['g1'],"
                                + "'extra':{'scope':['a']}},'audiences':['vault']}"),
                out.path("status").toString());
        assertEquals("good", out.path("spec").path("token").asText(), "the spec is echoed");
    }

    @Test
    void tokenReviewOfABadTokenIsUnauthenticatedWithTheError() {
        ObjectNode out =
                api.post(
                                AUTHN + "/tokenreviews",
                                json(
                                        "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenReview',"
                                                + "'spec':{'token':'bad'}}"))
                        .assertCode(201)
                        .json();
        assertEquals(
                json("{'user':{},'error':'invalid bearer token'}"), out.path("status").toString());
    }

    @Test
    void tokenReviewWithoutATokenIsABadRequest() {
        api.post(
                        AUTHN + "/tokenreviews",
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenReview','spec':{}}"))
                .assertStatus(
                        400, "BadRequest", "token is required for TokenReview in authentication");
    }

    @Test
    void selfSubjectReviewAnswersWithTheRequester() {
        ObjectNode out =
                api.post(
                                AUTHN + "/selfsubjectreviews",
                                json(
                                        "{'apiVersion':'authentication.k8s.io/v1','kind':'SelfSubjectReview'}"))
                        .assertCode(201)
                        .json();
        assertEquals("SelfSubjectReview", out.path("kind").asText());
        assertTrue(
                out.path("metadata").path("creationTimestamp").isTextual(),
                "a new object, stamped now: " + out);
        assertEquals(
                json(
                        "{'userInfo':{'username':'kubernetes-admin','groups':['system:masters','system:authenticated']}}"),
                out.path("status").toString());
    }

    // --- authorization.k8s.io

    @Test
    void subjectAccessReviewAsksAboutTheSpecsSubject() {
        ObjectNode out =
                api.post(
                                AUTHZ + "/subjectaccessreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview',"
                                                + "'spec':{'user':'alice','groups':['g'],'resourceAttributes':"
                                                + "{'namespace':'ns','verb':'get','resource':'pods','name':'p'}}}"))
                        .assertCode(201)
                        .json();
        assertEquals(
                json("{'allowed':true,'reason':'double: allowed'}"), out.path("status").toString());
        assertTrue(out.path("metadata").path("creationTimestamp").isNull(), out::toString);
        // kube's field manager runs on every create: the echo carries the request's fields (kube
        // also marks the pointer struct resourceAttributes itself with ".", which ours omits).
        JsonNode managed = out.path("metadata").path("managedFields").path(0);
        assertEquals("Java-http-client", managed.path("manager").asText(), out::toString);
        assertEquals("Update", managed.path("operation").asText());
        assertEquals("authorization.k8s.io/v1", managed.path("apiVersion").asText());
        ObjectNode fields = (ObjectNode) managed.path("fieldsV1").path("f:spec").deepCopy();
        ((ObjectNode) fields.path("f:resourceAttributes")).remove(".");
        assertEquals(
                json(
                        "{'f:groups':{},'f:resourceAttributes':{'f:name':{},'f:namespace':{},"
                                + "'f:resource':{},'f:verb':{}},'f:user':{}}"),
                fields.toString());
        assertEquals("alice", asked.get().user());
        assertEquals(List.of("g"), asked.get().groups());
        assertEquals(
                new AccessReviews.ResourceAttributes("ns", "get", "", "", "pods", "", "p", "", ""),
                attributes.get());
    }

    @Test
    void subjectAccessReviewWithoutADecisionIsNeitherAllowedNorDenied() {
        ObjectNode out =
                api.post(
                                AUTHZ + "/subjectaccessreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview',"
                                                + "'spec':{'groups':['nobody'],'nonResourceAttributes':"
                                                + "{'path':'/healthz','verb':'get'}}}"))
                        .assertCode(201)
                        .json();
        assertEquals(
                json("{'allowed':false,'reason':'double: no rule'}"),
                out.path("status").toString());
        assertEquals(new AccessReviews.NonResourceAttributes("/healthz", "get"), attributes.get());
        assertEquals("", asked.get().user(), "a review may name only groups");
    }

    @Test
    void subjectAccessReviewNeedsExactlyOneKindOfAttributesAndASubject() {
        api.post(
                        AUTHZ + "/subjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview','spec':{}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        ".authorization.k8s.io \"\" is invalid: [spec.resourceAttributes: Invalid"
                                + " value: null: exactly one of nonResourceAttributes or"
                                + " resourceAttributes must be specified, spec.user: Invalid value:"
                                + " \"\": at least one of user or group must be specified]");
        api.post(
                        AUTHZ + "/subjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview',"
                                        + "'spec':{'user':'a','resourceAttributes':{'verb':'get'},"
                                        + "'nonResourceAttributes':{'path':'/x','verb':'get'}}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        ".authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid"
                                + " value: authorization.NonResourceAttributes{Path:\"/x\","
                                + " Verb:\"get\"}: cannot be specified in combination with"
                                + " resourceAttributes");
    }

    @Test
    void subjectAccessReviewMetadataMustBeEmpty() {
        ObjectNode status =
                api.post(
                                AUTHZ + "/subjectaccessreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview',"
                                                + "'metadata':{'name':'x'},'spec':{'user':'a',"
                                                + "'resourceAttributes':{'verb':'get'}}}"))
                        .assertStatusMessageStartsWith(
                                422,
                                "Invalid",
                                ".authorization.k8s.io \"\" is invalid: metadata: Invalid value:"
                                        + " v1.ObjectMeta{Name:\"x\", GenerateName:\"\",");
        assertTrue(status.path("message").asText().endsWith("}: must be empty"), status::toString);
    }

    @Test
    void localSubjectAccessReviewTakesThePathsNamespace() {
        ObjectNode out =
                api.post(
                                "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'LocalSubjectAccessReview',"
                                                + "'spec':{'user':'bob','resourceAttributes':"
                                                + "{'namespace':'default','verb':'list','resource':'secrets'}}}"))
                        .assertCode(201)
                        .json();
        assertEquals("default", out.path("metadata").path("namespace").asText());
        assertTrue(out.path("metadata").path("creationTimestamp").isNull(), out::toString);
        assertEquals(
                json("{'allowed':false,'reason':'double: no rule'}"),
                out.path("status").toString());
    }

    @Test
    void localSubjectAccessReviewMustAskAboutItsOwnNamespace() {
        api.post(
                        "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'LocalSubjectAccessReview',"
                                        + "'spec':{'user':'bob','resourceAttributes':"
                                        + "{'namespace':'other','verb':'list','resource':'secrets'}}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes.namespace:"
                                + " Invalid value: \"other\": must match metadata.namespace");
        api.post(
                        "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'LocalSubjectAccessReview',"
                                        + "'metadata':{'namespace':'other'},'spec':{'user':'bob',"
                                        + "'resourceAttributes':{'namespace':'other','verb':'list'}}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the namespace of the provided object does not match the namespace sent on"
                                + " the request");
    }

    @Test
    void selfSubjectAccessReviewAsksAboutTheRequester() {
        ObjectNode out =
                api.post(
                                AUTHZ + "/selfsubjectaccessreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'SelfSubjectAccessReview',"
                                                + "'spec':{'resourceAttributes':{'namespace':'default',"
                                                + "'verb':'create','resource':'pods'}}}"))
                        .assertCode(201)
                        .json();
        assertEquals(
                json("{'allowed':true,'reason':'double: allowed'}"), out.path("status").toString());
        assertEquals(Pki.ADMIN_USER, asked.get().user());
        api.post(
                        AUTHZ + "/selfsubjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'SelfSubjectAccessReview','spec':{}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        ".authorization.k8s.io \"\" is invalid: spec.resourceAttributes: Invalid"
                                + " value: null: exactly one of nonResourceAttributes or"
                                + " resourceAttributes must be specified");
    }

    @Test
    void selfSubjectRulesReviewAnswersANewObjectWithTheRules() {
        ObjectNode out =
                api.post(
                                AUTHZ + "/selfsubjectrulesreviews",
                                json(
                                        "{'apiVersion':'authorization.k8s.io/v1','kind':'SelfSubjectRulesReview',"
                                                + "'spec':{'namespace':'default'}}"))
                        .assertCode(201)
                        .json();
        assertEquals(
                json(
                        "{'kind':'SelfSubjectRulesReview','apiVersion':'authorization.k8s.io/v1',"
                                + "'metadata':{'creationTimestamp':null},'spec':{},'status':{"
                                + "'resourceRules':[{'verbs':['get'],'apiGroups':[''],'resources':['pods'],"
                                + "'resourceNames':['default']}],"
                                + "'nonResourceRules':[{'verbs':['get'],'nonResourceURLs':['/healthz']}],"
                                + "'incomplete':true,'evaluationError':'double: partial'}}"),
                Json.string(out));
        api.post(
                        AUTHZ + "/selfsubjectrulesreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'SelfSubjectRulesReview','spec':{}}"))
                .assertStatus(400, "BadRequest", "no namespace on request");
    }

    // --- other verbs

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                AUTHN + "/tokenreviews",
                AUTHN + "/selfsubjectreviews",
                AUTHZ + "/subjectaccessreviews",
                AUTHZ + "/namespaces/default/localsubjectaccessreviews",
                AUTHZ + "/selfsubjectaccessreviews",
                AUTHZ + "/selfsubjectrulesreviews"
            })
    void reviewsAreOnlyCreated(String collection) {
        api.get(collection).assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
        api.get(collection + "?watch=true").assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
        api.delete(collection).assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
        // No route under the collection at all, as for bindings.
        api.get(collection + "/x")
                .assertStatus(404, "NotFound", "the server could not find the requested resource");
        api.delete(collection + "/x")
                .assertStatus(404, "NotFound", "the server could not find the requested resource");
    }

    @Test
    void aClusterScopedReviewHasNoNamespacedPath() {
        api.post(
                        AUTHZ + "/namespaces/default/subjectaccessreviews",
                        json(
                                "{'apiVersion':'authorization.k8s.io/v1','kind':'SubjectAccessReview',"
                                        + "'spec':{'user':'a','resourceAttributes':{'verb':'get'}}}"))
                .assertStatus(404, "NotFound", "the server could not find the requested resource");
    }

    // --- serviceaccounts/{name}/token

    private static final String TOKEN = "/api/v1/namespaces/default/serviceaccounts/robot/token";

    @Test
    void tokenRequestIssuesATokenWithKubesDefaults() {
        ObjectNode out =
                api.post(
                                TOKEN,
                                json(
                                        "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest','spec':{}}"))
                        .assertCode(201)
                        .json();
        // The defaulted lifetime is the field manager's: decoding defaults it.
        JsonNode managed = ((ObjectNode) out.path("metadata")).remove("managedFields").path(0);
        assertEquals(
                "{\"f:spec\":{\"f:expirationSeconds\":{}}}", managed.path("fieldsV1").toString());
        assertEquals(
                json(
                        "{'kind':'TokenRequest','apiVersion':'authentication.k8s.io/v1',"
                                + "'metadata':{'namespace':'default','creationTimestamp':null},"
                                + "'spec':{'audiences':['https://kubernetes.default.svc'],"
                                + "'expirationSeconds':3600,'boundObjectRef':null},"
                                + "'status':{'token':'token-of-robot-for-https://kubernetes.default.svc-3600',"
                                + "'expirationTimestamp':'2030-01-02T03:04:05Z'}}"),
                Json.string(out));
        assertEquals(Optional.empty(), boundSeen.get());
    }

    @Test
    void tokenRequestForAMissingServiceAccountIsNotFound() {
        api.post(
                        "/api/v1/namespaces/default/serviceaccounts/ghost/token",
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest','spec':{}}"))
                .assertStatus(404, "NotFound", "serviceaccounts \"ghost\" not found");
    }

    @Test
    void tokenRequestValidatesTheLifetime() {
        api.post(
                        TOKEN,
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                        + "'spec':{'expirationSeconds':60}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds:"
                                + " Invalid value: 60: may not specify a duration less than 10"
                                + " minutes");
    }

    @Test
    void tokenRequestBindsToAnExistingObjectWithItsUid() {
        ObjectNode secret =
                api.create(
                        "/api/v1/namespaces/default/secrets",
                        json("{'apiVersion':'v1','kind':'Secret','metadata':{'name':'bound'}}"));
        String uid = secret.path("metadata").path("uid").asText();
        ObjectNode out =
                api.post(
                                TOKEN,
                                json(
                                        "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                                + "'spec':{'audiences':['a1'],'boundObjectRef':"
                                                + "{'kind':'Secret','apiVersion':'v1','name':'bound','uid':'"
                                                + uid
                                                + "'}}}"))
                        .assertCode(201)
                        .json();
        assertEquals("token-of-robot-for-a1-3600", out.path("status").path("token").asText());
        assertEquals("bound", boundSeen.get().orElseThrow().path("metadata").path("name").asText());

        api.post(
                        TOKEN,
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                        + "'spec':{'boundObjectRef':{'kind':'Secret','apiVersion':'v1',"
                                        + "'name':'bound','uid':'other'}}}"))
                .assertStatus(
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on Secret \"bound\": the UID in the bound"
                                + " object reference (other) does not match the UID in record. The"
                                + " object might have been deleted and then recreated");
        api.post(
                        TOKEN,
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                        + "'spec':{'boundObjectRef':{'kind':'Pod','apiVersion':'v1','name':'gone'}}}"))
                .assertStatus(404, "NotFound", "pods \"gone\" not found");
        api.post(
                        TOKEN,
                        json(
                                "{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                                        + "'spec':{'boundObjectRef':{'kind':'Deployment','apiVersion':'apps/v1','name':'d'}}}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "cannot bind token to object of type apps/v1, Kind=Deployment");
    }

    @Test
    void tokenRequestIsOnlyCreated() {
        api.get(TOKEN).assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
        api.delete(TOKEN).assertStatus(405, "MethodNotAllowed", NOT_ALLOWED);
    }
}
