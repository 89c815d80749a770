package io.kubepekko.api.auth.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The reviews' validation and answers, and the interim answers of a server that checks nothing. */
class ReviewsTest {
    private static final UserInfo ADMIN =
            UserInfo.of("system:admin", List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED));
    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");

    private static Review.Context context(String namespace) {
        return new Review.Context(namespace, ADMIN, AccessReviews.alwaysAllow(), NOW);
    }

    private static ObjectNode obj(String singleQuoted) {
        return Json.parseTrusted(singleQuoted.replace('\'', '"').getBytes());
    }

    private static String refusal(Review review, String body, String namespace) {
        Review.Answer answer = review.answer(obj(body), context(namespace));
        assertTrue(answer instanceof Review.Answer.Refused, answer.toString());
        ApiStatus status = ((Review.Answer.Refused) answer).status();
        return status.code() + " " + status.message();
    }

    private static ObjectNode answered(Review review, ObjectNode body, Review.Context context) {
        Review.Answer answer = review.answer(body, context);
        assertTrue(answer instanceof Review.Answer.Answered, answer.toString());
        return ((Review.Answer.Answered) answer).object();
    }

    @Test
    void alwaysAllowAllowsWithoutAReasonAsKubesAlwaysAllowAuthorizer() {
        ObjectNode out =
                answered(
                        Reviews.SELF_SUBJECT_ACCESS_REVIEW,
                        obj(
                                "{'kind':'SelfSubjectAccessReview','apiVersion':'authorization.k8s.io/v1',"
                                        + "'metadata':{'creationTimestamp':null},"
                                        + "'spec':{'resourceAttributes':{'verb':'create','resource':'pods'}}}"),
                        context(null));
        assertEquals(
                "{\"kind\":\"SelfSubjectAccessReview\",\"apiVersion\":\"authorization.k8s.io/v1\","
                        + "\"metadata\":{\"creationTimestamp\":null},"
                        + "\"spec\":{\"resourceAttributes\":{\"verb\":\"create\",\"resource\":\"pods\"}},"
                        + "\"status\":{\"allowed\":true}}",
                Json.string(out));
    }

    @Test
    void alwaysAllowGrantsEveryRule() {
        ObjectNode out =
                answered(
                        Reviews.SELF_SUBJECT_RULES_REVIEW,
                        obj(
                                "{'kind':'SelfSubjectRulesReview','apiVersion':'authorization.k8s.io/v1',"
                                        + "'spec':{'namespace':'default'}}"),
                        context(null));
        assertEquals(
                "{\"resourceRules\":[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}],"
                        + "\"nonResourceRules\":[{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}],"
                        + "\"incomplete\":false}",
                Json.string(out.get("status")));
    }

    @Test
    void withoutATokenAuthenticatorATokenIsNotAuthenticated() {
        ObjectNode out =
                answered(
                        Reviews.TOKEN_REVIEW,
                        obj(
                                "{'kind':'TokenReview','apiVersion':'authentication.k8s.io/v1',"
                                        + "'spec':{'token':'t'}}"),
                        context(null));
        assertEquals("{\"user\":{}}", Json.string(out.get("status")));
    }

    @Test
    void selfSubjectReviewIsANewObjectStampedNow() {
        ObjectNode out =
                answered(
                        Reviews.SELF_SUBJECT_REVIEW,
                        obj("{'kind':'SelfSubjectReview','apiVersion':'authentication.k8s.io/v1'}"),
                        context(null));
        assertEquals(
                "{\"kind\":\"SelfSubjectReview\",\"apiVersion\":\"authentication.k8s.io/v1\","
                        + "\"metadata\":{\"creationTimestamp\":\"2026-11-29T08:00:00Z\"},"
                        + "\"status\":{\"userInfo\":{\"username\":\"system:admin\","
                        + "\"groups\":[\"system:masters\",\"system:authenticated\"]}}}",
                Json.string(out));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "both kinds of attributes|{'spec':{'user':'u','resourceAttributes':{},'nonResourceAttributes':{'path':'/p','verb':'get'}}}|422 .authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:\"/p\", Verb:\"get\"}: cannot be specified in combination with resourceAttributes",
                "no subject|{'spec':{'resourceAttributes':{}}}|422 .authorization.k8s.io \"\" is invalid: spec.user: Invalid value: \"\": at least one of user or group must be specified",
                "both selector forms|{'spec':{'user':'u','resourceAttributes':{'fieldSelector':{'rawSelector':'a=b','requirements':[{'key':'a','operator':'In'}]}}}}|422 .authorization.k8s.io \"\" is invalid: spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: \"a=b\": may not specified at the same time as requirements",
                "empty selector|{'spec':{'user':'u','resourceAttributes':{'labelSelector':{}}}}|422 .authorization.k8s.io \"\" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required",
                "labels in metadata|{'metadata':{'labels':{'b':'2','a':'1'}},'spec':{'user':'u','resourceAttributes':{}}}|422 .authorization.k8s.io \"\" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:\"\", GenerateName:\"\", Namespace:\"\", SelfLink:\"\", UID:\"\", ResourceVersion:\"\", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string{\"a\":\"1\", \"b\":\"2\"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty",
            })
    void subjectAccessReviewRefusesAsKube(String name, String body, String expected) {
        assertEquals(expected, refusal(Reviews.SUBJECT_ACCESS_REVIEW, body, null));
    }

    @Test
    void managedFieldsAndEmptyValuesDoNotMakeMetadataNonEmpty() {
        ObjectNode out =
                answered(
                        Reviews.SUBJECT_ACCESS_REVIEW,
                        obj(
                                "{'kind':'SubjectAccessReview','apiVersion':'authorization.k8s.io/v1',"
                                        + "'metadata':{'name':'','labels':{},'managedFields':[{'manager':'m'}]},"
                                        + "'spec':{'groups':['g'],'nonResourceAttributes':{'path':'/','verb':'get'}}}"),
                        context(null));
        assertEquals(
                "{\"creationTimestamp\":null,\"managedFields\":[{\"manager\":\"m\"}]}",
                Json.string(out.get("metadata")));
    }

    @Test
    void localSubjectAccessReviewRefusesNonResourceAttributes() {
        assertEquals(
                "422 .authorization.k8s.io \"\" is invalid: spec.nonResourceAttributes: Invalid"
                        + " value: authorization.NonResourceAttributes{Path:\"/p\", Verb:\"\"}:"
                        + " disallowed on this kind of request",
                refusal(
                        Reviews.LOCAL_SUBJECT_ACCESS_REVIEW,
                        "{'metadata':{'namespace':'ns'},'spec':{'user':'u','nonResourceAttributes':{'path':'/p'}}}",
                        "ns"));
    }

    /**
     * As kube-apiserver answered {@code kubectl auth can-i create pods} (a kubectl -v=8 log): the
     * field manager's Update entry of the request's fields, system fields wiped.
     */
    @Test
    void beforeCreateManagesTheRequestsFieldsAsKubesFieldManager() {
        ObjectNode body =
                obj(
                        "{'kind':'SelfSubjectAccessReview','apiVersion':'authorization.k8s.io/v1',"
                                + "'metadata':{'creationTimestamp':null,'uid':'u'},"
                                + "'spec':{'resourceAttributes':{'namespace':'default','verb':'create',"
                                + "'resource':'pods'}}}");
        Reviews.beforeCreate(
                body,
                new GroupVersionKind("authorization.k8s.io", "v1", "SelfSubjectAccessReview"),
                "kubectl",
                Instant.parse("2024-11-19T19:06:33Z"));
        ObjectNode out = answered(Reviews.SELF_SUBJECT_ACCESS_REVIEW, body, context(null));
        JsonNode managed = out.path("metadata").path("managedFields");
        assertEquals(1, managed.size(), out::toString);
        JsonNode entry = managed.get(0);
        assertEquals(
                "kubectl Update authorization.k8s.io/v1 2024-11-19T19:06:33Z FieldsV1",
                entry.path("manager").asText()
                        + " "
                        + entry.path("operation").asText()
                        + " "
                        + entry.path("apiVersion").asText()
                        + " "
                        + entry.path("time").asText()
                        + " "
                        + entry.path("fieldsType").asText());
        // kube also marks the pointer struct itself ("." : {}), which our field sets do not tell
        // apart from a value struct yet.
        List<String> owned = new ArrayList<>();
        entry.path("fieldsV1")
                .path("f:spec")
                .path("f:resourceAttributes")
                .fieldNames()
                .forEachRemaining(owned::add);
        owned.remove(".");
        assertEquals(List.of("f:namespace", "f:resource", "f:verb"), owned);
        assertTrue(out.path("metadata").path("creationTimestamp").isNull(), "uid wiped, as kube");
        assertEquals(
                List.of("creationTimestamp", "managedFields"), fieldNames(out.get("metadata")));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void unconfiguredIssuerIsKubeWithoutTheRoute() {
        TokenIssuer issuer = TokenIssuer.unconfigured();
        assertEquals(false, issuer.configured());
        TokenIssuer.Result r =
                issuer.issue(
                        obj("{}"),
                        new TokenIssuer.Request(List.of("a"), 3600, Optional.empty()),
                        Optional.empty());
        assertEquals(404, ((TokenIssuer.Refused) r).status().code());
    }

    @Test
    void tokenRequestDefaultsAnHourAndTheServersAudiences() {
        TokenIssuer.Request r =
                TokenRequests.parse(obj("{'spec':{}}"), List.of("https://kubernetes.default.svc"));
        assertEquals(
                new TokenIssuer.Request(
                        List.of("https://kubernetes.default.svc"), 3600, Optional.empty()),
                r);
        ApiException tooLong =
                assertThrows(
                        ApiException.class,
                        () ->
                                TokenRequests.parse(
                                        obj("{'spec':{'expirationSeconds':4294967297}}"),
                                        List.of()));
        assertEquals(
                "TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds:"
                        + " Invalid value: 4294967297: may not specify a duration larger than 2^32"
                        + " seconds",
                tooLong.status().message());
    }

    @Test
    void tokenRequestLongerThanTheMaximumIsShortenedWithKubesWarning() {
        TokenIssuer.Request day = new TokenIssuer.Request(List.of("a"), 86400, Optional.empty());
        TokenRequests.Shortened cut = TokenRequests.shorten(day, Duration.ofHours(2));
        assertEquals(new TokenIssuer.Request(List.of("a"), 7200, Optional.empty()), cut.request());
        assertEquals(
                Optional.of("requested expiration of 86400 seconds shortened to 7200 seconds"),
                cut.warning());
        for (Duration max : List.of(Duration.ZERO, Duration.ofDays(1), Duration.ofDays(2))) {
            TokenRequests.Shortened kept = TokenRequests.shorten(day, max);
            assertEquals(day, kept.request(), max.toString());
            assertEquals(Optional.empty(), kept.warning(), max.toString());
        }
    }
}
