package io.kubepekko.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Create throughput and latency of our API server as deployed three ways: one node on the embedded
 * store, one node on Cassandra, and several clustered nodes on Cassandra. It starts each deployment
 * itself (a local Cassandra and the server JVMs), runs the same create load against it at each
 * concurrency, stops it, and prints one Markdown table. Run it with {@code bench/cluster --help}.
 */
public final class ClusterBench {

    /** Command-line settings; see {@link #USAGE}. */
    record Options(
            List<Deployment> deployments,
            int nodes,
            Path apiserver,
            Path cassandraCache,
            Duration duration,
            Duration warmup,
            List<Integer> concurrency,
            int objectBytes,
            Duration startTimeout,
            Path out) {}

    /** One measurement: a deployment at a concurrency. */
    record Cell(Deployment deployment, int concurrency) {}

    static final String USAGE =
            """
      usage: bench/cluster [options]
        --deployments LIST      what to measure, in order (default embedded,cassandra,cluster)
        --nodes N               servers in the cluster deployment (default 3)
        --duration D            measured time per cell (default 10s; e.g. 500ms, 10s, 1m)
        --warmup D              unmeasured run before each cell (default 3s)
        --concurrency LIST      connections per cell (default 1,16,64)
        --object-bytes N        ConfigMap data size (default 2048)
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --start-timeout D       deadline for each process to become ready (default 300s)
        --out FILE              also append the report to FILE
      """;

    private final Options options;
    private final Workload workload;
    private final AtomicInteger phases = new AtomicInteger();

    private ClusterBench(Options options) {
        this.options = options;
        // No pool: creates only ever make fresh objects.
        this.workload =
                new Workload(
                        "c" + Long.toString(System.currentTimeMillis(), 36),
                        options.objectBytes(),
                        1);
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchFlags.parseOrExit(args, ClusterBench::parse, USAGE);
        String command =
                System.getProperty("bench.command", "ClusterBench " + String.join(" ", args));
        try {
            new ClusterBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    private void run(String command) throws Exception {
        String loadAtStart = Report.loadAverage();
        Map<Cell, Workers.Result> results = new LinkedHashMap<>();
        String keyspacePrefix = "bench_" + Long.toString(System.currentTimeMillis(), 36);
        for (Deployment deployment : options.deployments()) {
            System.err.println("bench: starting " + deployment.label(options.nodes()));
            String keyspace = keyspacePrefix + "_" + deployment.name().toLowerCase(Locale.ROOT);
            // Stopped on Ctrl-C too; close() is idempotent, so the hook after a normal stop is
            // harmless.
            try (Deployment.Running running =
                    Processes.closeOnExit(
                            deployment.start(
                                    options.apiserver(),
                                    options.nodes(),
                                    options.cassandraCache(),
                                    keyspace,
                                    options.startTimeout()))) {
                measure(deployment, new KubeTarget(running.endpoints()), results);
            }
            System.err.println("bench: stopped " + deployment.label(options.nodes()));
        }
        Report.print(markdown(command, loadAtStart, results), options.out());
    }

    private void measure(Deployment deployment, Target target, Map<Cell, Workers.Result> results)
            throws IOException, InterruptedException {
        try (HttpConn conn = target.newConnection()) {
            if (!target.ensureNamespace(conn, Workload.namespace(0))) {
                throw new IOException("could not create namespace " + Workload.namespace(0));
            }
        }
        // A first unmeasured round at low and high concurrency, so that the first cell is not
        // measured
        // on code the servers' JIT compilers have not seen yet.
        if (!options.warmup().isZero()) {
            for (int concurrency : List.of(1, 16)) {
                Workers.run(
                        concurrency,
                        Workers.Budget.of(options.warmup()),
                        target::newConnection,
                        create(target));
            }
        }
        for (int concurrency : options.concurrency()) {
            if (!options.warmup().isZero()) {
                Workers.run(
                        concurrency,
                        Workers.Budget.of(options.warmup()),
                        target::newConnection,
                        create(target));
            }
            Workers.Result result =
                    Workers.run(
                            concurrency,
                            Workers.Budget.of(options.duration()),
                            target::newConnection,
                            create(target));
            results.put(new Cell(deployment, concurrency), result);
            System.err.printf(
                    Locale.ROOT,
                    "%-26s c=%-3d %9.0f creates/s  p50 %7.2f ms  p99 %7.2f ms%s%n",
                    deployment.label(options.nodes()),
                    concurrency,
                    result.throughput(),
                    result.p50Millis(),
                    result.p99Millis(),
                    result.errors() > 0 ? "  errors " + result.errors() : "");
        }
    }

    /**
     * Creates of fresh 2 KiB (by default) ConfigMaps in one namespace, named per phase, worker and
     * call.
     */
    private Workers.Op create(Target target) {
        String phase = "p" + phases.incrementAndGet();
        return (conn, worker, seq) -> {
            Workload.Ref ref = workload.fresh(phase, worker, seq, 1);
            return target.create(conn, ref, workload.configMap(ref));
        };
    }

    private String markdown(String command, String loadAtStart, Map<Cell, Workers.Result> results) {
        StringBuilder md = new StringBuilder();
        md.append("## Create benchmark across deployments ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- client, servers and Cassandra share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; each server a JVM of its own started by ")
                .append(
                        "the launch script; Cassandra: one local node per Cassandra deployment, started fresh\n");
        md.append("- per cell: ")
                .append(options.duration().toMillis() / 1000.0)
                .append(" s measured after ")
                .append(options.warmup().toMillis() / 1000.0)
                .append(" s warm-up; creates of ConfigMaps with ")
                .append(options.objectBytes())
                .append(" bytes of data in one namespace; one HTTP/1.1 keep-alive ")
                .append(
                        "connection per worker; on the cluster, connections go to the nodes in turn (so at c=1 ")
                .append("every call goes to one node)\n\n");
        md.append("| deployment | concurrency | creates/s | p50 | p99 | errors |\n");
        md.append("|---|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<Cell, Workers.Result> e : results.entrySet()) {
            Workers.Result r = e.getValue();
            md.append("| ")
                    .append(e.getKey().deployment().label(options.nodes()))
                    .append(" | ")
                    .append(e.getKey().concurrency())
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%,.0f/s", r.throughput()))
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f ms", r.p50Millis()))
                    .append(" | ")
                    .append(String.format(Locale.ROOT, "%.2f ms", r.p99Millis()))
                    .append(" | ")
                    .append(r.errors())
                    .append(" |\n");
        }
        md.append("\nLatency is per call, request written to response read.\n");
        return md.toString();
    }

    static Options parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "deployments",
                                "nodes",
                                "duration",
                                "warmup",
                                "concurrency",
                                "object-bytes",
                                "apiserver",
                                "start-timeout",
                                "out"),
                        USAGE);
        Path root = Path.of(System.getProperty("bench.root", "."));
        List<Deployment> deployments = new ArrayList<>();
        for (String name :
                flags.getOrDefault("deployments", "embedded,cassandra,cluster").split(",")) {
            deployments.add(Deployment.parse(name));
        }
        return new Options(
                deployments,
                BenchFlags.positive(flags.getOrDefault("nodes", "3")),
                flags.containsKey("apiserver")
                        ? Path.of(flags.get("apiserver"))
                        : root.resolve("cluster-config/bin/apiserver"),
                root.resolve(".cache/cassandra"),
                BenchFlags.duration(flags.getOrDefault("duration", "10s")),
                BenchFlags.duration(flags.getOrDefault("warmup", "3s")),
                BenchFlags.positives(flags.getOrDefault("concurrency", "1,16,64")),
                BenchFlags.positive(flags.getOrDefault("object-bytes", "2048")),
                BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                flags.containsKey("out") ? Path.of(flags.get("out")) : null);
    }
}
