package io.kubepekko.api.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.codec.ListHead;
import io.kubepekko.api.meta.Json;
import io.kubernetes.client.proto.V1;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A protobuf list written item by item is byte for byte the list encoded whole (the envelope's
 * length prefixes computed from the items' sizes before they are written), and reads back with
 * Kubernetes' own classes.
 */
class ProtobufListBodyTest {

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    private static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    private static final ProtobufBodies BODIES = ProtobufBodies.builtin();

    private static byte[] json(String singleQuoted) {
        return Json.bytes(
                Json.parseTrusted(
                        singleQuoted.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    private static List<byte[]> pods(int count, int padding) {
        List<byte[]> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(
                    json(
                            "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p-"
                                    + i
                                    + "','namespace':'ns',"
                                    + "'resourceVersion':'"
                                    + (10 + i)
                                    + "','labels':{'app':'"
                                    + "x".repeat(padding)
                                    + "'}},"
                                    + "'spec':{'containers':[{'name':'c','image':'nginx','ports':[{'containerPort':80}]}],"
                                    + "'activeDeadlineSeconds':12345678901},'status':{'phase':'Running'}}"));
        }
        return pods;
    }

    private static final ListHead HEAD = new ListHead("v1", "PodList", 42, "tok", 7L);

    /**
     * keepUpTo 0 encodes every item again while writing; a large one writes the items encoded when
     * sizing.
     */
    @ParameterizedTest(name = "items kept up to {0} bytes")
    @ValueSource(longs = {0, 1_000, Long.MAX_VALUE})
    void itemByItemEqualsTheListEncodedWhole(long keepUpTo) {
        for (List<byte[]> items :
                List.of(List.<byte[]>of(), pods(1, 3), pods(40, 200), pods(3, 70_000))) {
            byte[] whole = BODIES.encodeList(POD, "PodList", HEAD.metadata(), items);
            ListBody body = BODIES.listBody(POD, "PodList", HEAD.metadata(), items, null, keepUpTo);
            assertEquals(whole.length, body.length(), "the length is known before writing");
            assertArrayEquals(whole, body.toBytes());
            assertArrayEquals(whole, body.toBytes(), "a second writer writes the same bytes");
        }
    }

    @Test
    void aTransformOfEachItemIsEncodedAsTheTransformedList() {
        UnaryOperator<byte[]> link =
                bytes -> {
                    ObjectNode o = Json.parseTrusted(bytes);
                    ((ObjectNode) o.get("metadata"))
                            .put(
                                    "selfLink",
                                    "/api/v1/namespaces/ns/pods/"
                                            + o.path("metadata").path("name").asText());
                    return Json.bytes(o);
                };
        List<byte[]> items = pods(5, 10);
        byte[] whole =
                BODIES.encodeList(
                        POD, "PodList", HEAD.metadata(), items.stream().map(link).toList());
        assertArrayEquals(
                whole, BODIES.listBody(POD, "PodList", HEAD.metadata(), items, link, 0).toBytes());
    }

    @Test
    void kubernetesReadsTheStreamedList() throws Exception {
        List<byte[]> items = pods(3, 70_000);
        byte[] body = BODIES.listBody(POD, "PodList", HEAD.metadata(), items, null, 0).toBytes();
        Envelope.Unknown unknown = Envelope.decode(body);
        assertEquals("PodList", unknown.kind());
        assertEquals("v1", unknown.apiVersion());
        V1.PodList list = V1.PodList.parseFrom(unknown.raw());
        assertEquals("42", list.getMetadata().getResourceVersion());
        assertEquals("tok", list.getMetadata().getContinue());
        assertEquals(7, list.getMetadata().getRemainingItemCount());
        assertEquals(3, list.getItemsCount());
        assertEquals("p-2", list.getItems(2).getMetadata().getName());
        assertEquals(70_000, list.getItems(1).getMetadata().getLabelsOrThrow("app").length());
    }

    @Test
    void eachCallWritesOneItem() {
        List<byte[]> items = pods(4, 100_000);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ListBody.Writer writer =
                BODIES.listBody(POD, "PodList", HEAD.metadata(), items, null, 0).open(out);
        assertTrue(
                out.size() < 100,
                "open writes the envelope's head and the list metadata: " + out.size());
        long before = out.size();
        int calls = 0;
        while (writer.writeNext()) {
            long written = out.size() - before;
            assertTrue(
                    written > 100_000 && written < 101_000,
                    "call " + calls + " wrote " + written + " bytes");
            before = out.size();
            calls++;
        }
        assertEquals(4, calls);
        assertEquals(4, out.size() - before, "the tail: empty contentEncoding and contentType");
    }

    @Test
    void anItemThatCannotBeEncodedFailsBeforeAnythingIsWritten() {
        List<byte[]> items =
                List.of(
                        json(
                                "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'ok'},"
                                        + "'data':{'k':'dmFsdWU='}}"),
                        json(
                                "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'bad'},'data':{'k':'not base64!'}}"));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        BODIES.listBody(
                                SECRET,
                                "SecretList",
                                HEAD.metadata(),
                                items,
                                null,
                                Long.MAX_VALUE));
        assertThrows(
                IllegalArgumentException.class,
                () -> BODIES.listBody(SECRET, "SecretList", HEAD.metadata(), items, null, 0));
    }
}
