package io.kubepekko.bench;

import io.kubepekko.bench.LoadBench.Cell;
import io.kubepekko.bench.LoadBench.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown report: machine facts, the targets with our figure, etcd's, their ratio and whether
 * each is met, then every cell in detail.
 */
final class Report {

    private static final double GET_ONE_TARGET = 30_000;
    private static final double P99_TARGET_MS = 50;

    /** How a target judges a figure. */
    private enum Kind {
        THROUGHPUT,
        LATENCY
    }

    /** One target row; {@code relative} targets can only be judged when etcd was measured too. */
    private record Goal(
            String figure,
            Cell cell,
            Kind kind,
            ToDoubleFunction<Workers.Result> value,
            String target,
            boolean relative,
            Judge judge) {}

    @FunctionalInterface
    private interface Judge {
        boolean meets(double ours, double etcd);
    }

    private final List<Cell> cells;
    private final Map<Cell, Workers.Result> ours;
    private final Map<Cell, Workers.Result> etcd;
    private final LoadBench.Options options;

    Report(
            List<Cell> cells,
            Map<Cell, Workers.Result> ours,
            Map<Cell, Workers.Result> etcd,
            LoadBench.Options options) {
        this.cells = cells;
        this.ours = ours;
        this.etcd = etcd;
        this.options = options;
    }

    String markdown(String command, String etcdVersion, String oursAccess, String loadAtStart) {
        StringBuilder md = new StringBuilder();
        md.append("## Benchmark ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(machine(loadAtStart)).append('\n');
        md.append("- client and stores share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; etcd: ")
                .append(etcdVersion)
                .append(etcd.isEmpty() ? "" : ", plain HTTP")
                .append('\n');
        md.append("- ours: ").append(oursAccess).append('\n');
        md.append("- per cell: ")
                .append(
                        options.count() > 0
                                ? options.count() + " calls"
                                : options.duration().toMillis() / 1000.0 + " s")
                .append(" measured after ")
                .append(options.warmup().toMillis() / 1000.0)
                .append(" s warm-up; ConfigMap data ")
                .append(options.objectBytes())
                .append(" bytes; get/update over ")
                .append(options.pool())
                .append(" objects per layout; one HTTP/1.1 keep-alive connection per worker\n\n");

        md.append("| figure | ours | etcd | ratio | target | met? |\n");
        md.append("|---|---:|---:|---:|---|---|\n");
        for (Goal goal : goals()) {
            Workers.Result o = ours.get(goal.cell());
            Workers.Result e = etcd.get(goal.cell());
            double ov = o == null ? Double.NaN : goal.value().applyAsDouble(o);
            double ev = e == null ? Double.NaN : goal.value().applyAsDouble(e);
            md.append("| ")
                    .append(goal.figure())
                    .append(" | ")
                    .append(format(goal.kind(), ov))
                    .append(" | ")
                    .append(format(goal.kind(), ev))
                    .append(" | ")
                    .append(ratio(ov, ev))
                    .append(" | ")
                    .append(goal.target())
                    .append(" | ")
                    .append(met(goal, o, ov, ev))
                    .append(" |\n");
        }

        md.append(
                "\n| cell | ours ops/s | ours p50 | ours p99 | etcd ops/s | etcd p50 | etcd p99"
                        + " | ops/s ratio | errors (ours/etcd) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell cell : cells) {
            Workers.Result o = ours.get(cell);
            Workers.Result e = etcd.get(cell);
            md.append("| ")
                    .append(cell.label())
                    .append(" | ")
                    .append(format(Kind.THROUGHPUT, o == null ? Double.NaN : o.throughput()))
                    .append(" | ")
                    .append(format(Kind.LATENCY, o == null ? Double.NaN : o.p50Millis()))
                    .append(" | ")
                    .append(format(Kind.LATENCY, o == null ? Double.NaN : o.p99Millis()))
                    .append(" | ")
                    .append(format(Kind.THROUGHPUT, e == null ? Double.NaN : e.throughput()))
                    .append(" | ")
                    .append(format(Kind.LATENCY, e == null ? Double.NaN : e.p50Millis()))
                    .append(" | ")
                    .append(format(Kind.LATENCY, e == null ? Double.NaN : e.p99Millis()))
                    .append(" | ")
                    .append(
                            ratio(
                                    o == null ? Double.NaN : o.throughput(),
                                    e == null ? Double.NaN : e.throughput()))
                    .append(" | ")
                    .append(o == null ? "—" : o.errors())
                    .append(" / ")
                    .append(e == null ? "—" : e.errors())
                    .append(" |\n");
        }
        md.append(
                "\nRatio is ours ÷ etcd. Latency is per call, request written to response read.\n");
        return md.toString();
    }

    /** The targets, each judged on every namespace layout that was measured. */
    private List<Goal> goals() {
        List<Goal> goals = new ArrayList<>();
        for (int ns : options.namespaces()) {
            goals.add(
                    new Goal(
                            "create throughput, c=64, " + ns + " ns",
                            new Cell(Op.CREATE, 64, ns),
                            Kind.THROUGHPUT,
                            Workers.Result::throughput,
                            "≥ 1.0× etcd",
                            true,
                            (o, e) -> o >= e));
        }
        for (int ns : options.namespaces()) {
            goals.add(
                    new Goal(
                            "sequential create p50, c=1, " + ns + " ns",
                            new Cell(Op.CREATE, 1, ns),
                            Kind.LATENCY,
                            Workers.Result::p50Millis,
                            "≤ 2× etcd",
                            true,
                            (o, e) -> o <= 2 * e));
        }
        goals.add(
                new Goal(
                        "GET one object, " + options.getConnections() + " connections",
                        new Cell(Op.GET_ONE, options.getConnections(), 1),
                        Kind.THROUGHPUT,
                        Workers.Result::throughput,
                        "≥ 30,000/s",
                        false,
                        (o, e) -> o >= GET_ONE_TARGET));
        for (int ns : options.namespaces()) {
            goals.add(
                    new Goal(
                            "create p99, c=16, " + ns + " ns",
                            new Cell(Op.CREATE, 16, ns),
                            Kind.LATENCY,
                            Workers.Result::p99Millis,
                            "< 50 ms",
                            false,
                            (o, e) -> o < P99_TARGET_MS));
        }
        return goals;
    }

    private static String met(Goal goal, Workers.Result ours, double ov, double ev) {
        if (ours == null) {
            return "n/a";
        }
        if (ours.errors() > 0) {
            return "no (" + ours.errors() + " errors)";
        }
        if (Double.isNaN(ov) || (goal.relative() && Double.isNaN(ev))) {
            return "n/a";
        }
        return goal.judge().meets(ov, ev) ? "yes" : "**no**";
    }

    private static String format(Kind kind, double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        return kind == Kind.THROUGHPUT
                ? String.format(Locale.ROOT, "%,.0f/s", value)
                : String.format(Locale.ROOT, "%.2f ms", value);
    }

    private static String ratio(double ours, double etcd) {
        if (Double.isNaN(ours) || Double.isNaN(etcd) || etcd == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", ours / etcd);
    }

    /**
     * Prints the report and, when {@code out} is set, appends it to that file: every benchmark's
     * report is kept the same way, one after the other in a Markdown file.
     */
    static void print(String report, Path out) throws IOException {
        System.out.print(report);
        if (out != null) {
            Path parent = out.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.writeString(
                    out, "\n" + report, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            System.err.println("appended to " + out);
        }
    }

    /**
     * The report's machine line: CPUs, memory, kernel and how busy the machine was at the start.
     */
    static String machine(String loadAtStart) {
        return Runtime.getRuntime().availableProcessors()
                + " CPUs ("
                + cpuModel()
                + "), "
                + memory()
                + " RAM, "
                + System.getProperty("os.name")
                + ' '
                + System.getProperty("os.version")
                + ", load average at start "
                + loadAtStart;
    }

    /** The 1, 5 and 15 minute load averages, as the kernel reports them. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    static String cpuModel() {
        return procField("/proc/cpuinfo", "model name").orElse(System.getProperty("os.arch"));
    }

    static String memory() {
        return procField("/proc/meminfo", "MemTotal")
                .map(
                        kb ->
                                String.format(
                                        Locale.ROOT,
                                        "%.1f GiB",
                                        Long.parseLong(kb.replaceAll("[^0-9]", ""))
                                                / 1024.0
                                                / 1024.0))
                .orElse("unknown");
    }

    private static Optional<String> procField(String file, String field) {
        try {
            return Files.readAllLines(Path.of(file)).stream()
                    .filter(line -> line.startsWith(field))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
