package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.codec.TextFormat;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Table written row by row is byte for byte the Table {@link Tables#render} builds whole (and, in
 * YAML or {@code ?pretty}, that Table parsed and written again, as the server did before), for both
 * Table versions and every {@code includeObject}.
 */
class TableListBodyTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    private static byte[] json(String singleQuoted) {
        return Json.bytes(
                Json.parseTrusted(
                        singleQuoted.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    private static final List<byte[]> PODS =
            List.of(
                    json(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'done','namespace':'ns','resourceVersion':'3',"
                                    + "'creationTimestamp':'2026-11-23T10:00:00Z','labels':{'app':'x'}},'spec':{'containers':"
                                    + "[{'name':'c','image':'i'}],'nodeName':'n1'},'status':{'phase':'Succeeded','podIP':'10.0.0.1',"
                                    + "'containerStatuses':[{'name':'c','ready':false,'restartCount':2,'state':{'terminated':"
                                    + "{'exitCode':0,'reason':'Completed'}}}]}}"),
                    json(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'up','namespace':'ns','resourceVersion':'4',"
                                    + "'creationTimestamp':'2026-11-20T10:00:00Z'},'spec':{'containers':[{'name':'c','image':'i'}]},"
                                    + "'status':{'phase':'Running','weight':1.5E10,'containerStatuses':[{'name':'c','ready':true,"
                                    + "'restartCount':0,'state':{'running':{}}}]}}"),
                    json(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'odd \\\"quoted\\\": yes','namespace':'ns'}}"));

    private static final List<byte[]> CONFIG_MAPS =
            List.of(
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'a','namespace':'ns',"
                                    + "'creationTimestamp':'2026-11-23T11:59:00Z'},'data':{'k':'v','multi':'one\\ntwo'}}"),
                    json(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'b','namespace':'ns'}}"));

    static Stream<Arguments> tables() {
        List<Arguments> cases = new ArrayList<>();
        for (TextFormat format : TextFormat.values()) {
            for (String version : List.of("v1", "v1beta1")) {
                for (IncludeObject include : IncludeObject.values()) {
                    cases.add(
                            Arguments.of(
                                    format + " " + version + " pods " + include,
                                    format,
                                    version,
                                    "Pod",
                                    PODS,
                                    include,
                                    new Tables.ListMeta("9", null, null)));
                }
                cases.add(
                        Arguments.of(
                                format + " " + version + " configmaps, continue",
                                format,
                                version,
                                "ConfigMap",
                                CONFIG_MAPS,
                                IncludeObject.METADATA,
                                new Tables.ListMeta("9", "tok", 3L)));
                cases.add(
                        Arguments.of(
                                format + " " + version + " no rows",
                                format,
                                version,
                                "Widget",
                                List.of(),
                                IncludeObject.OBJECT,
                                new Tables.ListMeta("9", null, null)));
            }
        }
        return cases.stream();
    }

    /** A built-in core kind's printer; a custom kind (Widget) prints with the default one. */
    private static TablePrinter printer(String kind) {
        return kind.equals("Widget") ? TablePrinter.DEFAULT : BuiltinDefinitions.printer("", kind);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void rowByRowEqualsTheWholeTable(
            String name,
            TextFormat format,
            String version,
            String kind,
            List<byte[]> objects,
            IncludeObject include,
            Tables.ListMeta meta)
            throws IOException {
        TablePrinter printer = printer(kind);
        byte[] whole =
                whole(format, Tables.render(version, printer, objects, include, meta, true, NOW));
        ListBody body =
                Tables.listBody(format, version, printer, objects, include, meta, NOW, null);
        assertEquals(
                new String(whole, StandardCharsets.UTF_8),
                new String(body.toBytes(), StandardCharsets.UTF_8));
        assertArrayEquals(whole, body.toBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tables")
    void aTransformOfEachObjectEqualsTheTableOfTheTransformedObjects(
            String name,
            TextFormat format,
            String version,
            String kind,
            List<byte[]> objects,
            IncludeObject include,
            Tables.ListMeta meta)
            throws IOException {
        UnaryOperator<byte[]> link =
                bytes -> {
                    ObjectNode o = Json.parseTrusted(bytes);
                    ((ObjectNode) o.get("metadata"))
                            .put(
                                    "selfLink",
                                    "/api/v1/namespaces/ns/x/"
                                            + o.path("metadata").path("name").asText());
                    return Json.bytes(o);
                };
        TablePrinter printer = printer(kind);
        byte[] whole =
                whole(
                        format,
                        Tables.render(
                                version,
                                printer,
                                objects.stream().map(link).toList(),
                                include,
                                meta,
                                true,
                                NOW));
        assertArrayEquals(
                whole,
                Tables.listBody(format, version, printer, objects, include, meta, NOW, link)
                        .toBytes());
    }

    /**
     * What the server sent before Tables were streamed: the Table's JSON, parsed and written again
     * for YAML or pretty.
     */
    private static byte[] whole(TextFormat format, byte[] tableJson) throws IOException {
        return format == TextFormat.JSON
                ? tableJson
                : format.bytes(Json.MAPPER.readTree(tableJson));
    }
}
