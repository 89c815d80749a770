package io.kubepekko.bench;

import io.kubepekko.bench.ReadStore.ListMode;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The read benchmark's Markdown report: machine facts, the targets with our figure, etcd's, their
 * ratio and whether each is met, then each phase in detail and anything that went wrong.
 */
final class ReadReport {

    private static final int TARGET_LIST_SIZE = 10_000;
    private static final double LIST_P50_TARGET_MS = 50;
    private static final double CONSISTENT_OVER_CACHED = 1.2;

    /** "Roughly linear": a tenfold collection may take at most this much more than tenfold. */
    private static final double LINEAR_SLACK = 1.25;

    private static final int FANOUT_TARGET_WATCHERS = 100;
    private static final double CACHE_TARGET = 1.5;
    private static final double WARM_START_TARGET_S = 20;
    private static final String OURS = "ours";
    private static final String ETCD = "etcd";

    /** How a value is printed. */
    private enum Unit {
        MS,
        SECONDS,
        TIMES
    }

    private final ReadOptions options;
    private final ReadResults results;
    private final StringBuilder md = new StringBuilder();

    ReadReport(ReadOptions options, ReadResults results) {
        this.options = options;
        this.results = results;
    }

    String markdown(String command, String loadAtStart) {
        md.append("## Read-path benchmark ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- client and stores share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; etcd: ")
                .append(results.etcdVersion)
                .append('\n');
        boolean lists = options.phases().contains(ReadOptions.Phase.LIST);
        boolean watches = options.phases().contains(ReadOptions.Phase.WATCH);
        md.append(
                String.format(
                        Locale.ROOT,
                        "- pods: %,d bytes of JSON as sent, stored as %s bytes"
                                + " on average by ours and %s by etcd (its values are the pods in stored form), over %d"
                                + " namespaces, created over %d connections%n",
                        options.objectBytes(),
                        bytes(results.averageStoredBytes(OURS)),
                        bytes(results.averageStoredBytes(ETCD)),
                        options.namespaces(),
                        options.connections()));
        if (lists) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- lists: all namespaces; whole (consistent: ours"
                                    + " without resourceVersion, etcd linearizable; cached: ours resourceVersion=0, etcd"
                                    + " serializable) and paged by %d (the whole traversal timed); %s timed rounds after"
                                    + " at least %d warm-up rounds and %d s, the three modes interleaved in each%n",
                            options.pageSize(),
                            options.listReps() > 0
                                    ? Integer.toString(options.listReps())
                                    : "20 (5 above 10,000 pods)",
                            ReadBench.LIST_WARMUP_ROUNDS,
                            ReadBench.LIST_WARMUP.toSeconds()));
        }
        if (watches) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- watch: ConfigMaps with %,d bytes of data; timed"
                                    + " from just before the create is sent until its ADDED event is read, after %d s of"
                                    + " unmeasured creates at %d connections with one watcher; 1 watcher over %d sequential"
                                    + " creates after %,d unmeasured ones; fan-out %s watchers over %d creates each%n",
                            options.objectBytes(),
                            ReadBench.WRITE_WARMUP.toSeconds(),
                            ReadBench.WRITE_WARMUP_CONNECTIONS,
                            options.watchWrites(),
                            options.watchWarmups(),
                            options.fanout(),
                            options.fanoutWrites()));
        }
        md.append('\n');

        targets();
        listDetails();
        watchDetails();
        heapDetails();
        warmStartDetails();
        seedDetails();
        problems();
        md.append("\nRatio is ours ÷ etcd.\n");
        return md.toString();
    }

    private void targets() {
        md.append("| figure | ours | etcd | ratio | target | met? |\n");
        md.append("|---|---:|---:|---:|---|---|\n");
        List<Integer> sizes =
                options.phases().contains(ReadOptions.Phase.LIST)
                        ? options.listSizes().stream().sorted().distinct().toList()
                        : List.of();
        for (int size : sizes) {
            String pods = String.format(Locale.ROOT, "%,d pods", size);
            boolean judged = size == TARGET_LIST_SIZE;
            row(
                    "list " + pods + ", whole, p50",
                    Unit.MS,
                    listP50(OURS, size, ListMode.CONSISTENT),
                    listP50(ETCD, size, ListMode.CONSISTENT),
                    judged ? "≤ 50 ms" : "—",
                    judged ? Judge.atMost(LIST_P50_TARGET_MS) : null);
            row(
                    "list " + pods + ", whole, p99",
                    Unit.MS,
                    listP99(OURS, size, ListMode.CONSISTENT),
                    listP99(ETCD, size, ListMode.CONSISTENT),
                    "—",
                    null);
            row(
                    "list " + pods + ", paged by " + options.pageSize() + ", p50",
                    Unit.MS,
                    listP50(OURS, size, ListMode.PAGED),
                    listP50(ETCD, size, ListMode.PAGED),
                    "—",
                    null);
            row(
                    "list " + pods + ", paged by " + options.pageSize() + ", p99",
                    Unit.MS,
                    listP99(OURS, size, ListMode.PAGED),
                    listP99(ETCD, size, ListMode.PAGED),
                    "—",
                    null);
            row(
                    "list " + pods + ", consistent ÷ cached p50",
                    Unit.TIMES,
                    listP50(OURS, size, ListMode.CONSISTENT) / listP50(OURS, size, ListMode.CACHED),
                    listP50(ETCD, size, ListMode.CONSISTENT) / listP50(ETCD, size, ListMode.CACHED),
                    "≤ 1.2×",
                    Judge.atMost(CONSISTENT_OVER_CACHED));
        }
        if (sizes.size() > 1) {
            int small = sizes.get(0);
            int large = sizes.get(sizes.size() - 1);
            double linear = (double) large / small;
            row(
                    String.format(Locale.ROOT, "whole list p50, %,d ÷ %,d pods", large, small),
                    Unit.TIMES,
                    listP50(OURS, large, ListMode.CONSISTENT)
                            / listP50(OURS, small, ListMode.CONSISTENT),
                    listP50(ETCD, large, ListMode.CONSISTENT)
                            / listP50(ETCD, small, ListMode.CONSISTENT),
                    String.format(Locale.ROOT, "≈ %.0f× (linear)", linear),
                    Judge.atMost(linear * LINEAR_SLACK));
        }
        WatchFanout.Outcome ours1 = results.watch(OURS, 1);
        WatchFanout.Outcome etcd1 = results.watch(ETCD, 1);
        if (options.phases().contains(ReadOptions.Phase.WATCH)) {
            row(
                    "watch create→event p50, 1 watcher",
                    Unit.MS,
                    last(ours1, 0.5),
                    last(etcd1, 0.5),
                    "≤ etcd",
                    Judge.atMostEtcd(),
                    missed(ours1));
            row(
                    "watch create→event p99, 1 watcher",
                    Unit.MS,
                    last(ours1, 0.99),
                    last(etcd1, 0.99),
                    "—",
                    null);
            for (int watchers : options.fanout()) {
                WatchFanout.Outcome o = results.watch(OURS, watchers);
                WatchFanout.Outcome e = results.watch(ETCD, watchers);
                row(
                        "last of " + watchers + " watchers, p50",
                        Unit.MS,
                        last(o, 0.5),
                        last(e, 0.5),
                        "—",
                        null);
                boolean judged = watchers <= FANOUT_TARGET_WATCHERS;
                row(
                        "last of " + watchers + " watchers, p99",
                        Unit.MS,
                        last(o, 0.99),
                        last(e, 0.99),
                        judged ? "≤ etcd" : "—",
                        judged ? Judge.atMostEtcd() : null,
                        missed(o));
            }
        }
        ReadResults.Heap heap = results.heap;
        if (heap != null) {
            row(
                    String.format(
                            Locale.ROOT,
                            "heap growth ÷ stored JSON, %,d pods (whole server)",
                            heap.objects()),
                    Unit.TIMES,
                    (double) heap.histogramGrowth() / heap.storedBytes(),
                    Double.NaN,
                    "—",
                    null);
            row(
                    "watch cache ÷ stored JSON (estimate, see below)",
                    Unit.TIMES,
                    (double) watchCacheBytes(heap) / heap.storedBytes(),
                    Double.NaN,
                    "≤ 1.5×",
                    Judge.atMost(CACHE_TARGET));
        }
        ReadResults.WarmStart warm = results.warmStart;
        if (warm != null) {
            row(
                    String.format(
                            Locale.ROOT,
                            "warm start with %,d pods (%s start → /readyz 200)",
                            warm.objects(),
                            warm.warm().jvmNanos() > 0 ? "JVM" : "process"),
                    Unit.SECONDS,
                    warm.warm().seconds(),
                    Double.NaN,
                    "< 20 s",
                    Judge.atMost(WARM_START_TARGET_S),
                    warm.listedItems() == warm.objects()
                            ? null
                            : "lists " + warm.listedItems() + " pods");
        }
    }

    /** Whether a figure meets its target; {@code etcd} is NaN when etcd was not measured. */
    @FunctionalInterface
    private interface Judge {
        Boolean meets(double ours, double etcd);

        static Judge atMost(double limit) {
            return (o, e) -> o <= limit;
        }

        static Judge atMostEtcd() {
            return (o, e) -> Double.isNaN(e) ? null : o <= e;
        }
    }

    private void row(
            String figure, Unit unit, double ours, double etcd, String target, Judge judge) {
        row(figure, unit, ours, etcd, target, judge, null);
    }

    /** One target row; {@code failure} (e.g. missed events) makes the figure fail its target. */
    private void row(
            String figure,
            Unit unit,
            double ours,
            double etcd,
            String target,
            Judge judge,
            String failure) {
        String met;
        if (judge == null) {
            met = "—";
        } else if (Double.isNaN(ours)) {
            met = "n/a";
        } else if (failure != null) {
            met = "no (" + failure + ")";
        } else {
            Boolean meets = judge.meets(ours, etcd);
            met = meets == null ? "n/a" : meets ? "yes" : "**no**";
        }
        md.append("| ")
                .append(figure)
                .append(" | ")
                .append(format(unit, ours))
                .append(" | ")
                .append(format(unit, etcd))
                .append(" | ")
                .append(unit == Unit.TIMES ? "—" : ratio(ours, etcd))
                .append(" | ")
                .append(target)
                .append(" | ")
                .append(met)
                .append(" |\n");
    }

    private void listDetails() {
        if (results.lists.isEmpty()) {
            return;
        }
        md.append("\n### Lists\n\n");
        md.append(
                "| pods | mode | ours p50 | ours p99 | ours min | etcd p50 | etcd p99 | etcd min"
                        + " | p50 ratio | MiB per list (ours / etcd) | requests |\n");
        md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int size : options.listSizes().stream().sorted().distinct().toList()) {
            for (ListMode mode : ListMode.values()) {
                ReadResults.ListStats o = results.list(OURS, size, mode);
                ReadResults.ListStats e = results.list(ETCD, size, mode);
                if (o == null && e == null) {
                    continue;
                }
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %,d | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s"
                                        + " | %s |%n",
                                size,
                                mode == ListMode.PAGED
                                        ? "paged by " + options.pageSize()
                                        : mode.label,
                                ms(o == null ? Double.NaN : o.timings().p50()),
                                ms(o == null ? Double.NaN : o.timings().p99()),
                                ms(o == null ? Double.NaN : o.timings().min()),
                                ms(e == null ? Double.NaN : e.timings().p50()),
                                ms(e == null ? Double.NaN : e.timings().p99()),
                                ms(e == null ? Double.NaN : e.timings().min()),
                                ratio(
                                        o == null ? Double.NaN : o.timings().p50(),
                                        e == null ? Double.NaN : e.timings().p50()),
                                o == null
                                        ? "—"
                                        : String.format(Locale.ROOT, "%.1f", o.bytes() / 1048576.0),
                                e == null
                                        ? "—"
                                        : String.format(Locale.ROOT, "%.1f", e.bytes() / 1048576.0),
                                (o == null ? "—" : Integer.toString(o.pages()))
                                        + " / "
                                        + (e == null ? "—" : Integer.toString(e.pages()))));
            }
        }
        md.append("\netcd's JSON gateway sends values base64-encoded, hence its larger bodies.\n");
    }

    private void watchDetails() {
        if (results.watches.isEmpty()) {
            return;
        }
        md.append("\n### Watch\n\n");
        md.append(
                "| watchers | store | writes | last p50 | last p99 | last max | median p50 | median p99"
                        + " | create answered p50 | missed | failed writes |\n");
        md.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (var byStore : results.watches.entrySet()) {
            for (WatchFanout.Outcome o : byStore.getValue().values()) {
                md.append(
                        String.format(
                                Locale.ROOT,
                                "| %,d | %s | %d | %s | %s | %s | %s | %s | %s | %d | %d |%n",
                                o.watchers(),
                                o.store(),
                                o.writes(),
                                ms(o.last().p50()),
                                ms(o.last().p99()),
                                ms(o.last().max()),
                                ms(o.median().p50()),
                                ms(o.median().p99()),
                                ms(o.answered().p50()),
                                o.missed(),
                                o.failedWrites()));
            }
        }
        md.append(
                "\n\"last\": per write, the time until the last watcher read the event; \"median\":"
                        + " until half of them had; \"create answered\": the create's own response time, so the"
                        + " rest of the event latency is delivery. A write counts as missed when some watcher had"
                        + " not seen it 15 s later.\n");
    }

    /**
     * The watch cache's share, estimated from the class histogram: the cache's own classes (every
     * class of {@code io.kubepekko.api.watch}) and the persistent maps it keeps them in ({@code
     * org.pcollections}), plus one byte[] per object holding its stored JSON. Not counted, because
     * the histogram cannot attribute them: the label and field maps and their strings.
     */
    private static long watchCacheBytes(ReadResults.Heap heap) {
        long bytes = heap.jsonArrays();
        for (Jcmd.ClassUsage c : heap.after().growthSince(heap.before())) {
            if (c.className().startsWith("io.kubepekko.api.watch.")
                    || c.className().startsWith("org.pcollections.")) {
                bytes += c.bytes();
            }
        }
        return bytes;
    }

    private void heapDetails() {
        ReadResults.Heap heap = results.heap;
        if (heap == null) {
            return;
        }
        int n = heap.objects();
        md.append("\n### Heap (ours)\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "- %,d pods added, %.1f MiB of stored JSON (%.0f bytes"
                                + " each, as the create answers returned them)%n",
                        n,
                        heap.storedBytes() / 1048576.0,
                        (double) heap.storedBytes() / n));
        md.append(
                String.format(
                        Locale.ROOT,
                        "- live heap (class histogram after a full GC): %.1f →"
                                + " %.1f MiB, +%.1f MiB = %.0f bytes per pod = **%.2f× the JSON**; GC.heap_info"
                                + " used: %.1f → %.1f MiB (%.2f×)%n",
                        heap.before().bytes() / 1048576.0,
                        heap.after().bytes() / 1048576.0,
                        heap.histogramGrowth() / 1048576.0,
                        (double) heap.histogramGrowth() / n,
                        (double) heap.histogramGrowth() / heap.storedBytes(),
                        heap.usedBefore() / 1048576.0,
                        heap.usedAfter() / 1048576.0,
                        (double) (heap.usedAfter() - heap.usedBefore()) / heap.storedBytes()));
        Jcmd.ClassUsage cached = heap.after().of("io.kubepekko.api.watch.CachedObject");
        Jcmd.ClassUsage cachedBefore = heap.before().of("io.kubepekko.api.watch.CachedObject");
        md.append(
                String.format(
                        Locale.ROOT,
                        "- watch cache: CachedObject instances %,d → %,d;"
                                + " estimate %.1f MiB = %.2f× the JSON (its classes and org.pcollections' growth, plus"
                                + " one byte[] of stored JSON per pod ≈ %.1f MiB; label/field maps and strings not"
                                + " attributable, so not counted). Objects are held both by the collection entities"
                                + " and by the watch cache (whose window also keeps recent events), so the whole-server"
                                + " figure is the honest one.%n",
                        cachedBefore.instances(),
                        cached.instances(),
                        watchCacheBytes(heap) / 1048576.0,
                        (double) watchCacheBytes(heap) / heap.storedBytes(),
                        heap.jsonArrays() / 1048576.0));
        md.append("\n| class (largest growth) | instances | bytes | bytes per pod |\n");
        md.append("|---|---:|---:|---:|\n");
        heap.after().growthSince(heap.before()).stream()
                .limit(15)
                .forEach(
                        c ->
                                md.append(
                                        String.format(
                                                Locale.ROOT,
                                                "| `%s` | %+,d | %+,d | %.1f |%n",
                                                c.className(),
                                                c.instances(),
                                                c.bytes(),
                                                (double) c.bytes() / n)));
    }

    private void warmStartDetails() {
        ReadResults.WarmStart warm = results.warmStart;
        if (warm == null) {
            return;
        }
        md.append("\n### Warm start (ours)\n\n");
        md.append("- first start on an empty data dir: ").append(start(warm.cold())).append('\n');
        md.append("- seeded ").append(warm.seeded().summary()).append('\n');
        md.append(
                String.format(
                        Locale.ROOT,
                        "- SIGTERM to exit: %.2f s (exit code %d)%n",
                        warm.stopNanos() / 1e9,
                        warm.exitCode()));
        md.append("- restart on the same data dir: ").append(start(warm.warm())).append('\n');
        md.append(
                String.format(
                        Locale.ROOT,
                        "- then a consistent list of all pods took %.0f ms and"
                                + " returned %,d of %,d%n",
                        warm.firstListNanos() / 1e6,
                        warm.listedItems(),
                        warm.objects()));
        md.append(
                "\nTimed until /readyz answered 200 (polled every 100 ms; it includes the watch caches"
                        + " being loaded). \"JVM\" times from the launch script's exec of java, so a build the script"
                        + " may run first is left out; \"process\" times from the script's start.\n");
    }

    private static String start(ReadResults.Start s) {
        return String.format(
                Locale.ROOT,
                "**%s s** from the JVM's start, %.2f s from the process's%s",
                s.jvmNanos() > 0 ? String.format(Locale.ROOT, "%.2f", s.jvmNanos() / 1e9) : "—",
                s.processNanos() / 1e9,
                s.rebuilt() ? " (the launch script built the project first)" : "");
    }

    private void seedDetails() {
        if (results.seeds.isEmpty()) {
            return;
        }
        md.append("\n### Creates (setting up the data)\n\n");
        for (Seeder.Outcome s : results.seeds) {
            md.append("- ").append(s.summary()).append('\n');
        }
    }

    private void problems() {
        if (results.problems.isEmpty()) {
            return;
        }
        md.append("\n### Problems seen\n\n");
        for (String p : results.problems) {
            md.append("- ").append(p.replace('\n', ' ')).append('\n');
        }
    }

    private double listP50(String store, int size, ListMode mode) {
        ReadResults.ListStats s = results.list(store, size, mode);
        return s == null ? Double.NaN : s.timings().p50();
    }

    private double listP99(String store, int size, ListMode mode) {
        ReadResults.ListStats s = results.list(store, size, mode);
        return s == null ? Double.NaN : s.timings().p99();
    }

    private static double last(WatchFanout.Outcome o, double q) {
        return o == null ? Double.NaN : o.last().millis(q);
    }

    private static String missed(WatchFanout.Outcome o) {
        if (o == null) {
            return null;
        }
        if (o.missed() > 0 || o.failedWrites() > 0) {
            return o.missed() + " missed, " + o.failedWrites() + " failed writes";
        }
        return null;
    }

    private static String format(Unit unit, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "—";
        }
        return switch (unit) {
            case MS -> ms(value);
            case SECONDS -> String.format(Locale.ROOT, "%.2f s", value);
            case TIMES -> String.format(Locale.ROOT, "%.2f×", value);
        };
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.2f ms", value);
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,.0f", value);
    }

    private static String ratio(double ours, double etcd) {
        if (Double.isNaN(ours) || Double.isNaN(etcd) || etcd == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", ours / etcd);
    }
}
