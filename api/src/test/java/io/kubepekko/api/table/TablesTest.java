package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Tables rendered from stored objects, without a server. */
class TablesTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    private static byte[] object(String name, String rv) {
        return ("{\"apiVersion\":\"example.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\"ns\",\"resourceVersion\":\""
                        + rv
                        + "\",\"creationTimestamp\":\"2026-11-23T11:00:00Z\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"x\":1}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode parse(byte[] json) {
        return Json.parseTrusted(json);
    }

    @Test
    void kindsWithoutAPrinterShowNameAndCreationTime() {
        JsonNode table =
                parse(
                        Tables.render(
                                "v1",
                                TablePrinter.DEFAULT,
                                List.of(object("w1", "7")),
                                IncludeObject.METADATA,
                                new Tables.ListMeta("9", "tok", 3L),
                                true,
                                NOW));
        assertEquals("Table", table.path("kind").asText());
        assertEquals("meta.k8s.io/v1", table.path("apiVersion").asText());
        assertEquals("9", table.path("metadata").path("resourceVersion").asText());
        assertEquals("tok", table.path("metadata").path("continue").asText());
        assertEquals(3, table.path("metadata").path("remainingItemCount").asInt());
        JsonNode created = table.path("columnDefinitions").path(1);
        assertEquals("Created At", created.path("name").asText());
        assertEquals("date", created.path("type").asText());
        assertEquals(0, created.path("priority").asInt());
        assertEquals(
                "[\"w1\",\"2026-11-23T11:00:00Z\"]",
                table.path("rows").path(0).path("cells").toString());
        JsonNode partial = table.path("rows").path(0).path("object");
        assertEquals("PartialObjectMetadata", partial.path("kind").asText());
        assertEquals("b", partial.path("metadata").path("labels").path("a").asText());
        assertFalse(partial.has("spec"));
    }

    @Test
    void oneObjectCarriesItsResourceVersionAndListMetadataIsOmittedWhenAbsent() {
        JsonNode table =
                parse(
                        Tables.renderObject(
                                "v1beta1",
                                TablePrinter.DEFAULT,
                                object("w1", "7"),
                                IncludeObject.OBJECT,
                                NOW));
        assertEquals("meta.k8s.io/v1beta1", table.path("apiVersion").asText());
        assertEquals("{\"resourceVersion\":\"7\"}", table.path("metadata").toString());
        assertEquals(1, table.path("rows").path(0).path("object").path("spec").path("x").asInt());
    }

    @Test
    void watchEventsAfterTheFirstHaveNullColumns() {
        JsonNode later =
                Tables.objectTable(
                        "v1",
                        TablePrinter.DEFAULT,
                        Json.parseTrusted(object("w1", "7")),
                        IncludeObject.NONE,
                        false,
                        NOW);
        assertTrue(later.path("columnDefinitions").isNull());
        assertFalse(later.path("rows").path(0).has("object"));
        JsonNode bookmark = Tables.bookmark("v1", "12");
        assertEquals("12", bookmark.path("metadata").path("resourceVersion").asText());
        assertEquals(0, bookmark.path("rows").size());
    }

    @Test
    void includeObjectParsesAsKubeDoes() {
        assertEquals(IncludeObject.METADATA, IncludeObject.parse(null));
        assertEquals(IncludeObject.METADATA, IncludeObject.parse(""));
        assertEquals(IncludeObject.NONE, IncludeObject.parse("None"));
        assertEquals(IncludeObject.OBJECT, IncludeObject.parse("Object"));
        ApiException e = assertThrows(ApiException.class, () -> IncludeObject.parse("object"));
        assertEquals(400, e.status().code());
        assertEquals("unrecognized includeObject value: \"object\"", e.status().message());
    }

    @Test
    void finishedPodRowsAreMarkedCompletedAsKubeDoes() {
        byte[] succeeded =
                ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"done\"},"
                                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},\"status\":{\"phase\":\"Succeeded\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        byte[] running =
                ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"up\"},"
                                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]},\"status\":{\"phase\":\"Running\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        JsonNode table =
                parse(
                        Tables.render(
                                "v1",
                                BuiltinDefinitions.printer("", "Pod"),
                                List.of(succeeded, running),
                                IncludeObject.NONE,
                                new Tables.ListMeta("5", null, null),
                                true,
                                NOW));
        assertEquals(
                "[{\"type\":\"Completed\",\"status\":\"True\",\"reason\":\"Succeeded\","
                        + "\"message\":\"The pod has completed successfully.\"}]",
                table.path("rows").path(0).path("conditions").toString());
        assertFalse(table.path("rows").path(1).has("conditions"), "a running pod's row has none");
    }
}
