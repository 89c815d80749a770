package io.kubepekko.api.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every built-in kind has a protobuf form, and objects survive encode then decode unchanged. */
class BuiltinKindsProtobufTest {

    private static final ProtobufBodies BODIES = ProtobufBodies.builtin();

    static List<ResourceType> kinds() {
        return Registry.builtin().all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void everyBuiltinKindRoundTrips(ResourceType type) throws Exception {
        GroupVersionKind kind = type.gvk();
        assertTrue(BODIES.supports(kind), kind + " has a protobuf definition");
        ObjectNode object =
                (ObjectNode)
                        Json.MAPPER.readTree(
                                "{\"apiVersion\":\""
                                        + kind.apiVersion()
                                        + "\",\"kind\":\""
                                        + kind.kind()
                                        + "\",\"metadata\":{\"name\":\"x\",\"namespace\":\"ns\",\"uid\":\"u\","
                                        + "\"resourceVersion\":\"7\",\"generation\":2,\"creationTimestamp\":\"2026-11-23T10:00:00Z\","
                                        + "\"labels\":{\"a\":\"b\"},\"annotations\":{\"c\":\"d\"},\"finalizers\":[\"f\"],"
                                        + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o\",\"uid\":\"ou\","
                                        + "\"controller\":true}]}}");
        byte[] body = BODIES.encode(object, kind);
        assertEquals(object, BODIES.decode(body, kind));
        independentlyDecoded(Envelope.decode(body));
    }

    /**
     * Kubernetes' own message descriptors (the published classes, test scope) read our encoding of
     * the kind, where those classes have the kind (they lack coordination.k8s.io).
     */
    private static void independentlyDecoded(Envelope.Unknown envelope) throws Exception {
        String message =
                ProtoKinds.message(
                        ProtoSchema.builtin(),
                        kindOf(envelope).group(),
                        kindOf(envelope).version(),
                        envelope.kind());
        Descriptors.Descriptor theirs = THEIRS.get(ProtoSchemaConformanceTest.theirName(message));
        if (theirs == null) {
            return;
        }
        DynamicMessage decoded = DynamicMessage.parseFrom(theirs, envelope.raw());
        Message meta = (Message) decoded.getField(theirs.findFieldByName("metadata"));
        assertEquals("x", meta.getField(meta.getDescriptorForType().findFieldByName("name")));
        assertTrue(
                decoded.getUnknownFields().asMap().isEmpty(),
                "every field we wrote is one Kubernetes knows");
    }

    private static GroupVersionKind kindOf(Envelope.Unknown envelope) {
        return ProtobufBodies.kindOf(
                Json.MAPPER
                        .createObjectNode()
                        .put("apiVersion", envelope.apiVersion())
                        .put("kind", envelope.kind()));
    }

    private static final Map<String, Descriptors.Descriptor> THEIRS = theirs();

    private static Map<String, Descriptors.Descriptor> theirs() {
        Map<String, Descriptors.Descriptor> out = new HashMap<>();
        for (String file :
                List.of(
                        "V1",
                        "V1Apps",
                        "V1Batch",
                        "V1Networking",
                        "V1Policy",
                        "V1Rbac",
                        "V1Storage",
                        "V1Scheduling")) {
            try {
                var fd =
                        (Descriptors.FileDescriptor)
                                Class.forName("io.kubernetes.client.proto." + file)
                                        .getMethod("getDescriptor")
                                        .invoke(null);
                fd.getMessageTypes().forEach(d -> out.put(d.getFullName(), d));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
        return out;
    }

    static List<String> richObjects() {
        return List.of(
                """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"app",
                 "image":"nginx:1.27","ports":[{"containerPort":80,"protocol":"TCP"}],
                 "env":[{"name":"A","valueFrom":{"secretKeyRef":{"name":"s","key":"k","optional":false}}}],
                 "resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
                 "livenessProbe":{"tcpSocket":{"port":"http"},"periodSeconds":10},
                 "securityContext":{"runAsNonRoot":true,"runAsUser":0}}],
                 "volumes":[{"name":"v","persistentVolumeClaim":{"claimName":"c"}},
                   {"name":"w","projected":{"sources":[{"configMap":{"name":"cm","items":[{"key":"a","path":"b","mode":420}]}}]}}],
                 "terminationGracePeriodSeconds":0,"tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"}],
                 "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":
                   [{"matchExpressions":[{"key":"zone","operator":"In","values":["a","b"]}]}]}}}},
                 "status":{"phase":"Running","podIP":"10.0.0.1","startTime":"2026-11-23T10:00:00Z",
                   "containerStatuses":[{"name":"app","ready":false,"restartCount":0,"image":"nginx:1.27","imageID":"",
                   "state":{"running":{"startedAt":"2026-11-23T10:00:01Z"}}}]}}""",
                """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":0,
                 "selector":{"matchLabels":{"app":"d"}},"strategy":{"type":"RollingUpdate","rollingUpdate":
                 {"maxSurge":"25%","maxUnavailable":1}},"template":{"metadata":{"labels":{"app":"d"}},
                 "spec":{"containers":[{"name":"c","image":"i"}]}}},"status":{"replicas":2,"conditions":
                 [{"type":"Available","status":"True","lastUpdateTime":"2026-11-23T10:00:00Z","reason":"R"}]}}""",
                """
                {"apiVersion":"v1","kind":"Service","metadata":{"name":"s"},"spec":{"type":"NodePort",
                 "ports":[{"name":"http","port":80,"targetPort":8080,"nodePort":30080,"protocol":"TCP"}],
                 "selector":{"app":"s"},"clusterIP":"10.96.0.10","clusterIPs":["10.96.0.10"],"ipFamilies":["IPv4"],
                 "sessionAffinity":"None"}}""",
                """
                {"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"c"},"spec":{"schedule":"*/5 * * * *",
                 "suspend":false,"jobTemplate":{"spec":{"backoffLimit":0,"template":{"spec":{"restartPolicy":"Never",
                 "containers":[{"name":"c","image":"busybox","command":["date"]}]}}}}}}""",
                """
                {"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"i"},"spec":{
                 "ingressClassName":"nginx","rules":[{"host":"a.example.com","http":{"paths":[{"path":"/",
                 "pathType":"Prefix","backend":{"service":{"name":"s","port":{"number":80}}}}]}}],
                 "tls":[{"hosts":["a.example.com"],"secretName":"t"}]}}""",
                """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"e"},"involvedObject":{"kind":"Pod","name":"p"},
                 "reason":"Started","message":"m","type":"Normal","count":1,
                 "eventTime":"2026-11-23T10:00:00.123456Z","firstTimestamp":"2026-11-23T10:00:00Z"}""",
                """
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"r"},
                 "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list"]}],
                 "aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"x":"y"}}]}}""");
    }

    @ParameterizedTest
    @MethodSource("richObjects")
    void richObjectsRoundTripThroughEveryKindOfField(String json) throws Exception {
        ObjectNode object = (ObjectNode) Json.MAPPER.readTree(json);
        GroupVersionKind kind = ProtobufBodies.kindOf(object);
        JsonNode back = BODIES.decode(BODIES.encode(object, kind), kind);
        assertEquals(object, back);
    }

    @Test
    void zerosOfFieldsWithoutOmitemptyAreKeptAsGoWritesThem() throws Exception {
        ObjectNode pod =
                (ObjectNode)
                        Json.MAPPER.readTree(
                                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
                                        + "{\"name\":\"p\"},\"status\":{\"containerStatuses\":[{\"name\":\"c\",\"ready\":false,"
                                        + "\"restartCount\":0,\"image\":\"i\",\"imageID\":\"\",\"started\":false}]}}");
        JsonNode back =
                BODIES.decode(
                        BODIES.encode(pod, ProtobufBodies.kindOf(pod)), ProtobufBodies.kindOf(pod));
        JsonNode status = back.at("/status/containerStatuses/0");
        assertTrue(
                status.has("ready") && status.has("restartCount") && status.has("imageID"),
                "ready, restartCount and imageID have no omitempty: " + status);
        assertTrue(status.has("started"), "started is a pointer");
    }

    @Test
    void aPointersZeroSurvivesAndAPlainZeroIsDropped() throws Exception {
        ObjectNode deployment =
                (ObjectNode)
                        Json.MAPPER.readTree(
                                "{\"apiVersion\":\"apps/v1\",\"kind\":"
                                        + "\"Deployment\",\"metadata\":{\"name\":\"d\",\"generation\":0},\"spec\":{\"replicas\":0,"
                                        + "\"minReadySeconds\":0}}");
        JsonNode back =
                BODIES.decode(
                        BODIES.encode(deployment, ProtobufBodies.kindOf(deployment)),
                        ProtobufBodies.kindOf(deployment));
        assertEquals(0, back.at("/spec/replicas").asInt(-1), "replicas is *int32");
        assertTrue(
                back.at("/spec/minReadySeconds").isMissingNode(),
                "minReadySeconds is int32 omitempty");
        assertTrue(back.at("/metadata/generation").isMissingNode());
    }
}
