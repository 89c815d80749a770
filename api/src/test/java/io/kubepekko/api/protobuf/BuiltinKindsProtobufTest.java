package io.kubepekko.api.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.Registry;
import io.kubepekko.api.registry.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        ObjectNode object = (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"" + kind.apiVersion()
                + "\",\"kind\":\"" + kind.kind() + "\",\"metadata\":{\"name\":\"x\",\"namespace\":\"ns\",\"uid\":\"u\","
                + "\"resourceVersion\":\"7\",\"generation\":2,\"creationTimestamp\":\"2026-11-23T10:00:00Z\","
                + "\"labels\":{\"a\":\"b\"},\"annotations\":{\"c\":\"d\"},\"finalizers\":[\"f\"],"
                + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"o\",\"uid\":\"ou\","
                + "\"controller\":true}]}}");
        assertEquals(object, BODIES.decode(BODIES.encode(object, kind), kind));
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
                   "containerStatuses":[{"name":"app","ready":true,"restartCount":3,"image":"nginx:1.27",
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
    void aPointersZeroSurvivesAndAPlainZeroIsDropped() throws Exception {
        ObjectNode deployment = (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\":\"apps/v1\",\"kind\":"
                + "\"Deployment\",\"metadata\":{\"name\":\"d\",\"generation\":0},\"spec\":{\"replicas\":0,"
                + "\"minReadySeconds\":0}}");
        JsonNode back = BODIES.decode(BODIES.encode(deployment, ProtobufBodies.kindOf(deployment)),
                ProtobufBodies.kindOf(deployment));
        assertEquals(0, back.at("/spec/replicas").asInt(-1), "replicas is *int32");
        assertTrue(back.at("/spec/minReadySeconds").isMissingNode(), "minReadySeconds is int32 omitempty");
        assertTrue(back.at("/metadata/generation").isMissingNode());
    }
}
