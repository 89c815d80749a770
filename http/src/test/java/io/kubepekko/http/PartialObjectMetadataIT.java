package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Metadata-only reads ({@code as=PartialObjectMetadata} and {@code as=PartialObjectMetadataList},
 * {@code g=meta.k8s.io}, {@code v=v1|v1beta1}) in JSON, YAML and protobuf, for get, list and watch,
 * as metadata informers and the garbage collector ask for them; and Accept entries of low quality.
 */
class PartialObjectMetadataIT {

    private static final String NS = "/api/v1/namespaces/partial";
    private static final String CMS = NS + "/configmaps";
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/partial/deployments";
    private static final String ONE =
            "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
    private static final String LIST =
            "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1";
    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'partial'}}"));
        for (String name : new String[] {"a", "b"}) {
            api.create(
                    CMS,
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                    + name
                                    + "',"
                                    + "'labels':{'l':'"
                                    + name
                                    + "'}},'data':{'payload':'not metadata'}}"));
        }
        api.create(
                DEPLOYMENTS,
                json(
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},"
                                + "'spec':{'replicas':2,'selector':{'matchLabels':{'app':'d'}},"
                                + "'template':{'metadata':{'labels':{'app':'d'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}}"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    private static void assertPartial(JsonNode partial, String metaVersion, String name) {
        assertEquals("PartialObjectMetadata", partial.path("kind").asText(), partial.toString());
        assertEquals("meta.k8s.io/" + metaVersion, partial.path("apiVersion").asText());
        assertEquals(name, partial.path("metadata").path("name").asText());
        assertFalse(partial.path("metadata").path("uid").asText().isEmpty());
        List<String> fields = new ArrayList<>();
        partial.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("kind", "apiVersion", "metadata"), fields, "nothing but metadata");
    }

    @ParameterizedTest(name = "meta.k8s.io/{0}")
    @ValueSource(strings = {"v1", "v1beta1"})
    void getAnswersThePartialObjectOfEitherVersion(String v) {
        Response r =
                api.get(
                        CMS + "/a",
                        "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=" + v);
        assertEquals(200, r.code());
        assertEquals("application/json", r.mediaType());
        assertPartial(r.json(), v, "a");
        assertEquals("a", r.json().path("metadata").path("labels").path("l").asText());
    }

    @ParameterizedTest(name = "meta.k8s.io/{0}")
    @ValueSource(strings = {"v1", "v1beta1"})
    void listAnswersThePartialListWithItsListMeta(String v) {
        ObjectNode list =
                api.get(
                                CMS + "?limit=1",
                                "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v="
                                        + v)
                        .assertCode(200)
                        .json();
        assertEquals("PartialObjectMetadataList", list.path("kind").asText());
        assertEquals("meta.k8s.io/" + v, list.path("apiVersion").asText());
        assertFalse(list.path("metadata").path("resourceVersion").asText().isEmpty());
        assertFalse(
                list.path("metadata").path("continue").asText().isEmpty(),
                "paging goes on as for the objects");
        assertEquals(1, list.path("items").size());
        assertPartial(list.path("items").path(0), v, "a");
        assertEquals(
                0,
                api.get("/api/v1/namespaces/partial/secrets", LIST)
                        .assertCode(200)
                        .json()
                        .path("items")
                        .size());
    }

    @Test
    void yamlAndProtobufCarryTheSameMetadata() {
        Response yaml =
                api.get(CMS + "/b", "application/yaml;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");
        assertEquals("application/yaml", yaml.mediaType());
        assertPartial(yaml.yaml(), "v1", "b");

        Response one =
                api.get(
                        DEPLOYMENTS + "/d",
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1");
        assertEquals(200, one.code());
        assertEquals("application/vnd.kubernetes.protobuf", one.mediaType());
        ObjectNode decoded =
                ProtobufBodies.builtin()
                        .decode(
                                one.body(),
                                new GroupVersionKind("meta.k8s.io", "v1", "PartialObjectMetadata"));
        assertEquals("d", decoded.path("metadata").path("name").asText());

        Response list =
                api.get(
                        CMS,
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;"
                                + "v=v1, application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json");
        assertEquals("application/vnd.kubernetes.protobuf", list.mediaType());
        ObjectNode items =
                ProtobufBodies.builtin()
                        .decode(
                                list.body(),
                                new GroupVersionKind(
                                        "meta.k8s.io", "v1", "PartialObjectMetadataList"));
        assertEquals(2, items.path("items").size());
        assertEquals("b", items.path("items").path(1).path("metadata").path("name").asText());
    }

    @Test
    void subresourcesAnswerTheirPartialObjectToo() {
        assertPartial(api.get(DEPLOYMENTS + "/d/scale", ONE).assertCode(200).json(), "v1", "d");
        assertPartial(api.get(DEPLOYMENTS + "/d/status", ONE).assertCode(200).json(), "v1", "d");
    }

    @Test
    void aPartialKindThatDoesNotFitTheAnswerIs406AsInKubeApiserver() {
        api.get(CMS + "/a", LIST)
                .assertStatus(
                        406,
                        "NotAcceptable",
                        "you requested PartialObjectMetadataList, but the requested object is not a list (*v1.ConfigMap)");
        api.get(CMS, ONE)
                .assertStatus(
                        406,
                        "NotAcceptable",
                        "you requested PartialObjectMetadata, but the requested object is a list (*v1.ConfigMapList)");
        api.get(DEPLOYMENTS, ONE + ", application/json")
                .assertStatus(
                        406,
                        "NotAcceptable",
                        "you requested PartialObjectMetadata, but the requested object is a list (*v1.DeploymentList)");
        // A missing object is still a 404 first: the conversion comes after the read.
        api.get(CMS + "/absent", LIST)
                .assertStatus(404, "NotFound", "configmaps \"absent\" not found");
        // Errors are negotiated without transformations: a Status in JSON, not in the partial
        // protobuf.
        api.get(
                        CMS + "/absent",
                        "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")
                .assertStatus(404, "NotFound", "configmaps \"absent\" not found");
    }

    @Test
    void versionsAndGroupsWithoutThePartialKindsAreSkippedForTheNextEntry() {
        assertEquals(
                "ConfigMap",
                api.get(
                                CMS + "/a",
                                "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1alpha1, application/json")
                        .assertCode(200)
                        .json()
                        .path("kind")
                        .asText());
        assertEquals(
                "ConfigMap",
                api.get(
                                CMS + "/a",
                                "application/json;as=PartialObjectMetadata;g=apps;v=v1, "
                                        + "application/json")
                        .assertCode(200)
                        .json()
                        .path("kind")
                        .asText());
        api.get(CMS + "/a", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2")
                .assertCode(406);
    }

    @Test
    void aWatchSendsEachObjectAndBookmarkAsPartialObjectMetadata() {
        try (WatchClient w =
                WatchClient.open(
                        api.url(),
                        CMS
                                + "?watch=1&allowWatchBookmarks=true&sendInitialEvents=true"
                                + "&resourceVersionMatch=NotOlderThan",
                        ONE)) {
            assertEquals(200, w.code());
            ObjectNode first = w.next(Duration.ofSeconds(30));
            assertEquals("ADDED", first.path("type").asText());
            assertPartial(first.path("object"), "v1", "a");
            assertPartial(w.next(Duration.ofSeconds(30)).path("object"), "v1", "b");
            ObjectNode bookmark = w.next(Duration.ofSeconds(30));
            assertEquals("BOOKMARK", bookmark.path("type").asText());
            assertEquals("PartialObjectMetadata", bookmark.path("object").path("kind").asText());
            assertEquals("meta.k8s.io/v1", bookmark.path("object").path("apiVersion").asText());
            api.patch(
                            CMS + "/a",
                            "application/merge-patch+json",
                            json("{'data':{'payload':'changed'}}"))
                    .assertCode(200);
            ObjectNode modified = w.next(Duration.ofSeconds(30));
            assertEquals("MODIFIED", modified.path("type").asText());
            assertPartial(modified.path("object"), "v1", "a");
        }
    }

    @Test
    void aWatchAskingForThePartialListGetsTheObjectsAsKubeApiserverFallsBack() {
        try (WatchClient w = WatchClient.open(api.url(), DEPLOYMENTS + "?watch=1", LIST)) {
            assertEquals(200, w.code());
            assertEquals(
                    "Deployment",
                    w.next(Duration.ofSeconds(30)).path("object").path("kind").asText());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "*/*;q=0.0001",
                "application/json;q=0.00001",
                "application/yaml;q=0.5, */*;q=0.0001"
            })
    void anyPositiveQualityIsAcceptable(String accept) {
        Response r = api.get(CMS + "/a", accept);
        assertEquals(200, r.code(), r.text());
        assertTrue(
                r.mediaType().equals("application/json")
                        || r.mediaType().equals("application/yaml"));
    }
}
