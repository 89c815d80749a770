package io.kubepekko.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.protobuf.ProtobufBodies;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The representations benchmark: (1) encode and decode throughput of a 2 KiB pod in JSON and in
 * Kubernetes' protobuf, in this process, one thread; (2) a list of 1,000 pods from our server as
 * JSON, protobuf and Table: response size and time (p50 of repeated GETs on one keep-alive
 * connection).
 *
 * <pre>
 *   bench/codec --out /tmp/codec.md   (then copy it to the top of docs/benchmarks/codec.md)
 * </pre>
 */
public final class CodecBench {

    static final String USAGE =
            """
      usage: bench/codec [options]
        --duration D            measured time per codec figure (default 5s; e.g. 500ms, 10s)
        --warmup D              unmeasured run before each (default 2s)
        --pods N                pods in the listed namespace (default 1000)
        --list-reps N           timed GETs per representation (default 50)
        --object-bytes N        pod JSON size (default 2048)
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --server-url URL        list from a running server instead of starting one (https: with
                                --kubeconfig's CA and client certificate)
        --kubeconfig FILE       list from the running server FILE names, as its user
        --out FILE              also append the report to FILE
      """;

    private static final GroupVersionKind POD = new GroupVersionKind("", "v1", "Pod");
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";
    private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    private CodecBench() {}

    /** One codec figure. */
    record Throughput(String what, double opsPerSecond, int bytes) {}

    /** One list representation. */
    record ListFigure(String representation, long bytes, double p50Millis, double p99Millis) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "duration",
                                "warmup",
                                "pods",
                                "list-reps",
                                "object-bytes",
                                "apiserver",
                                "server-url",
                                "kubeconfig",
                                "out"),
                        USAGE);
        Duration duration = BenchFlags.duration(flags.getOrDefault("duration", "5s"));
        Duration warmup = BenchFlags.duration(flags.getOrDefault("warmup", "2s"));
        int pods = Integer.parseInt(flags.getOrDefault("pods", "1000"));
        int reps = Integer.parseInt(flags.getOrDefault("list-reps", "50"));
        int objectBytes = Integer.parseInt(flags.getOrDefault("object-bytes", "2048"));
        Path root = Path.of(System.getProperty("bench.root", "."));
        String loadAtStart = Report.loadAverage();

        PodFixture fixture = new PodFixture(1, objectBytes);
        List<Throughput> codec = codec(fixture.storedJson(fixture.ref(0)), warmup, duration);
        codec.forEach(
                t ->
                        System.err.printf(
                                Locale.ROOT,
                                "%s: %,.0f/s (%d bytes)%n",
                                t.what(),
                                t.opsPerSecond(),
                                t.bytes()));

        List<ListFigure> lists;
        Endpoint running =
                BenchFlags.server(
                        BenchFlags.uri(flags.get("server-url")),
                        flags.containsKey("kubeconfig") ? Path.of(flags.get("kubeconfig")) : null);
        if (running != null) {
            lists = lists(running, fixture, pods, reps);
        } else {
            Path script =
                    flags.containsKey("apiserver")
                            ? Path.of(flags.get("apiserver"))
                            : root.resolve("cluster-config/bin/apiserver");
            try (ServerProcess server = ServerProcess.start(script, Duration.ofMinutes(5))) {
                lists = lists(server.endpoint(), fixture, pods, reps);
            }
        }
        String report =
                report(
                        System.getProperty("bench.command", "bench/codec"),
                        loadAtStart,
                        objectBytes,
                        pods,
                        codec,
                        lists);
        Report.print(report, flags.containsKey("out") ? Path.of(flags.get("out")) : null);
    }

    /** Encode and decode of one stored pod, each measured alone. */
    static List<Throughput> codec(byte[] podJson, Duration warmup, Duration duration)
            throws IOException {
        ObjectNode pod = Json.parseTrusted(podJson);
        ProtobufBodies protobuf = ProtobufBodies.builtin();
        byte[] podProtobuf = protobuf.encode(pod, POD);
        List<Throughput> out = new ArrayList<>();
        out.add(
                new Throughput(
                        "JSON decode",
                        rate(() -> Json.parseTrusted(podJson), warmup, duration),
                        podJson.length));
        out.add(
                new Throughput(
                        "JSON encode",
                        rate(() -> Json.bytes(pod), warmup, duration),
                        podJson.length));
        out.add(
                new Throughput(
                        "protobuf decode",
                        rate(() -> protobuf.decode(podProtobuf, POD), warmup, duration),
                        podProtobuf.length));
        out.add(
                new Throughput(
                        "protobuf encode",
                        rate(() -> protobuf.encode(pod, POD), warmup, duration),
                        podProtobuf.length));
        return out;
    }

    /** Calls per second of {@code work} on this thread, after a warm-up. */
    private static double rate(Runnable work, Duration warmup, Duration duration) {
        long end = System.nanoTime() + warmup.toNanos();
        while (System.nanoTime() < end) {
            work.run();
        }
        long start = System.nanoTime();
        end = start + duration.toNanos();
        long calls = 0;
        long now;
        do {
            for (int i = 0; i < 100; i++) {
                work.run();
            }
            calls += 100;
            now = System.nanoTime();
        } while (now < end);
        return calls * 1e9 / (now - start);
    }

    /**
     * Creates {@code pods} pods in one namespace, then times lists of them in each representation.
     */
    static List<ListFigure> lists(Endpoint server, PodFixture fixture, int pods, int reps)
            throws IOException {
        String ns = PodFixture.namespace(0);
        try (HttpConn conn = new HttpConn(server)) {
            conn.send(
                    "POST",
                    "/api/v1/namespaces",
                    ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":"
                                    + "{\"name\":\""
                                    + ns
                                    + "\"}}")
                            .getBytes());
            for (int i = 0; i < pods; i++) {
                HttpConn.Response r =
                        conn.send(
                                "POST",
                                "/api/v1/namespaces/" + ns + "/pods",
                                fixture.json(fixture.ref(i)));
                if (!r.ok() && r.status() != 409) {
                    throw new IOException(
                            "creating pod " + i + " answered " + r.status() + ": " + r.text());
                }
            }
            System.err.printf(Locale.ROOT, "%d pods in %s%n", pods, ns);
            List<ListFigure> out = new ArrayList<>();
            for (String[] representation :
                    List.of(
                            new String[] {"JSON", "application/json"},
                            new String[] {"protobuf", PROTOBUF},
                            new String[] {"Table", TABLE})) {
                conn.accept(representation[1]);
                long[] nanos = new long[reps];
                long bytes = 0;
                for (int i = -5; i < reps; i++) {
                    long t0 = System.nanoTime();
                    HttpConn.Response r = conn.get("/api/v1/namespaces/" + ns + "/pods");
                    long took = System.nanoTime() - t0;
                    if (!r.ok()) {
                        throw new IOException(
                                representation[0]
                                        + " list answered "
                                        + r.status()
                                        + ": "
                                        + r.text());
                    }
                    if (i >= 0) {
                        nanos[i] = took;
                        bytes = r.body().length;
                    }
                }
                Arrays.sort(nanos);
                out.add(
                        new ListFigure(
                                representation[0],
                                bytes,
                                nanos[reps / 2] / 1e6,
                                nanos[Math.min(reps - 1, (int) Math.ceil(reps * 0.99) - 1)] / 1e6));
                System.err.printf(
                        Locale.ROOT,
                        "list as %s: %,d bytes, p50 %.2f ms%n",
                        representation[0],
                        bytes,
                        nanos[reps / 2] / 1e6);
            }
            return out;
        }
    }

    private static String report(
            String command,
            String load,
            int objectBytes,
            int pods,
            List<Throughput> codec,
            List<ListFigure> lists) {
        StringBuilder md = new StringBuilder();
        md.append("\n## Representations benchmark ")
                .append(Instant.now().toString(), 0, 16)
                .append("Z\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs (")
                .append(Report.cpuModel())
                .append("), ")
                .append(Report.memory())
                .append(" RAM, load average at start ")
                .append(load)
                .append("\n");
        md.append("- a stored pod of about ")
                .append(objectBytes)
                .append(
                        " bytes of JSON; codec figures on one thread"
                                + " in the benchmark's JVM; lists from our server (embedded default) over one keep-alive connection\n\n");
        md.append("| codec figure | calls/s | body bytes |\n|---|---:|---:|\n");
        for (Throughput t : codec) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,.0f | %,d |%n",
                            t.what(),
                            t.opsPerSecond(),
                            t.bytes()));
        }
        md.append("\n| list of ")
                .append(pods)
                .append(" pods as | response bytes | p50 | p99 |\n|---|---:|---:|---:|\n");
        for (ListFigure l : lists) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,d | %.2f ms | %.2f ms |%n",
                            l.representation(),
                            l.bytes(),
                            l.p50Millis(),
                            l.p99Millis()));
        }
        return md.toString();
    }
}
