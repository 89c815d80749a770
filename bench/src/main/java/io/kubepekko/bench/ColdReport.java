package io.kubepekko.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench/cold}'s Markdown report: every run's figures for both stores with their ratio, then
 * the median of the runs against the targets.
 */
final class ColdReport {

    /** The targets: a fresh server's create p50 and throughput against a fresh etcd's. */
    static final double P50_TARGET_RATIO = 1.2;

    static final double THROUGHPUT_TARGET_RATIO = 1.0;

    /** Start on an empty data directory to {@code /readyz} 200, in seconds. */
    static final double START_TARGET_SECONDS = 2.5;

    /** The two measured cells, each on its own fresh processes. */
    enum Cell {
        /** (a) the first N creates, one client. */
        SEQUENTIAL,
        /** (b) the first D of creates, C clients. */
        CONCURRENT
    }

    /** One store's fresh process in one cell: how it started and what the cell measured. */
    record Sample(ReadResults.Start start, Workers.Result result) {
        /**
         * Launch to ready in seconds; NaN when the launch script built the project first, whose
         * time is no start-up's.
         */
        double startSeconds() {
            return start.rebuilt() ? Double.NaN : start.processNanos() / 1e9;
        }
    }

    /** One store's two cells in one run. */
    record Side(Sample sequential, Sample concurrent) {}

    /** One run: both stores, each cell on fresh processes. */
    record Run(Side ours, Side etcd) {}

    private enum Unit {
        PER_SECOND,
        MILLIS,
        SECONDS
    }

    /**
     * A reported figure; {@code judge} is null for a figure without a target, and receives the
     * medians of ours and etcd's otherwise.
     */
    private record Figure(
            String name, Unit unit, ToDoubleFunction<Side> value, String target, Judge judge) {}

    @FunctionalInterface
    private interface Judge {
        boolean meets(double ours, double etcd);
    }

    private final ColdOptions options;
    private final List<Run> runs;
    private final List<Figure> figures;

    ColdReport(ColdOptions options, List<Run> runs) {
        this.options = options;
        this.runs = runs;
        this.figures = figures(options);
    }

    private static List<Figure> figures(ColdOptions o) {
        String a = String.format(Locale.ROOT, "(a) first %,d creates, 1 client", o.creates());
        String b =
                String.format(
                        Locale.ROOT,
                        "(b) first %s s of creates, %d clients",
                        seconds(o.duration().toMillis()),
                        o.clients());
        return List.of(
                new Figure(
                        a + ": p50",
                        Unit.MILLIS,
                        s -> millis(s.sequential(), 0.50),
                        "≤ " + P50_TARGET_RATIO + "× etcd (lower is better)",
                        (ours, etcd) -> ours <= P50_TARGET_RATIO * etcd),
                new Figure(a + ": p90", Unit.MILLIS, s -> millis(s.sequential(), 0.90), null, null),
                new Figure(a + ": p99", Unit.MILLIS, s -> millis(s.sequential(), 0.99), null, null),
                new Figure(
                        a + ": time of all",
                        Unit.SECONDS,
                        s -> s.sequential().result().elapsedNanos() / 1e9,
                        null,
                        null),
                new Figure(
                        b + ": throughput",
                        Unit.PER_SECOND,
                        s -> s.concurrent().result().throughput(),
                        "≥ " + THROUGHPUT_TARGET_RATIO + "× etcd (higher is better)",
                        (ours, etcd) -> ours >= THROUGHPUT_TARGET_RATIO * etcd),
                new Figure(b + ": p50", Unit.MILLIS, s -> millis(s.concurrent(), 0.50), null, null),
                new Figure(b + ": p99", Unit.MILLIS, s -> millis(s.concurrent(), 0.99), null, null),
                new Figure(
                        "(c) launch to ready, (a)'s process",
                        Unit.SECONDS,
                        s -> s.sequential().startSeconds(),
                        "ours ≤ " + START_TARGET_SECONDS + " s",
                        (ours, etcd) -> ours <= START_TARGET_SECONDS),
                new Figure(
                        "(c) launch to ready, (b)'s process",
                        Unit.SECONDS,
                        s -> s.concurrent().startSeconds(),
                        "ours ≤ " + START_TARGET_SECONDS + " s",
                        (ours, etcd) -> ours <= START_TARGET_SECONDS));
    }

    String markdown(String command, String etcdVersion, String loadAtStart) {
        StringBuilder md = new StringBuilder();
        md.append("## Cold-start benchmark ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- client and stores share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; etcd: ")
                .append(etcdVersion)
                .append(", plain HTTP; ours: launched by ")
                .append(options.apiserver())
                .append(
                        ", HTTPS with the admin kubeconfig's client certificate (system:masters)\n");
        md.append("- every cell of every run on a fresh etcd and a fresh server (empty data")
                .append(
                        " directories), measured from the first request without warm-up; ConfigMaps")
                .append(" of ")
                .append(options.objectBytes())
                .append(" bytes of data created in namespace `")
                .append(ColdBench.NAMESPACE)
                .append("`; one HTTP/1.1 keep-alive connection per client, opened (TLS handshake")
                .append(" included) before the clock starts\n");
        md.append("- launch to ready: from starting the process to the first `/readyz` 200 (ours)")
                .append(" or `/health` true (etcd), polled every 100 ms\n");
        for (int i = 0; i < runs.size(); i++) {
            run(md, i);
        }
        summary(md);
        return md.toString();
    }

    private void run(StringBuilder md, int index) {
        Run run = runs.get(index);
        md.append("\n### Run ").append(index + 1).append("\n\n");
        md.append("| figure | ours | etcd | ours ÷ etcd |\n|---|---:|---:|---:|\n");
        for (Figure f : figures) {
            double ours = f.value().applyAsDouble(run.ours());
            double etcd = f.value().applyAsDouble(run.etcd());
            md.append("| ")
                    .append(f.name())
                    .append(" | ")
                    .append(format(f.unit(), ours))
                    .append(" | ")
                    .append(format(f.unit(), etcd))
                    .append(" | ")
                    .append(formatRatio(ratio(ours, etcd)))
                    .append(" |\n");
        }
        md.append("\n- errors (a) / (b): ours ")
                .append(run.ours().sequential().result().errors())
                .append(" / ")
                .append(run.ours().concurrent().result().errors())
                .append(", etcd ")
                .append(run.etcd().sequential().result().errors())
                .append(" / ")
                .append(run.etcd().concurrent().result().errors())
                .append('\n');
        md.append("- ours from the JVM's start to ready: ")
                .append(jvmStart(run.ours().sequential()))
                .append(", ")
                .append(jvmStart(run.ours().concurrent()))
                .append('\n');
    }

    private void summary(StringBuilder md) {
        md.append("\n### Median of ").append(runs.size()).append(" runs\n\n");
        md.append("| figure | ours | etcd | ours ÷ etcd | per run | target | met? |\n");
        md.append("|---|---:|---:|---:|---|---|---|\n");
        long errors =
                runs.stream()
                        .mapToLong(
                                r ->
                                        r.ours().sequential().result().errors()
                                                + r.ours().concurrent().result().errors())
                        .sum();
        for (Figure f : figures) {
            double ours = median(runs.stream().mapToDouble(r -> value(f, r.ours())).toArray());
            double etcd = median(runs.stream().mapToDouble(r -> value(f, r.etcd())).toArray());
            StringJoiner perRun = new StringJoiner(", ");
            for (Run r : runs) {
                perRun.add(formatRatio(ratio(value(f, r.ours()), value(f, r.etcd()))));
            }
            md.append("| ")
                    .append(f.name())
                    .append(" | ")
                    .append(format(f.unit(), ours))
                    .append(" | ")
                    .append(format(f.unit(), etcd))
                    .append(" | ")
                    .append(formatRatio(ratio(ours, etcd)))
                    .append(" | ")
                    .append(perRun)
                    .append(" | ")
                    .append(f.target() == null ? "—" : f.target())
                    .append(" | ")
                    .append(met(f, ours, etcd, errors))
                    .append(" |\n");
        }
        md.append(
                "\nRatio is ours ÷ etcd for every figure: for throughput higher is better, for"
                        + " latency and times lower is better. Median columns are the median of"
                        + " the runs; their ratio is the ratio of the medians. A start that"
                        + " included a build of the project shows as —.\n");
    }

    private static double value(Figure f, Side side) {
        return f.value().applyAsDouble(side);
    }

    private static String met(Figure f, double ours, double etcd, long errors) {
        if (f.judge() == null) {
            return "—";
        }
        if (errors > 0) {
            return "no (" + errors + " errors)";
        }
        if (Double.isNaN(ours) || Double.isNaN(etcd)) {
            return "n/a";
        }
        return f.judge().meets(ours, etcd) ? "yes" : "**no**";
    }

    private static double millis(Sample sample, double quantile) {
        return sample.result().latency().percentile(quantile) / 1e6;
    }

    private static String jvmStart(Sample sample) {
        ReadResults.Start s = sample.start();
        return s.jvmNanos() > 0
                ? String.format(Locale.ROOT, "%.2f s", s.jvmNanos() / 1e9)
                : "— (not seen)";
    }

    /** The median, NaN values left out; NaN when none is left. */
    static double median(double[] values) {
        double[] known = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (known.length == 0) {
            return Double.NaN;
        }
        int mid = known.length / 2;
        return known.length % 2 == 1 ? known[mid] : (known[mid - 1] + known[mid]) / 2;
    }

    /** Ours ÷ etcd; NaN when either is unknown or etcd's is 0. */
    static double ratio(double ours, double etcd) {
        return Double.isNaN(ours) || Double.isNaN(etcd) || etcd == 0 ? Double.NaN : ours / etcd;
    }

    private static String formatRatio(double ratio) {
        return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.2f×", ratio);
    }

    private static String format(Unit unit, double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        return switch (unit) {
            case PER_SECOND -> String.format(Locale.ROOT, "%,.0f/s", value);
            case MILLIS -> String.format(Locale.ROOT, "%.2f ms", value);
            case SECONDS -> String.format(Locale.ROOT, "%.2f s", value);
        };
    }

    private static String seconds(long millis) {
        return millis % 1000 == 0
                ? Long.toString(millis / 1000)
                : String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }
}
