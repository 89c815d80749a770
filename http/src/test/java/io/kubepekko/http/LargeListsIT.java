package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.itemNames;
import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.protobuf.Envelope;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubepekko.http.encoding.Encoder;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Lists larger than a response buffers are sent as they are encoded, in every representation, and
 * say what the JSON list says; small ones are still sent whole with their length. (That a large
 * list needs no more memory than one item is shown by LargeListMemoryE2E, on a server with a small
 * heap.)
 */
class LargeListsIT {

    private static final int OBJECTS = 12;

    /** 12 × 500 KB: larger than the buffer, so every encoding but compact JSON is streamed. */
    private static final String DATA = "x".repeat(500_000);

    private static final String BIG = "/api/v1/namespaces/large-lists/configmaps";
    private static final String SMALL = "/api/v1/namespaces/small-lists/configmaps";
    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static ObjectNode bigList;

    @BeforeAll
    static void fill() {
        fill(api);
        bigList = api.get(BIG).assertCode(200).json();
        assertTrue(
                api.get(BIG).body().length > Encoder.BUFFER_UP_TO + DATA.length(),
                "the list is larger than the buffer");
    }

    private static void fill(TestApiServer server) {
        for (String ns : List.of("large-lists", "small-lists")) {
            server.create(
                    "/api/v1/namespaces",
                    json(
                            "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                    + ns
                                    + "'}}"));
        }
        for (int i = 0; i < OBJECTS; i++) {
            server.create(
                    BIG,
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'big-"
                                    + i
                                    + "',"
                                    + "'labels':{'n':'"
                                    + i
                                    + "'}},'data':{'k':'"
                                    + DATA
                                    + "','multi':'one\\ntwo: 3\\n'}}"));
            server.create(
                    SMALL,
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'small-"
                                    + i
                                    + "'},'data':{'k':'v'}}"));
        }
    }

    private static List<String> bigNames() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            names.add("big-" + i);
        }
        names.sort(null);
        return names;
    }

    /** The items of the JSON list, compared without printing megabytes when they differ. */
    private static void assertSameItems(ObjectNode list, boolean asText) {
        assertEquals("ConfigMapList", list.path("kind").asText());
        assertTrue(list.path("metadata").path("resourceVersion").asLong() > 0);
        JsonNode expected = asText ? asText(bigList.path("items")) : bigList.path("items");
        assertTrue(expected.equals(list.path("items")), "the items differ from the JSON list's");
    }

    /** The tree with every scalar as its text. */
    private static <T extends JsonNode> T asText(T node) {
        JsonNode copy = node.deepCopy();
        textify(copy);
        @SuppressWarnings("unchecked")
        T t = (T) copy;
        return t;
    }

    private static void textify(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.properties()
                    .forEach(
                            e -> {
                                if (e.getValue().isValueNode()) {
                                    o.put(e.getKey(), e.getValue().asText());
                                } else {
                                    textify(e.getValue());
                                }
                            });
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isValueNode()) {
                    a.set(i, a.textNode(a.get(i).asText()));
                } else {
                    textify(a.get(i));
                }
            }
        }
    }

    private static boolean chunked(Response r) {
        return r.header("Transfer-Encoding").map(v -> v.contains("chunked")).orElse(false);
    }

    @Test
    void compactJsonIsStreamedFromTheStoredBytesWithItsLength() {
        Response r = api.get(BIG).assertCode(200);
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length").orElse(""));
        assertEquals(bigNames(), itemNames(r.json()));
    }

    @Test
    void yamlAndPrettyJsonAreStreamedChunkedAndSayWhatTheJsonListSays() {
        Response yaml = api.get(BIG, "application/yaml").assertCode(200);
        assertTrue(chunked(yaml), "chunked: " + yaml.headers().map());
        assertEquals("application/yaml", yaml.mediaType());
        // Compared as text: the YAML encoding leaves numeric-looking strings unquoted
        // (resourceVersion: 2),
        // so they read back as numbers (as before lists were streamed; the bytes are unchanged).
        assertSameItems(asText(yaml(yaml)), true);
        Response pretty = api.get(BIG + "?pretty=true").assertCode(200);
        assertTrue(chunked(pretty), "chunked: " + pretty.headers().map());
        assertSameItems(pretty.json(), false);
        assertTrue(
                pretty.text().startsWith("{\n  \"kind\": \"ConfigMapList\",\n"),
                pretty.text().substring(0, 80));
    }

    @Test
    void protobufIsStreamedWithItsLengthAndHoldsEveryItemEncoded() throws IOException {
        Response r = api.get(BIG, ProtobufBodies.MEDIA_TYPE).assertCode(200);
        assertEquals(ProtobufBodies.MEDIA_TYPE, r.mediaType());
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length").orElse(""));
        Envelope.Unknown unknown = Envelope.decode(r.body());
        assertEquals("ConfigMapList", unknown.kind());
        List<byte[]> items = listItems(unknown.raw());
        assertEquals(OBJECTS, items.size());
        for (int i = 0; i < OBJECTS; i++) {
            assertArrayEquals(
                    ProtobufBodies.builtin().encodeRaw(bigList.path("items").get(i), CONFIG_MAP),
                    items.get(i),
                    "item " + i);
        }
    }

    @ParameterizedTest(name = "{0} includeObject={1}")
    @CsvSource({
        "v1,None",
        "v1,Metadata",
        "v1,Object",
        "v1beta1,None",
        "v1beta1,Metadata",
        "v1beta1,Object"
    })
    void tablesHaveOneRowPerItemAndStreamWhenTheyAreLarge(String version, String include) {
        Response r =
                api.get(
                                BIG + "?includeObject=" + include,
                                "application/json;as=Table;g=meta.k8s.io;v=" + version)
                        .assertCode(200);
        ObjectNode table = r.json();
        assertEquals("meta.k8s.io/" + version, table.path("apiVersion").asText());
        assertTrue(table.path("metadata").path("resourceVersion").asLong() > 0);
        List<String> names = new ArrayList<>();
        for (JsonNode row : table.path("rows")) {
            names.add(row.path("cells").path(0).asText());
            switch (include) {
                case "Object" ->
                        assertTrue(
                                DATA.equals(row.path("object").path("data").path("k").asText()),
                                "the whole object");
                case "Metadata" ->
                        assertEquals(
                                "PartialObjectMetadata", row.path("object").path("kind").asText());
                default -> assertFalse(row.has("object"));
            }
        }
        assertEquals(bigNames(), names);
        assertEquals(
                include.equals("Object"), chunked(r), "only the Table with whole objects is large");
    }

    @Test
    void aYamlTableOfWholeObjectsIsStreamed() {
        Response r =
                api.get(
                                BIG + "?includeObject=Object",
                                "application/yaml;as=Table;g=meta.k8s.io;v=v1")
                        .assertCode(200);
        assertTrue(chunked(r));
        assertEquals(OBJECTS, yaml(r).path("rows").size());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
        "application/json;as=Table;g=meta.k8s.io;v=v1"
    })
    void smallListsAreSentWholeWithTheirLength(String accept) {
        Response r = api.get(SMALL, accept).assertCode(200);
        assertFalse(chunked(r));
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length").orElse(""));
    }

    @Test
    void deleteCollectionAnswersTheDeletedItemsStreamed() {
        String ns = "delete-large";
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        for (int i = 0; i < OBJECTS; i++) {
            api.create(
                    path,
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'gone-"
                                    + i
                                    + "'},"
                                    + "'data':{'k':'"
                                    + DATA
                                    + "'}}"));
        }
        Response r =
                api.call("DELETE", path)
                        .header("Accept", "application/yaml")
                        .send()
                        .assertCode(200);
        assertTrue(chunked(r));
        ObjectNode deleted = yaml(r);
        assertEquals("ConfigMapList", deleted.path("kind").asText());
        assertEquals(OBJECTS, deleted.path("items").size());
        assertTrue(
                DATA.equals(deleted.path("items").path(0).path("data").path("k").asText()),
                "the whole object");
        assertEquals(0, api.get(path).assertCode(200).json().path("items").size());
    }

    /** YAML of any size (the parser's default limit is 3 MiB, a request body's). */
    private static final ObjectMapper YAML =
            new ObjectMapper(YAMLFactory.builder().loaderOptions(largeDocuments()).build());

    private static LoaderOptions largeDocuments() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return options;
    }

    private static ObjectNode yaml(Response r) {
        try {
            return (ObjectNode) YAML.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("expected a YAML object, got " + r.code(), e);
        }
    }

    /** The list message's items: {@code metadata} = 1, then one {@code items} = 2 per item. */
    private static List<byte[]> listItems(byte[] raw) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(raw);
        List<byte[]> items = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (WireFormat.getTagFieldNumber(tag) == 2) {
                items.add(in.readByteArray());
            } else {
                in.skipField(tag);
            }
        }
        return items;
    }
}
