package io.kubepekko.bench;

import static io.kubepekko.bench.ReadReport.ETCD;
import static io.kubepekko.bench.ReadReport.OURS;
import static io.kubepekko.bench.ReadReport.ms;
import static io.kubepekko.bench.ReadReport.ratio;

import io.kubepekko.bench.ReadStore.ListMode;
import java.util.Locale;

/**
 * The read report's sections below the targets: each phase in detail (lists, watch, heap, warm
 * start), the creates that set up the data, and the problems seen. Each section is left out when
 * its phase did not run.
 */
final class ReadDetails {
    private final ReadOptions options;
    private final ReadResults results;
    private final StringBuilder md;

    ReadDetails(ReadOptions options, ReadResults results, StringBuilder md) {
        this.options = options;
        this.results = results;
        this.md = md;
    }

    /** Appends every section whose phase ran, in the report's order. */
    void append() {
        listDetails();
        watchDetails();
        heapDetails();
        warmStartDetails();
        versionDetails();
        seedDetails();
        problems();
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
    static long watchCacheBytes(ReadResults.Heap heap) {
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

    private void versionDetails() {
        VersionListsPhase.Outcome v = results.versions;
        if (v == null) {
            return;
        }
        md.append("\n### Lists through another version\n\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "%,d core Events (about 900 bytes each as sent, created through core/v1, their"
                                + " storage version, over %d namespaces), listed whole through each"
                                + " version, %d timed rounds, the four ways interleaved in each.%n%n",
                        v.events(),
                        options.namespaces(),
                        options.reps(v.events())));
        md.append("| version | mode | p50 | p99 | min | MiB per list |\n");
        md.append("|---|---|---:|---:|---:|---:|\n");
        for (VersionListsPhase.Way way : VersionListsPhase.Way.values()) {
            ReadResults.ListStats s = v.lists().get(way);
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %.1f |%n",
                            way.version,
                            way.mode,
                            ms(s.timings().p50()),
                            ms(s.timings().p99()),
                            ms(s.timings().min()),
                            s.bytes() / 1048576.0));
        }
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
}
