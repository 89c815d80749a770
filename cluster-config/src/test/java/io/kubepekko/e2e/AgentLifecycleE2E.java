package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.kubepekko.e2e.support.AgentProcess;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.KubepodsLock;
import io.kubepekko.e2e.support.LocalContainerd;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container's life on the agent, proven with the real kubectl on real containerd ({@code
 * bin/containerd-local}, runc, cgroup v1 here) and {@code bin/agent}: a crashing container goes
 * into {@code CrashLoopBackOff}, a failing liveness probe restarts its container, a readiness probe
 * turns Ready on and off, a memory limit ends in {@code OOMKilled}, {@code kubectl delete} sends
 * SIGTERM, and static pods from a directory and a URL run with mirror pods.
 *
 * <p>One containerd, API server and agent for the class (starting them is most of the cost). The
 * crash-looping pod is applied before the tests so that its back-off (10 s, then 20 s) runs while
 * the others do. Probe periods are 1 s and grace periods 1–2 s; every container traps SIGTERM so it
 * stops at once. Needs root (containerd); skipped otherwise and with {@code -DskipE2E}.
 */
@DisabledIfSystemProperty(named = "skipE2E", matches = "true")
class AgentLifecycleE2E {
    /** Alone on the machine's kubepods cgroups for the whole class. */
    @RegisterExtension static final KubepodsLock KUBEPODS = new KubepodsLock();

    private static final Duration AWAIT = Duration.ofSeconds(90);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final String NODE = "e2e-life-node";
    private static final String IMAGE = "docker.io/library/busybox:1.36";

    /**
     * A URL manifest is served only to a request carrying this header, as {@code
     * --manifest-url-header} sends.
     */
    private static final String URL_HEADER = "X-Static-Token";

    private static final String URL_TOKEN = "e2e-secret";

    /** Kept when a test fails: containerd.log, the server's and the agent's logs are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private static LocalContainerd containerd;
    private static ServerProcess server;
    private static AgentProcess agent;
    private static HttpServer manifests;
    private static Kubectl kubectl;
    private static Path agentLog;
    private static Path manifestDir;
    private static Path markerDir;

    @BeforeAll
    static void startNode() throws Exception {
        AgentProcess.assumeRoot();
        ClientBinaries clients = ClientBinaries.require();
        manifestDir = Files.createDirectories(dir.resolve("manifests"));
        markerDir = Files.createDirectories(dir.resolve("markers"));
        manifests = urlSource();
        containerd = LocalContainerd.start(dir.resolve("containerd"));
        server = ServerProcess.start(dir.resolve("server"));
        kubectl = new Kubectl(clients.kubectl(), server.kubeconfig(), dir, dir).withTimeout(AWAIT);
        agentLog = dir.resolve("agent.log");
        agent =
                AgentProcess.start(
                        server.dataDir(),
                        containerd.endpoint(),
                        dir.resolve("agent"),
                        NODE,
                        agentLog,
                        "--pod-manifest-path",
                        manifestDir.toString(),
                        "--file-check-frequency",
                        "1s",
                        "--manifest-url",
                        "http://127.0.0.1:" + manifests.getAddress().getPort() + "/pods",
                        "--manifest-url-header",
                        URL_HEADER + ":" + URL_TOKEN,
                        "--http-check-frequency",
                        "1s");
        apply(
                "crash",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: crash
                spec:
                  nodeName: %s
                  restartPolicy: Always
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "exit 3"]
                """
                        .formatted(NODE, IMAGE));
    }

    @AfterAll
    static void stopNode() throws Exception {
        try {
            if (agent != null) {
                agent.close();
            }
        } finally {
            if (manifests != null) {
                manifests.stop(0);
            }
            if (server != null) {
                server.close();
            }
            if (containerd != null) {
                containerd.close();
            }
        }
    }

    @Test
    void
            aContainerThatKeepsExitingThreeIsInCrashLoopBackOffWithItsRestartsCountedAndItsLastExitKept() {
        String waiting =
                await().atMost(AWAIT)
                        .pollInterval(POLL)
                        .alias("crash: restartCount >= 2 and waiting in CrashLoopBackOff")
                        .until(
                                () ->
                                        get(
                                                "crash",
                                                "{.status.containerStatuses[0].restartCount} "
                                                        + "{.status.containerStatuses[0].state.waiting.reason} "
                                                        + "{.status.containerStatuses[0].state.waiting.message}"),
                                s -> s.matches("([2-9]|\\d{2,}) CrashLoopBackOff .*"));
        // The first restart is at once, each later one waits 10 s doubled per restart before it.
        int restarts = Integer.parseInt(waiting.split(" ")[0]);
        assertEquals(
                restarts
                        + " CrashLoopBackOff back-off "
                        + goSeconds(10 << (restarts - 1))
                        + " restarting failed"
                        + " container=app pod=crash_default("
                        + get("crash", "{.metadata.uid}")
                        + ")",
                waiting);
        assertEquals(
                "3 Error",
                get(
                        "crash",
                        "{.status.containerStatuses[0].lastState.terminated.exitCode} "
                                + "{.status.containerStatuses[0].lastState.terminated.reason}"));
        assertEquals(
                "Running false",
                get("crash", "{.status.phase} {.status.containerStatuses[0].ready}"));
        delete("crash");
    }

    @Test
    void aFailingLivenessProbeRestartsTheContainer() {
        apply(
                "liveness",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: liveness
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "trap 'exit 0' TERM; touch /tmp/healthy; sleep 3; rm /tmp/healthy; while true; do sleep 1; done"]
                    livenessProbe:
                      exec:
                        command: ["cat", "/tmp/healthy"]
                      periodSeconds: 1
                      failureThreshold: 1
                """
                        .formatted(NODE, IMAGE));
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("liveness: restartCount >= 1")
                .until(
                        () -> get("liveness", "{.status.containerStatuses[0].restartCount}"),
                        s -> s.matches("[1-9]\\d*"));
        // The probe's kill is a SIGTERM the app answers with exit 0: the kubelet's reason for that
        // is Completed.
        assertEquals(
                "0 Completed",
                get(
                        "liveness",
                        "{.status.containerStatuses[0].lastState.terminated.exitCode} "
                                + "{.status.containerStatuses[0].lastState.terminated.reason}"));
        delete("liveness");
    }

    @Test
    void aReadinessProbeMakesThePodReadyWhileItPassesAndNotReadyOnceItFails() {
        apply(
                "readiness",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: readiness
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 2
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    # ready from about 2 s after the start for 15 s, then not ready for good
                    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 2; touch /tmp/ready; sleep 15; rm /tmp/ready; while true; do sleep 1; done"]
                    readinessProbe:
                      exec:
                        command: ["cat", "/tmp/ready"]
                      periodSeconds: 1
                      failureThreshold: 1
                """
                        .formatted(NODE, IMAGE));
        ProcessResult ready =
                kubectl.run("wait", "--for=condition=Ready", "pod/readiness", "--timeout=90s");
        assertEquals(0, ready.exitCode(), ready.describe());
        assertEquals(
                "true True",
                get(
                        "readiness",
                        "{.status.containerStatuses[0].ready} "
                                + "{.status.conditions[?(@.type==\"ContainersReady\")].status}"));
        ProcessResult unready =
                kubectl.run(
                        "wait", "--for=condition=Ready=false", "pod/readiness", "--timeout=90s");
        assertEquals(0, unready.exitCode(), unready.describe());
        // Readiness never restarts: the same container runs on, only not ready.
        assertEquals(
                "0 false",
                get(
                        "readiness",
                        "{.status.containerStatuses[0].restartCount} "
                                + "{.status.containerStatuses[0].ready}"));
        delete("readiness");
    }

    @Test
    void aContainerAllocatingPastItsMemoryLimitIsOomKilled() {
        apply(
                "oom",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: oom
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    # dd reads 64 MiB of zeroes into one buffer it touches: far past the 16 MiB limit.
                    # Not at once: containerd 1.6's shim watches the cgroup for OOM kills only once
                    # the start returned and sends no OOM event for an earlier one (containerd#8180;
                    # Kubernetes' node e2e sleeps 5 s before its dd).
                    command: ["sh", "-c", "sleep 2 && dd if=/dev/zero of=/dev/null bs=64M count=1"]
                    resources:
                      limits:
                        memory: 16Mi
                """
                        .formatted(NODE, IMAGE));
        // The exit may read Error 137 first: containerd 1.6 may handle the OOM event after it.
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("oom: terminated OOMKilled")
                .untilAsserted(
                        () ->
                                assertEquals(
                                        "OOMKilled 137 Failed",
                                        get(
                                                "oom",
                                                "{.status.containerStatuses[0].state.terminated.reason} "
                                                        + "{.status.containerStatuses[0].state.terminated.exitCode}"
                                                        + " {.status.phase}")));
        delete("oom");
    }

    @Test
    void kubectlDeleteSendsTheContainerSigtermAndRemovesThePod() throws IOException {
        Path marker = markerDir.resolve("got-term");
        apply(
                "term",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: term
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 5
                  volumes:
                  - name: markers
                    hostPath:
                      path: %s
                      type: Directory
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "trap 'echo SIGTERM > /markers/got-term; exit 0' TERM; while true; do sleep 1; done"]
                    volumeMounts:
                    - name: markers
                      mountPath: /markers
                """
                        .formatted(NODE, markerDir, IMAGE));
        ProcessResult running =
                kubectl.run(
                        "wait",
                        "--for=jsonpath={.status.phase}=Running",
                        "pod/term",
                        "--timeout=90s");
        assertEquals(0, running.exitCode(), running.describe());
        delete("term");
        assertEquals("SIGTERM\n", Files.readString(marker));
        ProcessResult gone = kubectl.run("get", "pod", "term");
        assertEquals(1, gone.exitCode(), gone.describe());
        assertTrue(gone.stderrText().contains("pods \"term\" not found"), gone.describe());
    }

    @Test
    void
            aStaticPodFromTheManifestDirectoryRunsWithAMirrorThatComesBackWhenDeletedAndGoesWithTheFile()
                    throws IOException {
        Path file = manifestDir.resolve("web.yaml");
        Files.writeString(
                file,
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: web
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]
                """
                        .formatted(IMAGE));
        String mirror = "web-" + NODE;
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror " + mirror + " Running")
                .until(() -> get(mirror, "{.status.phase}"), "Running"::equals);
        String hash = get(mirror, "{.metadata.annotations.kubernetes\\.io/config\\.hash}");
        assertEquals(
                hash + " file " + NODE + " Node",
                get(
                        mirror,
                        "{.metadata.annotations.kubernetes\\.io/config\\.mirror} "
                                + "{.metadata.annotations.kubernetes\\.io/config\\.source} {.spec.nodeName} "
                                + "{.metadata.ownerReferences[0].kind}"));
        String uid = get(mirror, "{.metadata.uid}");

        // Without --wait=false kubectl could wait forever: it lists by name after its delete, and
        // when the agent has
        // already replaced the mirror (it does so at once, as the kubelet's syncPod) it waits for
        // that one to go.
        ProcessResult delete = kubectl.run("delete", "pod", mirror, "--wait=false");
        assertEquals(0, delete.exitCode(), delete.describe());
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror recreated")
                .until(() -> get(mirror, "{.metadata.uid}"), u -> !u.isEmpty() && !u.equals(uid));
        assertEquals(hash, get(mirror, "{.metadata.annotations.kubernetes\\.io/config\\.mirror}"));

        Files.delete(file);
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror gone with the file")
                .until(() -> kubectl.run("get", "pod", mirror).stderrText().contains("not found"));
    }

    @Test
    void aStaticPodFromTheManifestUrlRunsWithAMirror() {
        String mirror = "url-web-" + NODE;
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror " + mirror + " Running")
                .until(() -> get(mirror, "{.status.phase}"), "Running"::equals);
        assertEquals(
                "http", get(mirror, "{.metadata.annotations.kubernetes\\.io/config\\.source}"));
        assertNotEquals("", get(mirror, "{.metadata.annotations.kubernetes\\.io/config\\.mirror}"));
    }

    @Test
    void aManifestPostedToTheAgentsOwnServerRunsWithAMirrorAndStopsWithItsDelete()
            throws Exception {
        // --port 0: the Node reports the port the agent bound, and the agent answers there.
        String port =
                await().atMost(AWAIT)
                        .pollInterval(POLL)
                        .alias("the Node's daemonEndpoints")
                        .until(
                                () ->
                                        kubectl.run(
                                                        "get",
                                                        "node",
                                                        NODE,
                                                        "-o",
                                                        "jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}")
                                                .stdoutText()
                                                .strip(),
                                p -> !p.isEmpty());
        URI agentServer = URI.create("http://127.0.0.1:" + Integer.parseInt(port));
        HttpClient http = HttpClient.newHttpClient();
        assertEquals(
                "ok",
                http.send(
                                HttpRequest.newBuilder(agentServer.resolve("/healthz")).build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());

        String manifest =
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: posted
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]
                """
                        .formatted(IMAGE);
        var put =
                http.send(
                        HttpRequest.newBuilder(agentServer.resolve("/static-pods/posted"))
                                .PUT(HttpRequest.BodyPublishers.ofString(manifest))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(201, put.statusCode(), put.body());
        String mirror = "posted-" + NODE;
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror " + mirror + " Running")
                .until(() -> get(mirror, "{.status.phase}"), "Running"::equals);
        assertEquals(
                "server", get(mirror, "{.metadata.annotations.kubernetes\\.io/config\\.source}"));

        var delete =
                http.send(
                        HttpRequest.newBuilder(agentServer.resolve("/static-pods/posted"))
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, delete.statusCode(), delete.body());
        await().atMost(AWAIT)
                .pollInterval(POLL)
                .alias("mirror gone with the posted manifest")
                .until(() -> kubectl.run("get", "pod", mirror).stderrText().contains("not found"));
    }

    /**
     * A URL source on 127.0.0.1 that answers the static pod only to a request with the agent's
     * header.
     */
    private static HttpServer urlSource() throws IOException {
        byte[] pod =
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: url-web
                spec:
                  terminationGracePeriodSeconds: 1
                  containers:
                  - name: app
                    image: %s
                    imagePullPolicy: IfNotPresent
                    command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 1; done"]
                """
                        .formatted(IMAGE)
                        .getBytes(StandardCharsets.UTF_8);
        HttpServer http =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext(
                "/pods",
                exchange -> {
                    try (exchange) {
                        if (URL_TOKEN.equals(exchange.getRequestHeaders().getFirst(URL_HEADER))) {
                            exchange.sendResponseHeaders(200, pod.length);
                            exchange.getResponseBody().write(pod);
                        } else {
                            exchange.sendResponseHeaders(403, -1);
                        }
                    }
                });
        http.start();
        return http;
    }

    private static void apply(String name, String manifest) {
        try {
            Path file = dir.resolve(name + ".yaml");
            Files.writeString(file, manifest);
            ProcessResult apply = kubectl.run("apply", "-f", file.toString());
            assertEquals(0, apply.exitCode(), apply.describe());
            assertEquals("pod/" + name + " created", apply.stdoutText(), apply.describe());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code kubectl delete}: returns once the agent has stopped the pod and removed the object.
     */
    private static void delete(String name) {
        ProcessResult delete = kubectl.run("delete", "pod", name);
        assertEquals(0, delete.exitCode(), delete.describe());
        assertEquals(
                "pod \"" + name + "\" deleted from default namespace",
                delete.stdoutText().strip(),
                delete.describe());
    }

    /**
     * {@code kubectl get pod NAME -o jsonpath=...}: the text, or "" when the pod does not exist.
     */
    private static String get(String name, String jsonpath) {
        ProcessResult get = kubectl.run("get", "pod", name, "-o", "jsonpath=" + jsonpath);
        if (get.exitCode() != 0) {
            assertTrue(get.stderrText().contains("not found"), get.describe());
            return "";
        }
        return get.stdoutText();
    }

    /**
     * Seconds as Go's {@code time.Duration} prints them, as the kubelet's back-off message does: 80
     * → 1m20s.
     */
    private static String goSeconds(int seconds) {
        return seconds < 60 ? seconds + "s" : seconds / 60 + "m" + seconds % 60 + "s";
    }
}
