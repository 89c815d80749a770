package io.kubepekko.agent.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class StaticPodManifestsTest {

    private static final ManifestOrigin FILE =
            ManifestOrigin.file(Path.of("/etc/kubernetes/manifests/web.yaml"));
    private static final ManifestOrigin URL =
            ManifestOrigin.url(URI.create("http://127.0.0.1:8080/pods"));
    private static final Instant SEEN = Instant.parse("2026-01-02T03:04:05.123456789Z");

    private static final String WEB =
            """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              labels: {app: web}
            spec:
              containers:
              - name: app
                image: busybox:1.36
                command: [sleep, "3600"]
            """;

    private static ManifestResult parse(String text, ManifestOrigin origin, String node) {
        return StaticPodManifests.parse(text.getBytes(StandardCharsets.UTF_8), origin, node, SEEN);
    }

    private static ObjectNode one(String text, ManifestOrigin origin) {
        ManifestResult r = parse(text, origin, "node-a");
        List<ObjectNode> pods = assertInstanceOf(ManifestResult.Pods.class, r, r.toString()).pods();
        assertEquals(1, pods.size());
        return pods.get(0);
    }

    private static String error(String text, ManifestOrigin origin) {
        ManifestResult r = parse(text, origin, "node-a");
        return assertInstanceOf(ManifestResult.Invalid.class, r, r.toString()).error().toString();
    }

    @Test
    void aFilePodIsNamedAfterTheNodeBoundToItAndAnnotatedAsTheKubeletDoes() {
        ObjectNode pod = one(WEB, FILE);
        JsonNode meta = pod.path("metadata");
        assertEquals("web-node-a", meta.path("name").asText(), "name suffixed with the node");
        assertEquals("default", meta.path("namespace").asText());
        String uid = meta.path("uid").asText();
        assertTrue(uid.matches("[0-9a-f]{32}"), uid);
        assertEquals(uid, meta.path("annotations").path("kubernetes.io/config.hash").asText());
        assertEquals("file", meta.path("annotations").path("kubernetes.io/config.source").asText());
        assertEquals(
                "2026-01-02T03:04:05.123456789Z",
                meta.path("annotations").path("kubernetes.io/config.seen").asText());
        assertEquals("web", meta.path("labels").path("app").asText());
        assertEquals("node-a", pod.path("spec").path("nodeName").asText());
        assertEquals(
                "Always",
                pod.path("spec").path("restartPolicy").asText(),
                "defaulted like an API pod");
        assertEquals(30, pod.path("spec").path("terminationGracePeriodSeconds").asInt());
        assertEquals(
                "IfNotPresent",
                pod.path("spec").path("containers").get(0).path("imagePullPolicy").asText());
        JsonNode toleration = pod.path("spec").path("tolerations").get(0);
        assertEquals("Exists", toleration.path("operator").asText());
        assertEquals("NoExecute", toleration.path("effect").asText());
    }

    private static String uid(String text, ManifestOrigin origin, String node, Instant seen) {
        ManifestResult r =
                StaticPodManifests.parse(text.getBytes(StandardCharsets.UTF_8), origin, node, seen);
        return assertInstanceOf(ManifestResult.Pods.class, r, r.toString())
                .pods()
                .get(0)
                .path("metadata")
                .path("uid")
                .asText();
    }

    @Test
    void theHashIsStableAcrossReadsAndLayoutButChangesWithTheManifestTheNodeOrThePath() {
        String uid = uid(WEB, FILE, "node-a", SEEN);
        // A pinned value: the uid names the pod's containers in the runtime, so it must not move
        // between releases.
        assertEquals("0e33a02c85cdad05be06ebd92febe3c8", uid);
        assertEquals(
                uid, uid(WEB, FILE, "node-a", SEEN.plusSeconds(60)), "config.seen is not hashed");
        String json =
                "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"spec\":{\"containers\":[{\"command\":[\"sleep\",\"3600\"],"
                        + "\"image\":\"busybox:1.36\",\"name\":\"app\"}]},\"metadata\":{\"labels\":{\"app\":\"web\"},\"name\":\"web\"}}";
        assertEquals(
                uid,
                uid(json, FILE, "node-a", SEEN),
                "JSON with its keys in another order: the same pod");

        assertNotEquals(uid, uid(WEB.replace("3600", "3601"), FILE, "node-a", SEEN));
        assertNotEquals(
                uid, uid(WEB, ManifestOrigin.file(Path.of("/other/web.yaml")), "node-a", SEEN));
        assertNotEquals(uid, uid(WEB, FILE, "node-b", SEEN));
        assertNotEquals(uid, uid(WEB, URL, "node-a", SEEN));
    }

    @Test
    void aUidInTheManifestIsKept() {
        ObjectNode pod =
                one(
                        WEB.replace(
                                "name: web",
                                "name: web\n  uid: fixed-uid\n  namespace: kube-system"),
                        URL);
        assertEquals("fixed-uid", pod.path("metadata").path("uid").asText());
        assertEquals(
                "fixed-uid",
                pod.path("metadata")
                        .path("annotations")
                        .path("kubernetes.io/config.hash")
                        .asText());
        assertEquals("kube-system", pod.path("metadata").path("namespace").asText());
        assertEquals(
                "http",
                pod.path("metadata")
                        .path("annotations")
                        .path("kubernetes.io/config.source")
                        .asText());
        assertTrue(
                pod.path("spec").path("tolerations").isMissingNode(),
                "only file pods get the NoExecute toleration");
    }

    @Test
    void aUrlMayServeAPodList() {
        String list =
                "{apiVersion: v1, kind: PodList, items: ["
                        + asFlow("a")
                        + ", "
                        + asFlow("b")
                        + "]}";
        ManifestResult r = parse(list, URL, "node-a");
        List<ObjectNode> pods = assertInstanceOf(ManifestResult.Pods.class, r, r.toString()).pods();
        assertEquals(
                List.of("a-node-a", "b-node-a"),
                pods.stream().map(p -> p.path("metadata").path("name").asText()).toList());
        assertNotEquals(
                pods.get(0).path("metadata").path("uid"), pods.get(1).path("metadata").path("uid"));
    }

    private static String asFlow(String name) {
        return "{apiVersion: v1, kind: Pod, metadata: {name: "
                + name
                + "}, spec: {containers: [{name: c, image: busybox}]}}";
    }

    @Test
    void aBadManifestIsAnErrorNamingItsSourceAndWhy() {
        assertTrue(
                error("kind: Pod\napiVersion: v1\nmetadata: {name: [", FILE)
                        .startsWith(
                                "file /etc/kubernetes/manifests/web.yaml: couldn't parse as YAML or JSON"));
        assertEquals(
                "file /etc/kubernetes/manifests/web.yaml: couldn't parse as pod: kind Service is not Pod",
                error("{apiVersion: v1, kind: Service, metadata: {name: x}}", FILE));
        assertEquals(
                "file /etc/kubernetes/manifests/web.yaml: couldn't parse as pod: kind PodList is not Pod",
                error("{apiVersion: v1, kind: PodList, items: []}", FILE),
                "a file holds one pod, as in the kubelet");
        assertEquals(
                "file /etc/kubernetes/manifests/web.yaml: invalid pod: [metadata.name: Required value: name or"
                        + " generateName is required]",
                error("{apiVersion: v1, kind: Pod, spec: {containers: []}}", FILE));
        assertTrue(
                error(
                                "{apiVersion: v1, kind: Pod, metadata: {name: x}, spec: {containers: []}}",
                                URL)
                        .startsWith(
                                "http http://127.0.0.1:8080/pods: invalid pod: [spec.containers: Required value"));
    }

    private static final ManifestOrigin POSTED = ManifestOrigin.posted("web");

    @Test
    void aPostedManifestIsAServerSourcePodMayBeAListAndHashesApartFromAFileOfTheSameName() {
        ObjectNode pod = one(WEB, POSTED);
        assertEquals(
                "server",
                pod.path("metadata")
                        .path("annotations")
                        .path("kubernetes.io/config.source")
                        .asText());
        assertTrue(StaticPodAnnotations.isStatic(pod));
        assertEquals("web-node-a", pod.path("metadata").path("name").asText());
        assertTrue(
                pod.path("spec").path("tolerations").isMissingNode(),
                "only file pods get the NoExecute toleration");
        assertEquals(
                uid(WEB, POSTED, "node-a", SEEN),
                uid(WEB, ManifestOrigin.posted("web"), "node-a", SEEN.plusSeconds(9)),
                "the same manifest under the same name gives the same uid (a restarted agent keeps its pod)");
        assertNotEquals(
                uid(WEB, POSTED, "node-a", SEEN),
                uid(WEB, ManifestOrigin.posted("web2"), "node-a", SEEN));
        assertNotEquals(
                uid(WEB, POSTED, "node-a", SEEN),
                uid(WEB, ManifestOrigin.file(Path.of("web")), "node-a", SEEN));

        String list =
                "{apiVersion: v1, kind: List, items: [" + asFlow("a") + ", " + asFlow("b") + "]}";
        ManifestResult r = parse(list, POSTED, "node-a");
        assertEquals(2, assertInstanceOf(ManifestResult.Pods.class, r, r.toString()).pods().size());
    }

    @Test
    void anErrorSaysWhatKindOfProblemItIs() {
        assertEquals(ManifestError.Problem.MALFORMED, problem("metadata: {name: ["));
        assertEquals(
                ManifestError.Problem.NOT_A_POD,
                problem("{apiVersion: v1, kind: Service, metadata: {name: x}}"));
        assertEquals(ManifestError.Problem.NOT_A_POD, problem("[1, 2]"));
        assertEquals(
                ManifestError.Problem.INVALID,
                problem("{apiVersion: v1, kind: Pod, spec: {containers: []}}"));
    }

    private static ManifestError.Problem problem(String text) {
        ManifestResult r = parse(text, POSTED, "node-a");
        return assertInstanceOf(ManifestResult.Invalid.class, r, r.toString()).error().problem();
    }
}
