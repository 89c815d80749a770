package io.kubepekko.bench;

import static io.kubepekko.bench.ReadReport.ETCD;
import static io.kubepekko.bench.ReadReport.OURS;
import static io.kubepekko.bench.ReadReport.ms;
import static io.kubepekko.bench.ReadReport.ratio;

import io.kubepekko.bench.ReadStore.ListMode;
import java.util.List;
import java.util.Locale;

/**
 * The table at the top of the read report: each target figure with our value, etcd's, their ratio,
 * the target and whether it is met. The targets and how each is judged live here, apart from the
 * detail sections ({@link ReadDetails}), so changing a target is one place.
 */
final class ReadTargets {
    private static final int TARGET_LIST_SIZE = 10_000;
    private static final double LIST_P50_TARGET_MS = 50;
    private static final double CONSISTENT_OVER_CACHED = 1.2;

    /** "Roughly linear": a tenfold collection may take at most this much more than tenfold. */
    private static final double LINEAR_SLACK = 1.25;

    private static final int FANOUT_TARGET_WATCHERS = 100;
    private static final double CACHE_TARGET = 1.5;
    private static final double WARM_START_TARGET_S = 20;

    /** Issue 26: a list through another version costs at most this much of the stored one's. */
    private static final double OTHER_VERSION_TARGET = 2;

    /** How a value is printed. */
    private enum Unit {
        MS,
        SECONDS,
        TIMES
    }

    private final ReadOptions options;
    private final ReadResults results;
    private final StringBuilder md;

    ReadTargets(ReadOptions options, ReadResults results, StringBuilder md) {
        this.options = options;
        this.results = results;
        this.md = md;
    }

    /** Appends the table. */
    void append() {
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
                    (double) ReadDetails.watchCacheBytes(heap) / heap.storedBytes(),
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
        versionRows();
    }

    private void versionRows() {
        VersionListsPhase.Outcome v = results.versions;
        if (v == null) {
            return;
        }
        String events = String.format(Locale.ROOT, "%,d events", v.events());
        row(
                "list " + events + ", events.k8s.io/v1 ÷ core/v1 p50 (whole, consistent)",
                Unit.TIMES,
                v.p50(VersionListsPhase.Way.EVENTS_CONSISTENT)
                        / v.p50(VersionListsPhase.Way.CORE_CONSISTENT),
                Double.NaN,
                "≤ 2×",
                Judge.atMost(OTHER_VERSION_TARGET));
        row(
                "list " + events + ", events.k8s.io/v1 ÷ core/v1 p50 (whole, cached)",
                Unit.TIMES,
                v.p50(VersionListsPhase.Way.EVENTS_CACHED)
                        / v.p50(VersionListsPhase.Way.CORE_CACHED),
                Double.NaN,
                "—",
                null);
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
}
