package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cold start: our API server and etcd as a user meets them right after starting them. Every cell of
 * every run gets a fresh etcd and a fresh server (empty data directories, the server launched
 * through {@code cluster-config/bin/apiserver} as {@code bench/run} launches it) and is measured
 * from the first request, without warm-up: (a) the first N sequential creates, (b) the first D of
 * creates at C clients; (c) is each process's time from launch to ready. Run it with {@code
 * bench/cold --help}.
 */
public final class ColdBench {

    /** Where every create goes: it exists on a fresh server, so no request precedes the first. */
    static final String NAMESPACE = "default";

    private final ColdOptions options;
    private final Workload workload;
    private String etcdVersion = "not run";

    private ColdBench(ColdOptions options) {
        this.options = options;
        // Only its ConfigMap body is used: names are made here (one namespace, no pool).
        this.workload = new Workload("cold", options.objectBytes(), 1);
    }

    public static void main(String[] args) throws Exception {
        ColdOptions options = BenchFlags.parseOrExit(args, ColdOptions::parse, ColdOptions.USAGE);
        String command = System.getProperty("bench.command", "ColdBench " + String.join(" ", args));
        try {
            new ColdBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    private void run(String command) throws Exception {
        String loadAtStart = Report.loadAverage();
        prepareServer();
        List<ColdReport.Run> runs = new ArrayList<>();
        for (int i = 1; i <= options.runs(); i++) {
            System.err.printf(Locale.ROOT, "run %d of %d%n", i, options.runs());
            // etcd first in each cell, then ours: the stores never run at the same time.
            ColdReport.Sample etcdSequential = etcd(ColdReport.Cell.SEQUENTIAL);
            ColdReport.Sample oursSequential = ours(ColdReport.Cell.SEQUENTIAL);
            ColdReport.Sample etcdConcurrent = etcd(ColdReport.Cell.CONCURRENT);
            ColdReport.Sample oursConcurrent = ours(ColdReport.Cell.CONCURRENT);
            runs.add(
                    new ColdReport.Run(
                            new ColdReport.Side(oursSequential, oursConcurrent),
                            new ColdReport.Side(etcdSequential, etcdConcurrent)));
        }
        String report = new ColdReport(options, runs).markdown(command, etcdVersion, loadAtStart);
        Report.print(report, options.out());
    }

    /**
     * Runs {@code <apiserver> --help} once before the first start: the script builds the server
     * first if its sources changed (a build would otherwise land in the first start's time), and
     * its jars are read once, as etcd's binary is by {@link EtcdProcess}'s {@code etcd --version}
     * before each start.
     */
    private void prepareServer() throws IOException, InterruptedException {
        if (!Files.isExecutable(options.apiserver())) {
            throw new IOException(options.apiserver() + " is missing or not executable");
        }
        Process help =
                new ProcessBuilder(options.apiserver().toString(), "--help")
                        .redirectErrorStream(true)
                        .start();
        byte[] output = help.getInputStream().readAllBytes();
        int code = help.waitFor();
        if (code != 0) {
            System.err.print(new String(output, StandardCharsets.UTF_8));
            throw new IOException(options.apiserver() + " --help exited with code " + code);
        }
    }

    private ColdReport.Sample etcd(ColdReport.Cell cell) throws IOException, InterruptedException {
        try (EtcdProcess etcd = Processes.closeOnExit(EtcdProcess.start(options.startTimeout()))) {
            ReadResults.Start start = new ReadResults.Start(etcd.startNanos(), 0, false);
            etcdVersion = etcd.version();
            return measure(new EtcdTarget(etcd.clientUrl()), cell, start);
        }
    }

    private ColdReport.Sample ours(ColdReport.Cell cell) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        try (ServerProcess server =
                Processes.closeOnExit(
                        ServerProcess.start(options.apiserver(), options.startTimeout()))) {
            long ready = System.nanoTime();
            long jvm = server.jvmStartNanos();
            ReadResults.Start start =
                    new ReadResults.Start(ready - t0, jvm == 0 ? 0 : ready - jvm, server.rebuilt());
            return measure(new KubeTarget(server.endpoint()), cell, start);
        }
    }

    private ColdReport.Sample measure(Target target, ColdReport.Cell cell, ReadResults.Start start)
            throws InterruptedException {
        Workers.Op create =
                (conn, worker, seq) -> {
                    Workload.Ref ref = new Workload.Ref(NAMESPACE, "cold-" + worker + "-" + seq);
                    return target.create(conn, ref, workload.configMap(ref));
                };
        Workers.Result result =
                cell == ColdReport.Cell.SEQUENTIAL
                        ? Workers.run(
                                1,
                                Workers.Budget.ofCount(options.creates()),
                                target::newConnection,
                                create)
                        : Workers.run(
                                options.clients(),
                                Workers.Budget.of(options.duration()),
                                target::newConnection,
                                create);
        System.err.printf(
                Locale.ROOT,
                "%-5s %-10s ready after %6.2f s  %7.0f creates/s  p50 %7.2f ms  p99 %7.2f ms%s%n",
                target.name(),
                cell.name().toLowerCase(Locale.ROOT),
                start.processNanos() / 1e9,
                result.throughput(),
                result.p50Millis(),
                result.p99Millis(),
                result.errors() > 0 ? "  errors " + result.errors() : "");
        return new ColdReport.Sample(start, result);
    }
}
