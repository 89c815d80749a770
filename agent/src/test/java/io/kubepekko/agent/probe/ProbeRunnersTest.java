package io.kubepekko.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.LinuxPodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import io.kubepekko.agent.probe.health.v1.HealthCheckRequest;
import io.kubepekko.agent.probe.health.v1.HealthCheckResponse;
import io.kubepekko.agent.probe.health.v1.HealthGrpc;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe runners against a local HTTP server, local TCP ports and the fake CRI runtime's
 * ExecSync.
 */
class ProbeRunnersTest {

    private static final JsonMapper MAPPER =
            JsonMapper.builder()
                    .enable(
                            JsonReadFeature.ALLOW_SINGLE_QUOTES,
                            JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
                    .build();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @TempDir Path dir;

    private HttpServer server;
    private int port;
    private final Map<String, String> seenHeaders = new ConcurrentHashMap<>();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        port = server.getAddress().getPort();
        server.createContext(
                "/ok",
                ex -> {
                    ex.getRequestHeaders()
                            .forEach((k, v) -> seenHeaders.put(k.toLowerCase(), v.get(0)));
                    answer(ex, 200, "fine");
                });
        server.createContext("/broken", ex -> answer(ex, 500, "secret body"));
        server.createContext(
                "/huge",
                ex -> {
                    // A body without end: the probe must stop reading it.
                    ex.sendResponseHeaders(200, 0);
                    byte[] chunk = "a".repeat(64 * 1024).getBytes(StandardCharsets.UTF_8);
                    try (OutputStream out = ex.getResponseBody()) {
                        while (true) {
                            out.write(chunk);
                        }
                    } catch (IOException dropped) {
                        ex.close();
                    }
                });
        server.createContext(
                "/moved",
                ex -> {
                    ex.getResponseHeaders().add("Location", "/ok");
                    answer(ex, 302, "");
                });
        server.createContext(
                "/elsewhere",
                ex -> {
                    // Another host name for the same server: the kubelet does not follow it, and
                    // the 3xx passes.
                    ex.getResponseHeaders().add("Location", "http://localhost:" + port + "/broken");
                    answer(ex, 301, "gone");
                });
        server.createContext(
                "/loop",
                ex -> {
                    ex.getResponseHeaders().add("Location", "/loop");
                    answer(ex, 307, "");
                });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    private static void answer(HttpExchange ex, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
        ex.close();
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ProbeOutcome await(CompletionStage<ProbeOutcome> stage) {
        try {
            return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private ProbeOutcome http(String httpGet, String container) {
        return await(HttpProbe.run(json(httpGet), json(container), "127.0.0.1", TIMEOUT));
    }

    // ---------------------------------------------------------------- httpGet

    @Test
    void httpGet2xxPassesWithTheBodyAndSendsTheKubeletsHeaders() {
        ProbeOutcome o =
                http(
                        "{path: '/ok', port: "
                                + port
                                + ", httpHeaders: [{name: 'X-Custom', value: 'yes'}]}",
                        "{}");
        assertEquals(ProbeOutcome.success("fine"), o);
        assertEquals("yes", seenHeaders.get("x-custom"));
        assertEquals("kube-probe/1.35", seenHeaders.get("user-agent"));
        assertEquals("*/*", seenHeaders.get("accept"));
    }

    @Test
    void httpGetSendsAHostHeaderFromTheProbesHeadersAsTheKubeletsRequestHost() {
        assertEquals(
                ProbeResult.SUCCESS,
                http(
                                "{path: '/ok', port: "
                                        + port
                                        + ", httpHeaders: [{name: 'Host', value: 'www.example.test'}]}",
                                "{}")
                        .result());
        assertEquals("www.example.test", seenHeaders.get("host"));
    }

    @Test
    void httpGetReadsAtMost10KiBOfABodyWithoutEndAndPassesWithTheTruncatedBody() {
        ProbeOutcome o = http("{path: '/huge', port: " + port + "}", "{}");
        assertEquals(ProbeResult.SUCCESS, o.result());
        assertEquals("a".repeat(10 * 1024), o.output());
    }

    @Test
    void httpGetHeadersOverrideUserAgentAndAccept() {
        http(
                "{path: '/ok', port: "
                        + port
                        + ", httpHeaders: [{name: 'User-Agent', value: 'mine'},"
                        + " {name: 'Accept', value: 'application/json'}]}",
                "{}");
        assertEquals("mine", seenHeaders.get("user-agent"));
        assertEquals("application/json", seenHeaders.get("accept"));
    }

    @Test
    void httpGetFindsAPortByTheContainersPortName() {
        ProbeOutcome o =
                http(
                        "{path: '/ok', port: 'web'}",
                        "{ports: [{name: 'web', containerPort: " + port + "}]}");
        assertEquals(ProbeResult.SUCCESS, o.result());
    }

    @Test
    void httpGetWithAnUnknownPortNameErrorsAndIsNotCounted() {
        ProbeOutcome o =
                http("{path: '/ok', port: 'nope'}", "{ports: [{name: 'web', containerPort: 80}]}");
        assertEquals(ProbeResult.UNKNOWN, o.result());
        assertTrue(o.counted().isEmpty());
    }

    @Test
    void httpGet5xxFailsWithTheStatusCodeNotTheBody() {
        assertEquals(
                ProbeOutcome.failure("HTTP probe failed with statuscode: 500"),
                http("{path: '/broken', port: " + port + "}", "{}"));
    }

    @Test
    void httpGetFollowsARedirectToTheSameHost() {
        assertEquals(
                ProbeOutcome.success("fine"), http("{path: '/moved', port: " + port + "}", "{}"));
    }

    @Test
    void httpGetDoesNotFollowARedirectToAnotherHostAndPassesWithAWarning() {
        assertEquals(
                ProbeOutcome.success("Probe terminated redirects, Response body: gone"),
                http("{path: '/elsewhere', port: " + port + "}", "{}"));
    }

    @Test
    void httpGetStopsAfterTenRedirects() {
        ProbeOutcome o = http("{path: '/loop', port: " + port + "}", "{}");
        assertEquals(ProbeResult.FAILURE, o.result());
        assertTrue(o.output().endsWith(": stopped after 10 redirects"), o.output());
    }

    @Test
    void httpGetToAClosedPortFailsAsGoWordsIt() throws IOException {
        int closed = closedPort();
        ProbeOutcome o = http("{path: '/ok', port: " + closed + "}", "{}");
        assertEquals(
                ProbeOutcome.failure(
                        "Get \"http://127.0.0.1:"
                                + closed
                                + "/ok\": dial tcp 127.0.0.1:"
                                + closed
                                + ": connect: connection refused"),
                o);
    }

    // ---------------------------------------------------------------- tcpSocket

    @Test
    void tcpSocketPassesWhenAConnectionOpens() throws IOException {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertEquals(
                    ProbeOutcome.success(""),
                    await(TcpProbe.run("127.0.0.1", listening.getLocalPort(), TIMEOUT)));
        }
    }

    @Test
    void tcpSocketToAClosedPortFails() throws IOException {
        int closed = closedPort();
        assertEquals(
                ProbeOutcome.failure(
                        "dial tcp 127.0.0.1:" + closed + ": connect: connection refused"),
                await(TcpProbe.run("127.0.0.1", closed, TIMEOUT)));
    }

    @Test
    void proberRunsATcpSocketProbeOnTheContainersNamedPortAtThePodIp() throws IOException {
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ProbeSpec spec = ProbeSpec.of(ProbeKind.READINESS, json("{tcpSocket: {port: 'db'}}"));
            ProbeOutcome o =
                    await(
                            new Prober(null)
                                    .run(
                                            spec,
                                            json(
                                                    "{ports: [{name: 'db', containerPort: "
                                                            + listening.getLocalPort()
                                                            + "}]}"),
                                            "c1",
                                            "127.0.0.1"));
            assertEquals(ProbeResult.SUCCESS, o.result());
        }
    }

    // ---------------------------------------------------------------- grpc

    @Test
    void grpcPassesWhenTheHealthServiceSaysServingAndFailsOtherwise() throws IOException {
        Server health =
                NettyServerBuilder.forAddress(
                                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .addService(
                                new HealthGrpc.HealthImplBase() {
                                    @Override
                                    public void check(
                                            HealthCheckRequest request,
                                            StreamObserver<HealthCheckResponse> out) {
                                        out.onNext(
                                                HealthCheckResponse.newBuilder()
                                                        .setStatus(
                                                                request.getService().isEmpty()
                                                                        ? HealthCheckResponse
                                                                                .ServingStatus
                                                                                .SERVING
                                                                        : HealthCheckResponse
                                                                                .ServingStatus
                                                                                .NOT_SERVING)
                                                        .build());
                                        out.onCompleted();
                                    }
                                })
                        .build()
                        .start();
        try {
            Prober prober = new Prober(null);
            ProbeSpec serving =
                    ProbeSpec.of(
                            ProbeKind.LIVENESS, json("{grpc: {port: " + health.getPort() + "}}"));
            assertEquals(
                    ProbeOutcome.success("service healthy"),
                    await(prober.run(serving, json("{}"), "c1", "127.0.0.1")));
            ProbeSpec named =
                    ProbeSpec.of(
                            ProbeKind.LIVENESS,
                            json("{grpc: {port: " + health.getPort() + ", service: 'db'}}"));
            assertEquals(
                    ProbeOutcome.failure("service unhealthy (responded with \"NOT_SERVING\")"),
                    await(prober.run(named, json("{}"), "c1", "127.0.0.1")));
        } finally {
            health.shutdownNow();
        }
    }

    @Test
    void grpcFailsOnAServerWithoutTheHealthServiceAndOnAClosedPort() throws IOException {
        Server bare =
                NettyServerBuilder.forAddress(
                                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                        .build()
                        .start();
        try {
            ProbeOutcome o = await(GrpcProbe.run("127.0.0.1", bare.getPort(), "", TIMEOUT));
            assertEquals(ProbeResult.FAILURE, o.result());
            assertTrue(
                    o.output()
                            .startsWith(
                                    "error: this server does not implement the grpc health protocol"
                                            + " (grpc.health.v1.Health): "),
                    o.output());
        } finally {
            bare.shutdownNow();
        }
        int closed = closedPort();
        ProbeOutcome refused = await(GrpcProbe.run("127.0.0.1", closed, "", TIMEOUT));
        assertEquals(ProbeResult.FAILURE, refused.result());
        assertTrue(
                refused.output()
                        .startsWith(
                                "error: failed to connect service at \"127.0.0.1:"
                                        + closed
                                        + "\": "),
                refused.output());
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    // ---------------------------------------------------------------- exec

    @Test
    void execPassesOnExitZeroFailsOtherwiseWithStdoutThenStderrAndFailsOnTimeout() {
        try (FakeCri fake = FakeCri.start(dir.resolve("cri.sock"))) {
            CriRuntime cri = fake.client();
            String id = runningContainer(cri, "app");
            fake.scriptExec(
                    "app",
                    FakeCri.ExecAnswer.exit(0, "ok", ""),
                    FakeCri.ExecAnswer.exit(1, "out ", "err"),
                    FakeCri.ExecAnswer.timesOut());
            List<String> cmd = List.of("cat", "/tmp/healthy");

            assertEquals(
                    ProbeOutcome.success("ok"),
                    await(ExecProbe.run(cri, id, cmd, Duration.ofSeconds(1))));
            assertEquals(
                    ProbeOutcome.failure("out err"),
                    await(ExecProbe.run(cri, id, cmd, Duration.ofSeconds(1))));
            assertEquals(
                    ProbeOutcome.failure("command \"cat /tmp/healthy\" timed out"),
                    await(ExecProbe.run(cri, id, cmd, Duration.ofSeconds(1))));
        }
    }

    @Test
    void execInAContainerThatIsGoneErrorsAndIsNotCounted() {
        try (FakeCri fake = FakeCri.start(dir.resolve("cri.sock"))) {
            ProbeOutcome o =
                    await(
                            ExecProbe.run(
                                    fake.client(), "nope", List.of("true"), Duration.ofSeconds(1)));
            assertEquals(ProbeResult.UNKNOWN, o.result());
        }
    }

    @Test
    void outputIsCutAtTenKibibytes() {
        assertEquals(10 * 1024, ProbeOutcome.failure("x".repeat(20_000)).output().length());
    }

    private static String runningContainer(CriRuntime cri, String name) {
        PodSandboxConfig pod =
                PodSandboxConfig.newBuilder()
                        .setMetadata(
                                PodSandboxMetadata.newBuilder()
                                        .setName("p")
                                        .setNamespace("default")
                                        .setUid("u"))
                        .setLogDirectory("/var/log/pods/default_p_u")
                        .putLabels("io.kubernetes.pod.uid", "u")
                        .setLinux(
                                LinuxPodSandboxConfig.newBuilder()
                                        .setCgroupParent("/kubepods/besteffort/podu"))
                        .build();
        try {
            String sandbox =
                    cri.runPodSandbox(pod, "").toCompletableFuture().get(30, TimeUnit.SECONDS);
            ContainerConfig config =
                    ContainerConfig.newBuilder()
                            .setMetadata(ContainerMetadata.newBuilder().setName(name))
                            .setImage(ImageSpec.newBuilder().setImage(FakeCri.BUSYBOX_IMAGE))
                            .setLogPath(name + "/0.log")
                            .build();
            String id =
                    cri.createContainer(sandbox, config, pod)
                            .toCompletableFuture()
                            .get(30, TimeUnit.SECONDS);
            cri.startContainer(id).toCompletableFuture().get(30, TimeUnit.SECONDS);
            return id;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
