package io.kubepekko.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The command line of {@code bench/read} ({@link ReadBench}): which phases and stores, the sizes
 * and counts of each phase, where the server's launch script is. Parsed once, before any store
 * starts; {@link ReadReport} prints it back so a report says how it was made.
 */
record ReadOptions(
        boolean runOurs,
        boolean runEtcd,
        Path apiserver,
        Set<Phase> phases,
        List<Integer> listSizes,
        int listReps,
        int pageSize,
        int namespaces,
        int objectBytes,
        int connections,
        int watchWarmups,
        int watchWrites,
        List<Integer> fanout,
        int fanoutWrites,
        int heapObjects,
        int warmObjects,
        int versionEvents,
        Duration startTimeout,
        Path out) {

    /** Rounds per list size: 20 up to 10,000 pods, 5 above, unless --list-reps says otherwise. */
    int reps(int size) {
        return listReps > 0 ? listReps : size <= 10_000 ? 20 : 5;
    }

    /** The benchmark's parts, selectable with {@code --only}. */
    enum Phase {
        LIST,
        WATCH,
        HEAP,
        WARMSTART,
        VERSIONS
    }

    static final String USAGE =
            """
      usage: bench/read [options]
        --only LIST             phases to run, of list,watch,heap,warmstart,versions (default all)
        --server-only           measure our server only (no etcd, no ratios)
        --etcd-only             measure etcd only (list and watch)
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --list-sizes LIST       pods to list, grown in turn (default 10000,100000)
        --list-reps N           timed rounds per size (default 20 up to 10,000 pods, 5 above)
        --page-size N           limit of a paged list (default 500)
        --namespaces N          namespaces the pods are spread over (default 100)
        --object-bytes N        pod JSON size as sent, and ConfigMap data size (default 2048)
        --connections N         connections that create the pods (default 32)
        --watch-warmups N       unmeasured sequential creates at one watcher first (default 15000)
        --watch-writes N        sequential creates timed at one watcher (default 500)
        --fanout LIST           watcher counts for the fan-out (default 100,1000)
        --fanout-writes N       creates timed per fan-out (default 50)
        --heap-objects N        pods added between the two heap measurements (default 20000)
        --warm-objects N        pods in the store that is restarted (default 100000)
        --version-events N      core Events listed through both their versions (default 10000)
        --start-timeout D       deadline for a process to become ready (default 300s)
        --out FILE              also append the report to FILE
      Smoke run (about 2 minutes):
        bench/read --list-sizes 1000,2000 --fanout 10 --watch-warmups 100 --watch-writes 100 \\
            --fanout-writes 10 --heap-objects 200 --warm-objects 2000 --version-events 1000
      The server's JVM takes its options from KUBEPEKKO_JAVA_OPTS (default -Xms256m -Xmx2g).
      """;

    static ReadOptions parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "only",
                                "server-only",
                                "etcd-only",
                                "apiserver",
                                "list-sizes",
                                "list-reps",
                                "page-size",
                                "namespaces",
                                "object-bytes",
                                "connections",
                                "watch-warmups",
                                "watch-writes",
                                "fanout",
                                "fanout-writes",
                                "heap-objects",
                                "warm-objects",
                                "version-events",
                                "start-timeout",
                                "out"),
                        USAGE);
        boolean etcdOnly = flags.containsKey("etcd-only");
        boolean serverOnly = flags.containsKey("server-only");
        Path root = Path.of(System.getProperty("bench.root", "."));
        try {
            return new ReadOptions(
                    !etcdOnly,
                    !serverOnly,
                    flags.containsKey("apiserver")
                            ? Path.of(flags.get("apiserver"))
                            : root.resolve("cluster-config/bin/apiserver"),
                    phases(flags.getOrDefault("only", "list,watch,heap,warmstart,versions")),
                    BenchFlags.positives(flags.getOrDefault("list-sizes", "10000,100000")),
                    Integer.parseInt(flags.getOrDefault("list-reps", "0")),
                    BenchFlags.positive(flags.getOrDefault("page-size", "500")),
                    BenchFlags.positive(flags.getOrDefault("namespaces", "100")),
                    BenchFlags.positive(flags.getOrDefault("object-bytes", "2048")),
                    BenchFlags.positive(flags.getOrDefault("connections", "32")),
                    BenchFlags.positive(flags.getOrDefault("watch-warmups", "15000")),
                    BenchFlags.positive(flags.getOrDefault("watch-writes", "500")),
                    BenchFlags.positives(flags.getOrDefault("fanout", "100,1000")),
                    BenchFlags.positive(flags.getOrDefault("fanout-writes", "50")),
                    BenchFlags.positive(flags.getOrDefault("heap-objects", "20000")),
                    BenchFlags.positive(flags.getOrDefault("warm-objects", "100000")),
                    BenchFlags.positive(flags.getOrDefault("version-events", "10000")),
                    BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                    flags.containsKey("out") ? Path.of(flags.get("out")) : null);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + e.getMessage());
        }
    }

    private static Set<Phase> phases(String csv) {
        Set<Phase> phases = EnumSet.noneOf(Phase.class);
        for (String part : csv.split(",")) {
            try {
                phases.add(Phase.valueOf(part.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "unknown phase " + part + " (list,watch,heap,warmstart,versions)");
            }
        }
        return phases;
    }
}
