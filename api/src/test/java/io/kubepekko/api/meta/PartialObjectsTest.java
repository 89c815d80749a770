package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.codec.ListBodies;
import io.kubepekko.api.codec.ListHead;
import io.kubepekko.api.codec.TextFormat;
import io.kubepekko.api.protobuf.Envelope;
import io.kubepekko.api.protobuf.ProtobufBodies;
import io.kubernetes.client.proto.Meta;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Objects and lists reduced to their metadata, in JSON and in Kubernetes' protobuf. */
class PartialObjectsTest {

    private static final byte[] CM =
            ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\","
                            + "\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"7\",\"labels\":{\"x\":\"y\"}},"
                            + "\"data\":{\"secret\":\"not in the answer\"}}")
                    .getBytes(StandardCharsets.UTF_8);

    private static ObjectNode listMeta() {
        return Json.MAPPER
                .createObjectNode()
                .put("resourceVersion", "9")
                .put("continue", "c")
                .put("remainingItemCount", 3);
    }

    /**
     * A list as the server answers it: written item by item, each item reduced as it is written.
     */
    private static ObjectNode list(String metaVersion, List<byte[]> items) {
        ListHead head =
                new ListHead(
                        PartialObjects.apiVersion(metaVersion),
                        PartialObjects.LIST_KIND,
                        9,
                        "c",
                        3L);
        return Json.parseTrusted(
                ListBodies.of(
                                TextFormat.JSON,
                                head,
                                items,
                                json -> PartialObjects.of(metaVersion, json))
                        .toBytes());
    }

    private static Envelope.Unknown protobufList(String metaVersion, List<byte[]> items) {
        return Envelope.decode(
                ProtobufBodies.builtin()
                        .listBody(
                                new GroupVersionKind(
                                        PartialObjects.GROUP, metaVersion, PartialObjects.KIND),
                                PartialObjects.LIST_KIND,
                                listMeta(),
                                items,
                                json -> PartialObjects.of(metaVersion, json),
                                0)
                        .toBytes());
    }

    @Test
    void anObjectBecomesItsMetadataOnlyWithTheMetaKind() {
        assertEquals(
                "{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":\"meta.k8s.io/v1\",\"metadata\":{\"name\":\"a\","
                        + "\"namespace\":\"ns\",\"uid\":\"u1\",\"resourceVersion\":\"7\",\"labels\":{\"x\":\"y\"}}}",
                new String(PartialObjects.of("v1", CM), StandardCharsets.UTF_8));
        assertEquals(
                "meta.k8s.io/v1beta1",
                Json.parseTrusted(PartialObjects.of("v1beta1", CM)).path("apiVersion").asText());
    }

    @Test
    void aListKeepsItsListMetaAndEachItemCarriesItsKind() {
        ObjectNode list = list("v1", List.of(CM, CM));
        assertEquals("PartialObjectMetadataList", list.path("kind").asText());
        assertEquals("meta.k8s.io/v1", list.path("apiVersion").asText());
        assertEquals(listMeta(), list.path("metadata"));
        assertEquals(2, list.path("items").size());
        assertEquals("PartialObjectMetadata", list.path("items").path(1).path("kind").asText());
        assertEquals("meta.k8s.io/v1", list.path("items").path(1).path("apiVersion").asText());
        assertEquals("a", list.path("items").path(1).path("metadata").path("name").asText());
        assertEquals(0, list("v1", List.of()).path("items").size());
    }

    @Test
    void protobufOfAPartialObjectIsKubernetesMessage() throws Exception {
        ObjectNode partial = Json.parseTrusted(PartialObjects.of("v1", CM));
        byte[] body = ProtobufBodies.builtin().encode(partial, ProtobufBodies.kindOf(partial));
        Envelope.Unknown unknown = Envelope.decode(body);
        assertEquals("meta.k8s.io/v1", unknown.apiVersion());
        assertEquals("PartialObjectMetadata", unknown.kind());
        Meta.PartialObjectMetadata theirs = Meta.PartialObjectMetadata.parseFrom(unknown.raw());
        assertEquals("a", theirs.getMetadata().getName());
        assertEquals("y", theirs.getMetadata().getLabelsMap().get("x"));
    }

    @Test
    void protobufOfAV1ListIsKubernetesMessage() throws Exception {
        Envelope.Unknown unknown = protobufList("v1", List.of(CM));
        assertEquals("PartialObjectMetadataList", unknown.kind());
        Meta.PartialObjectMetadataList theirs =
                Meta.PartialObjectMetadataList.parseFrom(unknown.raw());
        assertEquals("9", theirs.getMetadata().getResourceVersion());
        assertEquals(3, theirs.getMetadata().getRemainingItemCount());
        assertEquals("u1", theirs.getItems(0).getMetadata().getUid());
    }

    /** meta.k8s.io/v1beta1's list numbers its fields the other way round: items 1, metadata 2. */
    @Test
    void protobufOfAV1beta1ListHasItsOwnFieldNumbers() throws Exception {
        Envelope.Unknown unknown = protobufList("v1beta1", List.of(CM));
        assertEquals("meta.k8s.io/v1beta1", unknown.apiVersion());
        assertEquals("PartialObjectMetadataList", unknown.kind());
        CodedInputStream in = CodedInputStream.newInstance(unknown.raw());
        Meta.PartialObjectMetadata item = null;
        Meta.ListMeta meta = null;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (tag >>> 3) {
                case 1 -> item = Meta.PartialObjectMetadata.parseFrom(in.readBytes());
                case 2 -> meta = Meta.ListMeta.parseFrom(in.readBytes());
                default -> in.skipField(tag);
            }
        }
        assertEquals("a", item.getMetadata().getName());
        assertEquals("9", meta.getResourceVersion());
    }

    @Test
    void mismatchesNameTheGoTypeAsKubeApiserverDoes() {
        assertEquals(
                "you requested PartialObjectMetadataList, but the requested object is not a list (*v1.ConfigMap)",
                PartialObjects.mismatch(true, PartialObjects.goType(true, "v1", "ConfigMap", false))
                        .message());
        assertEquals(
                "you requested PartialObjectMetadata, but the requested object is a list (*v1.DeploymentList)",
                PartialObjects.mismatch(
                                false, PartialObjects.goType(true, "v1", "DeploymentList", true))
                        .message());
        assertEquals(406, PartialObjects.mismatch(false, "x").code());
        assertEquals(
                "*unstructured.UnstructuredList",
                PartialObjects.goType(false, "v1", "FooList", true));
    }
}
