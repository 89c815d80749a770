package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code meta.k8s.io} Table representation over HTTP, as kubectl asks for it: lists, single
 * objects, paging, {@code includeObject}, v1beta1, YAML, watches (columns on the first event only)
 * and the negotiation errors.
 */
class TablesIT {

    /** What kubectl 1.35 sends for human-readable output. */
    static final String KUBECTL =
            "application/json;as=Table;v=v1;g=meta.k8s.io,"
                    + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String newNamespace() {
        String ns = "tbl-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String cms(String ns) {
        return "/api/v1/namespaces/" + ns + "/configmaps";
    }

    private static ObjectNode createCm(String ns, String name, int keys) {
        StringBuilder data = new StringBuilder();
        for (int i = 0; i < keys; i++) {
            data.append(i == 0 ? "" : ",").append("'k").append(i).append("':'v'");
        }
        return api.create(
                cms(ns),
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "','labels':{'app':'web'}},'data':{"
                                + data
                                + "}}"));
    }

    private static List<String> columnNames(JsonNode table) {
        List<String> out = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> out.add(c.path("name").asText()));
        return out;
    }

    @Test
    void aListIsATableWithTheKindsColumnsAndPartialObjectMetadata() {
        String ns = newNamespace();
        ObjectNode a = createCm(ns, "a", 2);
        createCm(ns, "b", 0);
        Response r = api.get(cms(ns) + "?limit=500", KUBECTL).assertCode(200);
        assertEquals("application/json", r.mediaType());
        ObjectNode table = r.json();
        assertEquals("Table", table.path("kind").asText());
        assertEquals("meta.k8s.io/v1", table.path("apiVersion").asText());
        assertEquals(List.of("Name", "Data", "Age"), columnNames(table));
        assertEquals("name", table.path("columnDefinitions").path(0).path("format").asText());
        JsonNode row = table.path("rows").path(0);
        assertEquals("a", row.path("cells").path(0).asText());
        assertEquals(2, row.path("cells").path(1).asInt(), "Data counts the keys");
        assertTrue(row.path("cells").path(1).isIntegralNumber(), "integer cells are JSON numbers");
        assertTrue(
                row.path("cells").path(2).asText().matches("\\d+s"),
                "a fresh object's age is in seconds");
        JsonNode object = row.path("object");
        assertEquals("PartialObjectMetadata", object.path("kind").asText());
        assertEquals("meta.k8s.io/v1", object.path("apiVersion").asText());
        assertEquals(
                ns,
                object.path("metadata").path("namespace").asText(),
                "kubectl -A reads the namespace here");
        assertEquals(
                "web",
                object.path("metadata").path("labels").path("app").asText(),
                "--show-labels reads these");
        assertEquals(a.path("metadata").path("uid"), object.path("metadata").path("uid"));
        assertFalse(object.has("data"), "only metadata");
        assertEquals(2, table.path("rows").size());
        assertTrue(rv(table) >= rv(a), "the list's resourceVersion");
    }

    @Test
    void oneObjectIsATableOfOneRowAtItsResourceVersion() {
        String ns = newNamespace();
        ObjectNode a = createCm(ns, "a", 1);
        ObjectNode table = api.get(cms(ns) + "/a", KUBECTL).assertCode(200).json();
        assertEquals(1, table.path("rows").size());
        assertEquals(rv(a), rv(table));
        assertEquals("a", table.path("rows").path(0).path("cells").path(0).asText());
    }

    @Test
    void includeObjectChoosesWhatRowsCarry() {
        String ns = newNamespace();
        createCm(ns, "a", 1);
        JsonNode none =
                api.get(cms(ns) + "?includeObject=None", KUBECTL)
                        .assertCode(200)
                        .json()
                        .path("rows")
                        .path(0);
        assertFalse(none.has("object"));
        JsonNode whole =
                api.get(cms(ns) + "?includeObject=Object", KUBECTL)
                        .assertCode(200)
                        .json()
                        .path("rows")
                        .path(0);
        assertEquals("ConfigMap", whole.path("object").path("kind").asText());
        assertEquals(
                "v",
                whole.path("object").path("data").path("k0").asText(),
                "kubectl --sort-by reads the object");
        JsonNode meta =
                api.get(cms(ns) + "/a?includeObject=Metadata", KUBECTL)
                        .assertCode(200)
                        .json()
                        .path("rows")
                        .path(0);
        assertEquals("PartialObjectMetadata", meta.path("object").path("kind").asText());
    }

    @Test
    void anUnknownIncludeObjectIsABadRequest() {
        String ns = newNamespace();
        createCm(ns, "a", 1);
        api.get(cms(ns) + "?includeObject=All", KUBECTL)
                .assertStatusMessageStartsWith(
                        400, "BadRequest", "unrecognized includeObject value: \"All\"");
        api.get(cms(ns) + "/a?includeObject=All", KUBECTL)
                .assertStatusMessageStartsWith(
                        400, "BadRequest", "unrecognized includeObject value: \"All\"");
    }

    @Test
    void pagesCarryTheListMetadata() {
        String ns = newNamespace();
        createCm(ns, "a", 1);
        createCm(ns, "b", 1);
        createCm(ns, "c", 1);
        ObjectNode first = api.get(cms(ns) + "?limit=2", KUBECTL).assertCode(200).json();
        assertEquals(2, first.path("rows").size());
        String token = first.path("metadata").path("continue").asText();
        assertFalse(token.isEmpty(), "a continue token");
        assertEquals(1, first.path("metadata").path("remainingItemCount").asInt());
        ObjectNode second =
                api.get(cms(ns) + "?limit=2&continue=" + token, KUBECTL).assertCode(200).json();
        assertEquals("c", second.path("rows").path(0).path("cells").path(0).asText());
        assertFalse(second.path("metadata").has("continue"), "the last page has no token");
        assertEquals(rv(first), rv(second), "every page is at the first page's snapshot");
    }

    @Test
    void v1beta1TablesAndYaml() {
        String ns = newNamespace();
        createCm(ns, "a", 1);
        ObjectNode beta =
                api.get(cms(ns), "application/json;as=Table;v=v1beta1;g=meta.k8s.io")
                        .assertCode(200)
                        .json();
        assertEquals("meta.k8s.io/v1beta1", beta.path("apiVersion").asText());
        assertEquals(
                "meta.k8s.io/v1beta1",
                beta.path("rows").path(0).path("object").path("apiVersion").asText());
        Response yaml =
                api.get(cms(ns), "application/yaml;as=Table;v=v1;g=meta.k8s.io").assertCode(200);
        assertEquals("application/yaml", yaml.mediaType());
        assertEquals("Table", yaml.yaml().path("kind").asText());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "application/json;as=Table;v=v9;g=meta.k8s.io",
                "application/json;as=Table;v=v1;g=example.com",
                "application/json;as=Table",
                "application/json;as=PartialObjectMetadataList;v=v1alpha1;g=meta.k8s.io"
            })
    void aTransformationNotServedWithoutFallbackIsNotAcceptable(String accept) {
        String ns = newNamespace();
        api.get(cms(ns), accept)
                .assertStatusMessageStartsWith(
                        406, "NotAcceptable", "only the following media types are accepted");
    }

    @Test
    void aWatchSendsOneRowPerEventWithColumnsOnTheFirstOnly() {
        String ns = newNamespace();
        ObjectNode a = createCm(ns, "a", 1);
        try (WatchClient w =
                WatchClient.open(api.url(), cms(ns) + "?watch=true&resourceVersion=0", KUBECTL)) {
            ObjectNode added = w.next();
            assertEquals("ADDED", added.path("type").asText());
            JsonNode first = added.path("object");
            assertEquals("Table", first.path("kind").asText());
            assertEquals(List.of("Name", "Data", "Age"), columnNames(first));
            assertEquals("a", first.path("rows").path(0).path("cells").path(0).asText());
            assertEquals(rv(a), rv(first));

            api.delete(cms(ns) + "/a").assertCode(200);
            ObjectNode deleted = w.next();
            assertEquals("DELETED", deleted.path("type").asText());
            JsonNode later = deleted.path("object");
            assertTrue(
                    later.path("columnDefinitions").isNull(),
                    "later events omit the columns, as kube's do");
            assertEquals("a", later.path("rows").path(0).path("cells").path(0).asText());
            assertEquals(
                    "PartialObjectMetadata",
                    later.path("rows").path(0).path("object").path("kind").asText());
        }
    }
}
