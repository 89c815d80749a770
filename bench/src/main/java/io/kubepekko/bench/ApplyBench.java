package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server-side apply benchmark: throughput and latency of applying a 40-field Deployment by one
 * manager and by five managers (each owning a disjoint part), against a plain update (PUT) and a
 * JSON merge patch of the same change, at one concurrency; the target is apply within 2× of
 * update throughput. Our server only: etcd has no apply to compare with. Run it with {@code
 * bench/apply --help}.
 */
public final class ApplyBench {

    /** Command-line settings; see {@link #USAGE}. */
    record Options(
            URI serverUrl,
            Path kubeconfig,
            Path apiserver,
            Duration duration,
            Duration warmup,
            int concurrency,
            int pool,
            int namespaces,
            List<ApplyCell> cells,
            Duration startTimeout,
            Path out) {}

    static final String USAGE =
            """
      usage: bench/apply [options]
        --smoke                 a quick check of about a minute: --duration 3s --warmup 1s --pool 64
                                (flags given as well win)
        --duration D            measured time per cell (default 10s; e.g. 500ms, 10s, 1m)
        --warmup D              unmeasured run before each cell, and of every cell before the
                                first (default 3s)
        --concurrency N         connections, one per worker (default 16)
        --pool N                Deployments per cell, at least the concurrency (default 200)
        --namespaces N          namespaces the pools are spread over (default 4)
        --cells LIST            cells measured, in order (default apply-1,apply-5,update,merge-patch)
        --server-url URL        benchmark a running server instead of starting one (https: with
                                --kubeconfig's CA and client certificate)
        --kubeconfig FILE       benchmark the running server FILE names, as its user
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --start-timeout D       deadline for the server to become ready (default 300s)
        --out FILE              also append the report to FILE
      """;

    private final Options options;

    private ApplyBench(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchFlags.parseOrExit(args, ApplyBench::parse, USAGE);
        String command =
                System.getProperty("bench.command", "ApplyBench " + String.join(" ", args));
        try {
            boolean clean = new ApplyBench(options).run(command);
            System.exit(clean ? 0 : 1);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Measures, prints the report; false when a request failed or an object is owned wrongly. */
    private boolean run(String command) throws IOException, InterruptedException {
        // Other work on the machine skews every figure; the report says how busy it was.
        String loadAtStart = Report.loadAverage();
        ApplyReport.Run run;
        Endpoint running = BenchFlags.server(options.serverUrl(), options.kubeconfig());
        if (running != null) {
            Processes.awaitHttp(
                    running, "/readyz", r -> r.status() == 200, null, Duration.ofSeconds(10));
            run = measure(running, "external at " + running);
        } else {
            try (ServerProcess server =
                    Processes.closeOnExit(
                            ServerProcess.start(options.apiserver(), options.startTimeout()))) {
                run =
                        measure(
                                server.endpoint(),
                                "started by the benchmark (embedded default; HTTPS with the admin"
                                        + " kubeconfig's client certificate)");
            }
        }
        Report.print(new ApplyReport(options, run).markdown(command, loadAtStart), options.out());
        return run.clean();
    }

    private ApplyReport.Run measure(Endpoint url, String server)
            throws IOException, InterruptedException {
        ApplyLoad load =
                new ApplyLoad(
                        "a" + Long.toString(System.currentTimeMillis(), 36),
                        options.pool(),
                        options.namespaces());
        int leaves = DeploymentFixture.leaves(DeploymentFixture.whole());
        System.err.printf(
                Locale.ROOT,
                "Deployment: %d leaf fields (%d besides apiVersion, kind, name"
                        + " and namespace), %d bytes as applied%n",
                leaves,
                leaves - DeploymentFixture.IDENTITY_LEAVES,
                load.bodyBytes(ApplyCell.APPLY_ONE));
        prepare(url, load);
        warmUp(url, load);

        Map<ApplyCell, Workers.Result> results = new LinkedHashMap<>();
        Map<ApplyCell, String> failures = new LinkedHashMap<>();
        Map<ApplyCell, Integer> bodyBytes = new LinkedHashMap<>();
        for (ApplyCell cell : options.cells()) {
            Workers.Op op = load.op(cell, options.concurrency());
            if (!options.warmup().isZero()) {
                Workers.run(
                        options.concurrency(),
                        Workers.Budget.of(options.warmup()),
                        () -> new HttpConn(url),
                        op);
            }
            Workers.Result result =
                    Workers.run(
                            options.concurrency(),
                            Workers.Budget.of(options.duration()),
                            () -> new HttpConn(url),
                            op);
            results.put(cell, result);
            bodyBytes.put(cell, load.bodyBytes(cell));
            if (load.firstFailure(cell) != null) {
                failures.put(cell, load.firstFailure(cell));
            }
            System.err.printf(
                    Locale.ROOT,
                    "%-18s %8.0f ops/s  p50 %7.2f ms  p99 %7.2f ms%s%n",
                    cell.label(),
                    result.throughput(),
                    result.p50Millis(),
                    result.p99Millis(),
                    result.errors() > 0
                            ? "  errors " + result.errors() + ": " + load.firstFailure(cell)
                            : "");
        }

        List<OwnershipCheck> checks = new ArrayList<>();
        try (HttpConn conn = new HttpConn(url)) {
            for (ApplyCell cell : options.cells()) {
                OwnershipCheck check = OwnershipCheck.of(conn, load, cell);
                checks.add(check);
                System.err.println(
                        "managedFields, "
                                + cell.label()
                                + ": "
                                + String.join(", ", check.managers())
                                + (check.ok() ? "" : "  NOT AS EXPECTED: " + check.problem()));
            }
        }
        return new ApplyReport.Run(server, results, failures, bodyBytes, checks);
    }

    /** Creates the namespaces and every measured cell's pool, unmeasured. */
    private void prepare(Endpoint url, ApplyLoad load) throws IOException, InterruptedException {
        KubeTarget namespaces = new KubeTarget(url);
        try (HttpConn conn = new HttpConn(url)) {
            for (int i = 0; i < options.namespaces(); i++) {
                if (!namespaces.ensureNamespace(conn, load.namespace(i))) {
                    throw new IOException("could not create namespace " + load.namespace(i));
                }
            }
        }
        for (ApplyCell cell : options.cells()) {
            AtomicInteger next = new AtomicInteger();
            long t0 = System.nanoTime();
            Workers.Result seeded =
                    Workers.run(
                            Math.min(options.concurrency(), options.pool()),
                            Workers.Budget.ofCount(options.pool()),
                            () -> new HttpConn(url),
                            (conn, worker, seq) -> load.seed(conn, cell, next.getAndIncrement()));
            if (seeded.errors() > 0) {
                throw new IOException(
                        cell.label()
                                + ": "
                                + seeded.errors()
                                + " of "
                                + options.pool()
                                + " pool objects failed to set up; first: "
                                + load.firstFailure(cell));
            }
            System.err.printf(
                    Locale.ROOT,
                    "%s: %d Deployments set up in %.1f s%n",
                    cell.label(),
                    options.pool(),
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * One unmeasured round of every cell before the first is measured, so that the first cell does
     * not pay for the server's JIT compiling the write path (as in bench/run).
     */
    private void warmUp(Endpoint url, ApplyLoad load) throws InterruptedException {
        if (options.warmup().isZero()) {
            return;
        }
        for (ApplyCell cell : options.cells()) {
            Workers.run(
                    options.concurrency(),
                    Workers.Budget.of(options.warmup()),
                    () -> new HttpConn(url),
                    load.op(cell, options.concurrency()));
        }
    }

    static Options parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "smoke",
                                "duration",
                                "warmup",
                                "concurrency",
                                "pool",
                                "namespaces",
                                "cells",
                                "server-url",
                                "kubeconfig",
                                "apiserver",
                                "start-timeout",
                                "out"),
                        USAGE);
        boolean smoke = flags.containsKey("smoke");
        Path root = Path.of(System.getProperty("bench.root", "."));
        Options options;
        try {
            options =
                    new Options(
                            BenchFlags.uri(flags.get("server-url")),
                            flags.containsKey("kubeconfig")
                                    ? Path.of(flags.get("kubeconfig"))
                                    : null,
                            flags.containsKey("apiserver")
                                    ? Path.of(flags.get("apiserver"))
                                    : root.resolve("cluster-config/bin/apiserver"),
                            BenchFlags.duration(
                                    flags.getOrDefault("duration", smoke ? "3s" : "10s")),
                            BenchFlags.duration(flags.getOrDefault("warmup", smoke ? "1s" : "3s")),
                            BenchFlags.positive(flags.getOrDefault("concurrency", "16")),
                            BenchFlags.positive(flags.getOrDefault("pool", smoke ? "64" : "200")),
                            BenchFlags.positive(flags.getOrDefault("namespaces", "4")),
                            cells(
                                    flags.getOrDefault(
                                            "cells", "apply-1,apply-5,update,merge-patch")),
                            BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                            flags.containsKey("out") ? Path.of(flags.get("out")) : null);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + e.getMessage());
        }
        if (options.pool() < options.concurrency()) {
            throw new IllegalArgumentException(
                    "--pool must be at least --concurrency: each worker"
                            + " writes objects of its own");
        }
        return options;
    }

    private static List<ApplyCell> cells(String csv) {
        LinkedHashSet<ApplyCell> cells = new LinkedHashSet<>();
        for (String part : csv.split(",")) {
            cells.add(ApplyCell.fromFlag(part));
        }
        return List.copyOf(cells);
    }
}
