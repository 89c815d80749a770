package io.kubepekko.api.protobuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Protobuf bodies: the bytes real clients send decode to the JSON Kubernetes would see, and our
 * encodings read back with Kubernetes' own classes (test scope).
 */
class ProtobufBodiesTest {

    private static final GroupVersionKind CONFIG_MAP = new GroupVersionKind("", "v1", "ConfigMap");
    private static final GroupVersionKind SECRET = new GroupVersionKind("", "v1", "Secret");
    private static final GroupVersionKind DELETE_OPTIONS =
            new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");
    private static final ProtobufBodies BODIES = ProtobufBodies.builtin();

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    /** {@code kubectl create cm many1 --from-literal=k=v1}, as captured from kubectl 1.35. */
    private static final String KUBECTL_CREATE_CONFIGMAP =
            "6b387300 0a0f0a027631 1209436f6e6669674d6170 1220"
                    + " 0a15 0a056d616e7931 1200 1a00 2200 2a00 3200 3800 4200 1207 0a016b 12027631 1a00 2200";

    @Test
    void kubectlsConfigMapBodyDecodesToTheJsonKubernetesWouldStore() {
        ObjectNode cm = BODIES.decode(hex(KUBECTL_CREATE_CONFIGMAP), CONFIG_MAP);
        assertEquals(
                Json.MAPPER
                        .createObjectNode()
                        .put("apiVersion", "v1")
                        .put("kind", "ConfigMap")
                        .<ObjectNode>set(
                                "metadata", Json.MAPPER.createObjectNode().put("name", "many1"))
                        .set("data", Json.MAPPER.createObjectNode().put("k", "v1")),
                cm,
                "zero values Go clients always send are left out, as omitempty does");
    }

    @Test
    void aBodyWithoutTheMagicPrefixIsABadRequest() {
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> BODIES.decode("{\"kind\":\"ConfigMap\"}".getBytes(), CONFIG_MAP));
        assertEquals(400, e.status().code());
        assertTrue(
                e.status()
                        .message()
                        .startsWith(
                                "the object provided is unrecognized ({\"kind\":\"ConfigMap\"}: "
                                        + "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0])"),
                e.status().message());
    }

    @Test
    void aFieldNumberWeDoNotKnowIsABadRequestNamingIt() {
        byte[] raw =
                V1.ConfigMap.newBuilder()
                        .setMetadata(Meta.ObjectMeta.newBuilder().setName("x"))
                        .setUnknownFields(
                                UnknownFieldSet.newBuilder()
                                        .addField(
                                                42,
                                                UnknownFieldSet.Field.newBuilder()
                                                        .addVarint(7)
                                                        .build())
                                        .build())
                        .build()
                        .toByteArray();
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> BODIES.decode(Envelope.encode("v1", "ConfigMap", raw), CONFIG_MAP));
        assertEquals(400, e.status().code());
        assertEquals(
                "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: field number 42 of ConfigMap "
                        + "is not known to this server",
                e.status().message());
    }

    @Test
    void secretsBytesBecomeBase64AndPointersKeepTheirZeroValue() {
        byte[] raw =
                V1.Secret.newBuilder()
                        .setMetadata(
                                Meta.ObjectMeta.newBuilder()
                                        .setName("s")
                                        .putLabels("owner", "helm")
                                        .setCreationTimestamp(
                                                Meta.Time.newBuilder().setSeconds(1_700_000_000L)))
                        .putData("release", ByteString.copyFromUtf8("H4sI"))
                        .setType("helm.sh/release.v1")
                        .setImmutable(false)
                        .build()
                        .toByteArray();
        ObjectNode secret = BODIES.decode(Envelope.encode("v1", "Secret", raw), SECRET);
        assertEquals("SDRzSQ==", secret.path("data").path("release").asText());
        assertEquals("helm.sh/release.v1", secret.path("type").asText());
        assertEquals("helm", secret.path("metadata").path("labels").path("owner").asText());
        assertEquals(
                "2023-11-14T22:13:20Z", secret.path("metadata").path("creationTimestamp").asText());
        assertTrue(
                secret.has("immutable") && !secret.get("immutable").asBoolean(),
                "a set pointer keeps false");
    }

    @Test
    void deleteOptionsKeepAZeroGracePeriod() {
        byte[] raw =
                Meta.DeleteOptions.newBuilder()
                        .setGracePeriodSeconds(0)
                        .setPropagationPolicy("Foreground")
                        .setPreconditions(Meta.Preconditions.newBuilder().setUid("u-1"))
                        .addDryRun("All")
                        .build()
                        .toByteArray();
        ObjectNode opts =
                BODIES.decode(Envelope.encode("v1", "DeleteOptions", raw), DELETE_OPTIONS);
        assertEquals(0, opts.path("gracePeriodSeconds").asInt());
        assertTrue(opts.has("gracePeriodSeconds"));
        assertEquals("Foreground", opts.path("propagationPolicy").asText());
        assertEquals("u-1", opts.path("preconditions").path("uid").asText());
        assertEquals("All", opts.path("dryRun").path(0).asText());
        assertFalse(opts.path("preconditions").has("resourceVersion"));
    }

    @Test
    void ourEncodingReadsBackWithKubernetesClasses() throws Exception {
        JsonNode json =
                Json.MAPPER.readTree(
                        """
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns","uid":"u",
                 "resourceVersion":"12","creationTimestamp":"2026-11-23T10:00:00Z","labels":{"a":"b"},
                 "managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1",
                   "time":"2026-11-23T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:k":{}}}}]},
                 "data":{"k":"v"},"binaryData":{"b":"AAE="}}""");
        byte[] body = BODIES.encode(json, CONFIG_MAP);
        assertTrue(Envelope.hasMagic(body));
        Envelope.Unknown unknown = Envelope.decode(body);
        assertEquals("ConfigMap", unknown.kind());
        V1.ConfigMap theirs = V1.ConfigMap.parseFrom(unknown.raw());
        assertEquals("c", theirs.getMetadata().getName());
        assertEquals(1_795_428_000L, theirs.getMetadata().getCreationTimestamp().getSeconds());
        assertEquals("v", theirs.getDataMap().get("k"));
        assertArrayEquals(new byte[] {0, 1}, theirs.getBinaryDataMap().get("b").toByteArray());
        assertEquals(
                "{\"f:data\":{\"f:k\":{}}}",
                theirs.getMetadata().getManagedFields(0).getFieldsV1().getRaw().toStringUtf8());
        ObjectNode back = BODIES.decode(body, CONFIG_MAP);
        assertEquals(json, back, "decode(encode(x)) == x");
    }

    @Test
    void inlineStructsAreFlattenedAsGoDoesAndEncodedBack() throws Exception {
        V1.Pod pod =
                V1.Pod.newBuilder()
                        .setMetadata(Meta.ObjectMeta.newBuilder().setName("p"))
                        .setSpec(
                                V1.PodSpec.newBuilder()
                                        .addContainers(
                                                V1.Container.newBuilder()
                                                        .setName("app")
                                                        .setImage("nginx:1.27")
                                                        .setReadinessProbe(
                                                                V1.Probe.newBuilder()
                                                                        .setPeriodSeconds(5)
                                                                        .setHandler(
                                                                                V1.ProbeHandler
                                                                                        .newBuilder()
                                                                                        .setHttpGet(
                                                                                                V1
                                                                                                        .HTTPGetAction
                                                                                                        .newBuilder()
                                                                                                        .setPath(
                                                                                                                "/healthz")
                                                                                                        .setPort(
                                                                                                                IntStr
                                                                                                                        .IntOrString
                                                                                                                        .newBuilder()
                                                                                                                        .setType(
                                                                                                                                0)
                                                                                                                        .setIntVal(
                                                                                                                                8080)))))
                                                        .addEnv(
                                                                V1.EnvVar.newBuilder()
                                                                        .setName("MODE")
                                                                        .setValueFrom(
                                                                                V1.EnvVarSource
                                                                                        .newBuilder()
                                                                                        .setConfigMapKeyRef(
                                                                                                V1
                                                                                                        .ConfigMapKeySelector
                                                                                                        .newBuilder()
                                                                                                        .setKey(
                                                                                                                "mode")
                                                                                                        .setLocalObjectReference(
                                                                                                                V1
                                                                                                                        .LocalObjectReference
                                                                                                                        .newBuilder()
                                                                                                                        .setName(
                                                                                                                                "settings"))))))
                                        .addVolumes(
                                                V1.Volume.newBuilder()
                                                        .setName("config")
                                                        .setVolumeSource(
                                                                V1.VolumeSource.newBuilder()
                                                                        .setConfigMap(
                                                                                V1
                                                                                        .ConfigMapVolumeSource
                                                                                        .newBuilder()
                                                                                        .setLocalObjectReference(
                                                                                                V1
                                                                                                        .LocalObjectReference
                                                                                                        .newBuilder()
                                                                                                        .setName(
                                                                                                                "settings"))))))
                        .build();
        GroupVersionKind podKind = new GroupVersionKind("", "v1", "Pod");
        ObjectNode json = BODIES.decode(Envelope.encode("v1", "Pod", pod.toByteArray()), podKind);
        JsonNode container = json.at("/spec/containers/0");
        assertEquals(
                "/healthz",
                container.at("/readinessProbe/httpGet/path").asText(),
                "Probe's handler is inline");
        assertEquals(8080, container.at("/readinessProbe/httpGet/port").asInt());
        assertEquals("settings", container.at("/env/0/valueFrom/configMapKeyRef/name").asText());
        assertEquals(
                "settings",
                json.at("/spec/volumes/0/configMap/name").asText(),
                "Volume's source is inline");
        assertFalse(json.at("/spec/volumes/0").has("volumeSource"));

        V1.Pod back = V1.Pod.parseFrom(Envelope.decode(BODIES.encode(json, podKind)).raw());
        assertEquals(
                "settings",
                back.getSpec()
                        .getVolumes(0)
                        .getVolumeSource()
                        .getConfigMap()
                        .getLocalObjectReference()
                        .getName());
        assertEquals(
                "/healthz",
                back.getSpec()
                        .getContainers(0)
                        .getReadinessProbe()
                        .getHandler()
                        .getHttpGet()
                        .getPath());
    }
}
