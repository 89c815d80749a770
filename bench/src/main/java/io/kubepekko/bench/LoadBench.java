package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load generator comparing our API server with etcd on this machine: create, get and update of 2
 * KiB ConfigMaps at several concurrencies over 1 and 100 namespaces, plus single-object GET
 * throughput, reported as a Markdown table against the project's targets. Run it with {@code
 * bench/run --help}.
 */
public final class LoadBench {

    /** The operation a cell measures. */
    enum Op {
        CREATE,
        GET,
        UPDATE,
        GET_ONE
    }

    /** One measurement: an operation at a concurrency over a number of namespaces. */
    record Cell(Op op, int concurrency, int namespaces) {
        String label() {
            return (op == Op.GET_ONE ? "get one object" : op.name().toLowerCase(Locale.ROOT))
                    + ", c="
                    + concurrency
                    + ", "
                    + namespaces
                    + " ns";
        }
    }

    /** Command-line settings; see {@link #USAGE}. */
    record Options(
            URI serverUrl,
            URI etcdUrl,
            boolean runOurs,
            boolean runEtcd,
            Path apiserver,
            Duration duration,
            Duration warmup,
            long count,
            List<Integer> concurrency,
            List<Integer> namespaces,
            int getConnections,
            int pool,
            int objectBytes,
            Duration startTimeout,
            Path out,
            Set<Op> ops,
            Path kubeconfig,
            String user,
            List<String> serverFlags) {}

    static final String USAGE =
            """
      usage: bench/run [options]
        --server-url URL        benchmark a running server instead of starting one (https: with
                                --kubeconfig's CA and client certificate)
        --kubeconfig FILE       benchmark the running server FILE names, as its user (CA and
                                client certificate)
        --user NAME             measure as NAME (client certificate from the started server's
                                client CA, authorized by a RoleBinding to ClusterRole edit in each
                                bench namespace) instead of the admin, whom system:masters lets
                                skip RBAC
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --etcd-url URL          benchmark a running etcd instead of starting one
        --etcd-only             measure etcd only
        --server-only           measure our server only (no ratios)
        --duration D            measured time per cell (default 6s; e.g. 500ms, 10s, 1m)
        --warmup D              unmeasured run before each cell (default 2s)
        --count N               measure N calls per cell instead of a duration
        --concurrency LIST      connections per cell (default 1,16,64)
        --namespaces LIST       namespace layouts (default 1,100)
        --get-connections N     connections for the single-object GET (default 50)
        --pool N                objects per layout that get/update pick from (default 1000)
        --object-bytes N        ConfigMap data size (default 2048)
        --start-timeout D       deadline for a process to become ready (default 300s)
        --out FILE              also append the report to FILE
        --ops LIST              operations measured (default create,get,update,get-one)
        --server-flags FLAGS    more flags for the server the bench starts, space-separated
                                (e.g. "--disable-admission-plugins=ResourceQuota")
      """;

    private final Options options;
    private final Workload workload;
    private final AtomicInteger phases = new AtomicInteger();

    private LoadBench(Options options) {
        this.options = options;
        this.workload =
                new Workload(
                        "b" + Long.toString(System.currentTimeMillis(), 36),
                        options.objectBytes(),
                        options.pool());
    }

    public static void main(String[] args) throws Exception {
        Options options = BenchFlags.parseOrExit(args, LoadBench::parse, USAGE);
        String command = System.getProperty("bench.command", "LoadBench " + String.join(" ", args));
        try {
            new LoadBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    private void run(String command) throws Exception {
        // Other work on the machine skews every figure; the report says how busy it was.
        String loadAtStart = Report.loadAverage();
        List<Cell> cells = cells();
        Map<Cell, Workers.Result> etcd = new LinkedHashMap<>();
        Map<Cell, Workers.Result> ours = new LinkedHashMap<>();
        String etcdVersion = "not run";
        // Measured one after the other so that neither store competes with the other for the CPUs.
        if (options.runEtcd()) {
            if (options.etcdUrl() != null) {
                etcdVersion = "external at " + options.etcdUrl();
                Processes.awaitHttp(
                        options.etcdUrl(),
                        "/health",
                        HttpConn.Response::ok,
                        null,
                        Duration.ofSeconds(10));
                measure(new EtcdTarget(options.etcdUrl()), cells, etcd);
            } else {
                try (EtcdProcess process =
                        Processes.closeOnExit(EtcdProcess.start(options.startTimeout()))) {
                    etcdVersion = process.version();
                    measure(new EtcdTarget(process.clientUrl()), cells, etcd);
                }
            }
        }
        String oursAccess = "not run";
        if (options.runOurs()) {
            Endpoint running = BenchFlags.server(options.serverUrl(), options.kubeconfig());
            if (running != null) {
                Processes.awaitHttp(
                        running, "/readyz", r -> r.status() == 200, null, Duration.ofSeconds(10));
                oursAccess =
                        running.secure()
                                ? "external at " + running + ", as " + options.kubeconfig()
                                : "external at " + running + ", plain HTTP";
                measure(new KubeTarget(running), cells, ours);
            } else {
                try (ServerProcess process =
                        Processes.closeOnExit(
                                ServerProcess.start(
                                        options.apiserver(),
                                        options.serverFlags(),
                                        options.startTimeout()))) {
                    KubeTarget target;
                    if (options.user() == null) {
                        target = new KubeTarget(process.endpoint());
                        oursAccess =
                                "HTTPS with the admin kubeconfig's client certificate"
                                        + " (system:masters)";
                    } else {
                        Endpoint admin = process.endpoint();
                        target =
                                KubeTarget.boundUser(
                                        admin,
                                        admin.as(
                                                ClientTls.user(
                                                        process.dataDir(),
                                                        options.user(),
                                                        List.of())),
                                        options.user());
                        oursAccess =
                                "HTTPS as user "
                                        + options.user()
                                        + " (client certificate from the server's client CA),"
                                        + " authorized by RBAC: RoleBinding to ClusterRole "
                                        + KubeTarget.ROLE
                                        + " in each namespace";
                    }
                    measure(target, cells, ours);
                }
            }
        }
        String report =
                new Report(cells, ours, etcd, options)
                        .markdown(command, etcdVersion, oursAccess, loadAtStart);
        Report.print(report, options.out());
    }

    private List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        for (Op op : List.of(Op.CREATE, Op.GET, Op.UPDATE)) {
            if (!options.ops().contains(op)) {
                continue;
            }
            for (int namespaces : options.namespaces()) {
                for (int concurrency : options.concurrency()) {
                    cells.add(new Cell(op, concurrency, namespaces));
                }
            }
        }
        if (options.ops().contains(Op.GET_ONE)) {
            cells.add(new Cell(Op.GET_ONE, options.getConnections(), 1));
        }
        return cells;
    }

    private void measure(Target target, List<Cell> cells, Map<Cell, Workers.Result> results)
            throws IOException, InterruptedException {
        prepare(target);
        warmUp(target);
        for (Cell cell : cells) {
            if (!options.warmup().isZero()) {
                Workers.run(
                        cell.concurrency(),
                        Workers.Budget.of(options.warmup()),
                        target::newConnection,
                        op(target, cell));
            }
            Workers.Budget budget =
                    options.count() > 0
                            ? Workers.Budget.ofCount(options.count())
                            : Workers.Budget.of(options.duration());
            Workers.Result result =
                    Workers.run(
                            cell.concurrency(), budget, target::newConnection, op(target, cell));
            results.put(cell, result);
            System.err.printf(
                    Locale.ROOT,
                    "%-5s %-30s %9.0f ops/s  p50 %7.2f ms  p99 %7.2f ms%s%n",
                    target.name(),
                    cell.label(),
                    result.throughput(),
                    result.p50Millis(),
                    result.p99Millis(),
                    result.errors() > 0 ? "  errors " + result.errors() : "");
        }
    }

    /**
     * One unmeasured round of every operation before the first cell, so that a JVM server is
     * measured after its JIT compiler has seen the code paths (the per-cell warm-up alone left the
     * first cell cold). Both stores get it, so the comparison stays like for like.
     */
    private void warmUp(Target target) throws InterruptedException {
        if (options.warmup().isZero()) {
            return;
        }
        for (Op op : List.of(Op.CREATE, Op.GET, Op.UPDATE)) {
            for (int concurrency : List.of(1, 16)) {
                Workers.run(
                        concurrency,
                        Workers.Budget.of(options.warmup()),
                        target::newConnection,
                        op(target, new Cell(op, concurrency, 1)));
            }
        }
    }

    /** Creates the namespaces and the objects that get and update work on. */
    private void prepare(Target target) throws IOException, InterruptedException {
        TreeSet<Integer> layouts = new TreeSet<>(options.namespaces());
        layouts.add(1); // the single-object GET reads pool object 0 of the one-namespace layout
        try (HttpConn conn = target.newConnection()) {
            for (int i = 0; i < layouts.last(); i++) {
                if (!target.ensureNamespace(conn, Workload.namespace(i))) {
                    throw new IOException(
                            target.name()
                                    + ": could not create namespace "
                                    + Workload.namespace(i));
                }
            }
        }
        for (int namespaces : layouts) {
            AtomicInteger next = new AtomicInteger();
            Workers.Result seeded =
                    Workers.run(
                            Math.min(16, workload.poolSize()),
                            Workers.Budget.ofCount(workload.poolSize()),
                            target::newConnection,
                            (conn, worker, seq) -> {
                                Workload.Ref ref =
                                        workload.pooled(next.getAndIncrement(), namespaces);
                                return target.create(conn, ref, workload.configMap(ref));
                            });
            if (seeded.errors() > 0) {
                throw new IOException(
                        target.name()
                                + ": "
                                + seeded.errors()
                                + " of "
                                + workload.poolSize()
                                + " seed objects failed to create");
            }
        }
    }

    private Workers.Op op(Target target, Cell cell) {
        int namespaces = cell.namespaces();
        int pool = workload.poolSize();
        return switch (cell.op()) {
            case CREATE -> {
                String phase = "p" + phases.incrementAndGet();
                yield (conn, worker, seq) -> {
                    Workload.Ref ref = workload.fresh(phase, worker, seq, namespaces);
                    return target.create(conn, ref, workload.configMap(ref));
                };
            }
            case GET ->
                    (conn, worker, seq) ->
                            target.get(
                                    conn,
                                    workload.pooled(
                                            ThreadLocalRandom.current().nextInt(pool), namespaces));
            case UPDATE ->
                    (conn, worker, seq) -> {
                        Workload.Ref ref =
                                workload.pooled(
                                        ThreadLocalRandom.current().nextInt(pool), namespaces);
                        // Every update changes the object (a per-call revision label), so neither
                        // store can skip it.
                        return target.update(
                                conn, ref, workload.configMap(ref, worker + "-" + seq));
                    };
            case GET_ONE -> (conn, worker, seq) -> target.get(conn, workload.pooled(0, 1));
        };
    }

    static Options parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "server-url",
                                "apiserver",
                                "etcd-url",
                                "etcd-only",
                                "server-only",
                                "duration",
                                "warmup",
                                "count",
                                "concurrency",
                                "namespaces",
                                "get-connections",
                                "pool",
                                "object-bytes",
                                "start-timeout",
                                "out",
                                "ops",
                                "kubeconfig",
                                "user",
                                "server-flags"),
                        USAGE);
        boolean etcdOnly = flags.containsKey("etcd-only");
        boolean serverOnly = flags.containsKey("server-only");
        Path root = Path.of(System.getProperty("bench.root", "."));
        Options options =
                new Options(
                        BenchFlags.uri(flags.get("server-url")),
                        BenchFlags.uri(flags.get("etcd-url")),
                        !etcdOnly,
                        !serverOnly,
                        flags.containsKey("apiserver")
                                ? Path.of(flags.get("apiserver"))
                                : root.resolve("cluster-config/bin/apiserver"),
                        BenchFlags.duration(flags.getOrDefault("duration", "6s")),
                        BenchFlags.duration(flags.getOrDefault("warmup", "2s")),
                        Long.parseLong(flags.getOrDefault("count", "0")),
                        BenchFlags.positives(flags.getOrDefault("concurrency", "1,16,64")),
                        BenchFlags.positives(flags.getOrDefault("namespaces", "1,100")),
                        Integer.parseInt(flags.getOrDefault("get-connections", "50")),
                        Integer.parseInt(flags.getOrDefault("pool", "1000")),
                        Integer.parseInt(flags.getOrDefault("object-bytes", "2048")),
                        BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                        flags.containsKey("out") ? Path.of(flags.get("out")) : null,
                        ops(flags.getOrDefault("ops", "create,get,update,get-one")),
                        flags.containsKey("kubeconfig") ? Path.of(flags.get("kubeconfig")) : null,
                        flags.get("user"),
                        flags.containsKey("server-flags")
                                ? List.of(flags.get("server-flags").trim().split("\\s+"))
                                : List.of());
        if (options.pool() < 1) {
            throw new IllegalArgumentException("--pool must be at least 1");
        }
        if (options.user() != null
                && (options.serverUrl() != null || options.kubeconfig() != null)) {
            throw new IllegalArgumentException(
                    "--user needs a server the bench starts: it issues the user's certificate from"
                            + " that server's client CA");
        }
        return options;
    }

    private static Set<Op> ops(String csv) {
        Set<Op> ops = EnumSet.noneOf(Op.class);
        for (String part : csv.split(",")) {
            try {
                ops.add(Op.valueOf(part.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--ops: unknown operation "
                                + part.trim()
                                + " (expected create, get, update or get-one)");
            }
        }
        return ops;
    }
}
