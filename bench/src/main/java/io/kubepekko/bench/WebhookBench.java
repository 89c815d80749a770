package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.security.CertificateIssuer;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.ServingTlsContexts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;

/**
 * What an admission webhook call adds to a create: sequential ConfigMap creates, one connection,
 * into a namespace no webhook matches and into namespaces a validating or a mutating webhook (an
 * HTTPS server in this process on loopback that allows everything, the mutating one without a
 * patch) is called for, in interleaved blocks so that drift and the JIT's warming fall on all three
 * alike. Reported: each block kind's p50 and p99 and the p50 differences. Run it with {@code
 * bench/webhook --help}.
 */
public final class WebhookBench {

    static final String USAGE =
            """
      usage: bench/webhook [options]
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --duration D            measured time per block (default 5s)
        --warmup D              unmeasured creates before the first block (default 10s)
        --rounds N              blocks of each kind, interleaved (default 3)
        --start-timeout D       deadline for the server to become ready (default 300s)
        --out FILE              also append the report to FILE
      """;

    /** Command-line settings; see {@link #USAGE}. */
    record Options(
            Path apiserver,
            Duration duration,
            Duration warmup,
            int rounds,
            Duration startTimeout,
            Path out) {}

    /** Where a block's creates go, and which webhook they call. */
    enum Block {
        NONE("wh-none"),
        VALIDATING("wh-validating"),
        MUTATING("wh-mutating");

        final String namespace;

        Block(String namespace) {
            this.namespace = namespace;
        }
    }

    private static final Duration CALLED_TIMEOUT = Duration.ofSeconds(60);

    private final Options options;
    private final AtomicLong names = new AtomicLong();
    private final AtomicLong calls = new AtomicLong();

    private WebhookBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchFlags.parseOrExit(args, WebhookBench::parse, USAGE);
        String command =
                System.getProperty("bench.command", "WebhookBench " + String.join(" ", args));
        try {
            new WebhookBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    static Options parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "apiserver",
                                "duration",
                                "warmup",
                                "rounds",
                                "start-timeout",
                                "out"),
                        USAGE);
        Path root = Path.of(System.getProperty("bench.root", "."));
        Options options =
                new Options(
                        flags.containsKey("apiserver")
                                ? Path.of(flags.get("apiserver"))
                                : root.resolve("cluster-config/bin/apiserver"),
                        BenchFlags.duration(flags.getOrDefault("duration", "5s")),
                        BenchFlags.duration(flags.getOrDefault("warmup", "10s")),
                        Integer.parseInt(flags.getOrDefault("rounds", "3")),
                        BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                        flags.containsKey("out") ? Path.of(flags.get("out")) : null);
        if (options.rounds() < 1) {
            throw new IllegalArgumentException("--rounds must be at least 1");
        }
        return options;
    }

    private void run(String command) throws Exception {
        String loadAtStart = Report.loadAverage();
        ExecutorService executor = Executors.newFixedThreadPool(4);
        WebhookServer webhooks = WebhookServer.start(executor, calls);
        try (ServerProcess process =
                        Processes.closeOnExit(
                                ServerProcess.start(options.apiserver(), options.startTimeout()));
                HttpConn conn = new HttpConn(process.endpoint())) {
            conn.connect();
            for (Block block : Block.values()) {
                expect(conn.send("POST", "/api/v1/namespaces", namespace(block.namespace)), 201);
            }
            expect(
                    conn.send(
                            "POST",
                            "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
                            webhooks.configuration(
                                    "ValidatingWebhookConfiguration", Block.VALIDATING.namespace)),
                    201);
            expect(
                    conn.send(
                            "POST",
                            "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
                            webhooks.configuration(
                                    "MutatingWebhookConfiguration", Block.MUTATING.namespace)),
                    201);
            awaitCalled(conn, Block.VALIDATING);
            awaitCalled(conn, Block.MUTATING);

            long warmEnd = System.nanoTime() + options.warmup().toNanos();
            while (System.nanoTime() < warmEnd) {
                for (Block block : Block.values()) {
                    create(conn, block);
                }
            }
            Map<Block, Histogram> latencies = new EnumMap<>(Block.class);
            Map<Block, Long> counts = new EnumMap<>(Block.class);
            long callsBefore = calls.get();
            for (int round = 0; round < options.rounds(); round++) {
                for (Block block : Block.values()) {
                    Histogram h = latencies.computeIfAbsent(block, b -> new Histogram());
                    long end = System.nanoTime() + options.duration().toNanos();
                    long n = 0;
                    while (System.nanoTime() < end) {
                        long start = System.nanoTime();
                        create(conn, block);
                        h.record(System.nanoTime() - start);
                        n++;
                    }
                    counts.merge(block, n, Long::sum);
                }
            }
            long called = calls.get() - callsBefore;
            String report =
                    report(command, loadAtStart, latencies, counts, called, options.rounds());
            System.out.print(report);
            if (options.out() != null) {
                Files.writeString(
                        options.out(),
                        report,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
        } finally {
            webhooks.stop();
            executor.shutdownNow();
        }
    }

    private void create(HttpConn conn, Block block) throws IOException {
        String name = "c" + names.incrementAndGet();
        expect(
                conn.send(
                        "POST",
                        "/api/v1/namespaces/" + block.namespace + "/configmaps",
                        ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                                        + name
                                        + "\"},\"data\":{\"k\":\"v\"}}")
                                .getBytes(StandardCharsets.UTF_8)),
                201);
    }

    /** Creates into {@code block}'s namespace until its webhook has been called once. */
    private void awaitCalled(HttpConn conn, Block block) throws IOException {
        long before = calls.get();
        long deadline = System.nanoTime() + CALLED_TIMEOUT.toNanos();
        while (calls.get() == before) {
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        "the " + block + " webhook was not called within " + CALLED_TIMEOUT);
            }
            create(conn, block);
        }
    }

    private static void expect(HttpConn.Response r, int status) throws IOException {
        if (r.status() != status) {
            throw new IOException(
                    "expected "
                            + status
                            + ", got "
                            + r.status()
                            + ": "
                            + new String(r.body(), StandardCharsets.UTF_8));
        }
    }

    private static byte[] namespace(String name) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"labels\":{\"bench-webhook\":\""
                        + name
                        + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    static String report(
            String command,
            String loadAtStart,
            Map<Block, Histogram> latencies,
            Map<Block, Long> counts,
            long called,
            int rounds) {
        StringBuilder out = new StringBuilder();
        out.append("\n## Webhook call cost (bench/webhook)\n\n");
        out.append("`").append(command).append("`, load average at start ").append(loadAtStart);
        out.append(", ").append(rounds).append(" interleaved blocks of each kind\n\n");
        out.append("| creates into | creates | p50 ms | p99 ms | p50 over none, ms |\n");
        out.append("|---|---|---|---|---|\n");
        double none = latencies.get(Block.NONE).percentile(0.5) / 1e6;
        for (Block block : Block.values()) {
            Histogram h = latencies.get(block);
            double p50 = h.percentile(0.5) / 1e6;
            out.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %d | %.3f | %.3f | %s |%n",
                            block.name().toLowerCase(Locale.ROOT),
                            counts.get(block),
                            p50,
                            h.percentile(0.99) / 1e6,
                            block == Block.NONE
                                    ? "-"
                                    : String.format(Locale.ROOT, "%+.3f", p50 - none)));
        }
        out.append("\nwebhook calls during the measured blocks: ").append(called).append('\n');
        return out.toString();
    }

    /**
     * The webhooks: one HTTPS server on loopback with a certificate of its own CA, allowing every
     * review it gets (the mutating one without a patch), counting the calls.
     */
    private static final class WebhookServer {
        private final HttpsServer server;
        private final String caBundle;

        private WebhookServer(HttpsServer server, String caBundle) {
            this.server = server;
            this.caBundle = caBundle;
        }

        static WebhookServer start(ExecutorService executor, AtomicLong calls) throws IOException {
            // The JDK's server leaves Nagle's algorithm on, which holds each small answer until
            // the client's delayed ACK (40 ms on Linux); Go's net/http, which webhooks are
            // mostly written with, turns it off, as this does.
            System.setProperty("sun.net.httpserver.nodelay", "true");
            Instant now = Instant.now();
            CertificateIssuer.Issued ca =
                    CertificateIssuer.selfSignedCa("bench-webhook-ca", now, Duration.ofDays(1));
            CertificateIssuer.Issued serving =
                    CertificateIssuer.leaf(
                            ca,
                            CertificateIssuer.subject("bench-webhook", List.of()),
                            CertificateIssuer.Usage.SERVER,
                            new ServingNames(List.of("localhost"), List.of("127.0.0.1")),
                            now,
                            Duration.ofDays(1));
            SSLContext tls =
                    ServingTlsContexts.of(
                            List.of(serving.certificate(), ca.certificate()), serving.key());
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            server.setExecutor(executor);
            server.createContext("/", exchange -> allow(exchange, calls));
            server.start();
            return new WebhookServer(
                    server,
                    Base64.getEncoder()
                            .encodeToString(
                                    Pem.encode(ca.certificate())
                                            .getBytes(StandardCharsets.US_ASCII)));
        }

        private static void allow(HttpExchange exchange, AtomicLong calls) throws IOException {
            try (exchange) {
                JsonNode review = Json.MAPPER.readTree(exchange.getRequestBody().readAllBytes());
                calls.incrementAndGet();
                byte[] answer =
                        ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
                                        + "\"response\":{\"uid\":\""
                                        + review.at("/request/uid").asText()
                                        + "\",\"allowed\":true}}")
                                .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(answer);
                }
            }
        }

        /**
         * A configuration of {@code kind} calling this server for configmap creates in {@code
         * namespace}.
         */
        byte[] configuration(String kind, String namespace) {
            String url = "https://127.0.0.1:" + server.getAddress().getPort() + "/" + namespace;
            List<String> parts = new ArrayList<>();
            parts.add("\"apiVersion\":\"admissionregistration.k8s.io/v1\"");
            parts.add("\"kind\":\"" + kind + "\"");
            parts.add("\"metadata\":{\"name\":\"bench-" + namespace + "\"}");
            parts.add(
                    "\"webhooks\":[{\"name\":\""
                            + namespace
                            + ".bench.kubepekko.io\","
                            + "\"clientConfig\":{\"url\":\""
                            + url
                            + "\",\"caBundle\":\""
                            + caBundle
                            + "\"},"
                            + "\"rules\":[{\"operations\":[\"CREATE\"],\"apiGroups\":[\"\"],"
                            + "\"apiVersions\":[\"v1\"],\"resources\":[\"configmaps\"]}],"
                            + "\"namespaceSelector\":{\"matchLabels\":{\"bench-webhook\":\""
                            + namespace
                            + "\"}},"
                            + "\"failurePolicy\":\"Fail\",\"sideEffects\":\"None\","
                            + "\"admissionReviewVersions\":[\"v1\"]}]");
            return ("{" + String.join(",", parts) + "}").getBytes(StandardCharsets.UTF_8);
        }

        void stop() {
            server.stop(0);
        }
    }
}
