package io.kubepekko.api.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lists written item by item are byte for byte the lists the server wrote whole before: the items'
 * stored JSON joined into one document, parsed and written again for YAML and {@code ?pretty}.
 */
class ListBodiesTest {

    /**
     * Objects with the shapes that make text encodings differ: nesting, empties, numbers, odd
     * strings.
     */
    static final List<byte[]> ITEMS =
            List.of(
                    item(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'a','namespace':'ns','resourceVersion':'5',"
                                    + "'labels':{'app':'web','yes':'no'}},'data':{'k':'v','multi':'line one\\nline two\\n',"
                                    + "'quoted':'\\\"x\\\": y','num':'123','bool':'true','empty':'','unicode':'\u00e9\u4e2d\ud83d\ude00'}}"),
                    item(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'b','namespace':'ns','resourceVersion':'6',"
                                    + "'annotations':{},'finalizers':[]},'data':{}}"),
                    item(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'c','namespace':'ns'},'spec':{'containers':"
                                    + "[{'name':'x','image':'nginx','ports':[{'containerPort':80}],'resources':{'limits':"
                                    + "{'cpu':'500m'}}}],'priority':-3,'overhead':null,'activeDeadlineSeconds':12345678901,"
                                    + "'weights':[1.5,2.0E10,0.0001,-0.0]},'status':{'phase':'Running'}}"),
                    item(
                            "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'d'},'data':{'k':'dmFsdWU='},"
                                    + "'nested':[[],[{}],[[1,[2]]]]}"));

    static byte[] item(String singleQuoted) {
        return Json.bytes(
                Json.parseTrusted(
                        singleQuoted.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    static Stream<Arguments> lists() {
        List<Arguments> cases = new ArrayList<>();
        ListHead[] heads = {
            new ListHead("v1", "ConfigMapList", 42, null, null),
            new ListHead("v1", "ConfigMapList", 42, "eyJ2IjoibWV0YSJ9", 17L)
        };
        for (TextFormat format : TextFormat.values()) {
            for (ListHead head : heads) {
                for (List<byte[]> items : List.of(List.<byte[]>of(), ITEMS.subList(0, 1), ITEMS)) {
                    cases.add(
                            Arguments.of(
                                    format
                                            + ", "
                                            + items.size()
                                            + " items"
                                            + (head.continueToken() != null
                                                    ? ", selfLink and continue"
                                                    : ""),
                                    format,
                                    head,
                                    items));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lists")
    void itemByItemEqualsTheWholeListWrittenAtOnce(
            String name, TextFormat format, ListHead head, List<byte[]> items) {
        byte[] whole = whole(format, head, items, null);
        assertEquals(
                new String(whole, StandardCharsets.UTF_8),
                new String(
                        ListBodies.of(format, head, items, null).toBytes(),
                        StandardCharsets.UTF_8));
        assertArrayEquals(whole, ListBodies.of(format, head, items, null).toBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lists")
    void aTransformOfEachItemEqualsTheTransformedListWrittenAtOnce(
            String name, TextFormat format, ListHead head, List<byte[]> items) {
        UnaryOperator<byte[]> link =
                json -> {
                    ObjectNode o = Json.parseTrusted(json);
                    ((ObjectNode) o.get("metadata"))
                            .put(
                                    "selfLink",
                                    "/api/v1/x/" + o.path("metadata").path("name").asText());
                    return Json.bytes(o);
                };
        assertArrayEquals(
                whole(format, head, items, link),
                ListBodies.of(format, head, items, link).toBytes());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void eachCallWritesOneItemAndAnOpenedBodyWritesTheSameBytesAgain(TextFormat format) {
        ListHead head = new ListHead("v1", "ConfigMapList", 42, null, null);
        String big = "x".repeat(200_000);
        List<byte[]> items = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            items.add(
                    item(
                            "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'big-"
                                    + i
                                    + "'},'data':{'k':'"
                                    + big
                                    + "'}}"));
        }
        ListBody body = ListBodies.of(format, head, items, null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ListBody.Writer writer = body.open(out);
        assertTrue(out.size() < 200, "open writes the head only: " + out.size() + " bytes");
        int calls = 0;
        long before = out.size();
        while (writer.writeNext()) {
            long written = out.size() - before;
            assertTrue(
                    written > big.length() && written < 2L * big.length(),
                    "call " + calls + " wrote " + written + " bytes: one item, whole");
            before = out.size();
            calls++;
        }
        assertEquals(items.size() + 1, calls + 1, "one call per item, then the tail");
        assertArrayEquals(whole(format, head, items, null), out.toByteArray());
        assertArrayEquals(
                out.toByteArray(), body.toBytes(), "a second writer writes the same bytes");
        if (format == TextFormat.JSON) {
            assertEquals(
                    out.size(),
                    body.length(),
                    "compact JSON knows its length before it is written");
        }
    }

    static Stream<TextFormat> formats() {
        return Stream.of(TextFormat.values());
    }

    /**
     * What the server wrote before lists were streamed: the list as one tree in compact JSON (the
     * stored items are compact JSON, so joining them gives the same bytes), parsed again and
     * written whole for YAML and {@code ?pretty}.
     */
    static byte[] whole(
            TextFormat format, ListHead head, List<byte[]> items, UnaryOperator<byte[]> perItem) {
        ObjectNode list = Json.MAPPER.createObjectNode();
        list.put("kind", head.kind()).put("apiVersion", head.apiVersion());
        ObjectNode meta = list.putObject("metadata");
        meta.put("resourceVersion", Long.toString(head.resourceVersion()));
        if (head.continueToken() != null) {
            meta.put("continue", head.continueToken());
        }
        if (head.remainingItemCount() != null) {
            meta.put("remainingItemCount", head.remainingItemCount());
        }
        var array = list.putArray("items");
        for (byte[] item : items) {
            array.add(Json.parseTrusted(perItem == null ? item : perItem.apply(item)));
        }
        byte[] json = Json.bytes(list);
        if (format == TextFormat.JSON) {
            return json;
        }
        try {
            JsonNode tree = Json.MAPPER.readTree(json);
            return format.bytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
