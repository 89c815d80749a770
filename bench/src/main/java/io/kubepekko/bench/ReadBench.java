package io.kubepekko.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read-path benchmark: lists and watches of our API server against etcd's equivalents on this
 * machine, plus two figures of our own (heap per cached object, warm start time). Run it with
 * {@code bench/read --help}; a full run takes 15 to 25 minutes on a 2-core machine (most of it
 * creating 100,000 pods: once in etcd, twice in ours), a smoke run about two minutes:
 *
 * <pre>
 *   bench/read --out /tmp/read.md     (then copy it to the top of docs/benchmarks/read.md)
 *   bench/read --list-sizes 1000,2000 --fanout 10 --watch-warmups 100 --watch-writes 100 \
 *       --fanout-writes 10 --heap-objects 200 --warm-objects 2000
 * </pre>
 *
 * <p>Phases, each on freshly started stores (etcd first, then ours, never both at once):
 *
 * <ol>
 *   <li><b>list</b>: pods of about 2 KiB spread over 100 namespaces, grown to each size in turn
 *       (10,000 then 100,000), then listed across all namespaces whole (consistent, and cached:
 *       {@code resourceVersion=0} for ours, a serializable range for etcd) and paged by 500,
 *       interleaved, over 20 rounds (5 above 10,000 pods). etcd lists by a range read over {@code
 *       /registry/pods/}.
 *   <li><b>watch</b>: create-to-ADDED-event latency at one watcher (500 sequential creates, after
 *       15,000 unmeasured ones: our JVM's sequential write path is only compiled for good after
 *       about that many, see docs/benchmarks/read.md), then with 100 and 1,000 watchers of one
 *       collection, timing each write until the last watcher has read it (50 writes). etcd watches
 *       through {@code POST /v3/watch}.
 *   <li><b>heap</b>: our server's live heap (via {@code jcmd}) before and after 20,000 more pods,
 *       against the stored JSON's size; the class histogram's growth shows where it went.
 *   <li><b>warmstart</b>: 100,000 pods, SIGTERM, restart on the same data directory, time from
 *       process start until {@code /readyz} answers 200 (it includes the watch caches loading).
 *   <li><b>versions</b>: 10,000 core Events listed whole through {@code core/v1}, their storage
 *       version, and through {@code events.k8s.io/v1}, which the server converts item by item
 *       (consistent and cached, interleaved): what serving another version costs ({@link
 *       VersionListsPhase}).
 * </ol>
 *
 * <p>The server runs with the launch script's JVM options ({@code -Xmx2g}); set {@code
 * KUBEPEKKO_JAVA_OPTS} to change them.
 */
public final class ReadBench {

    private static final int FANOUT_WARMUPS = 5;

    /** Warm-up before timing lists: at least this many rounds, and at least this long. */
    static final int LIST_WARMUP_ROUNDS = 2;

    static final Duration LIST_WARMUP = Duration.ofSeconds(5);

    /**
     * An unmeasured burst of creates before the watch figures, so both stores are measured warm.
     */
    static final Duration WRITE_WARMUP = Duration.ofSeconds(5);

    static final int WRITE_WARMUP_CONNECTIONS = 4;

    private final ReadOptions options;
    private final PodFixture pods;

    /** ConfigMaps for the watch phase, shaped like the load benchmark's. */
    private final Workload configMaps;

    private final ReadResults results = new ReadResults();

    /** The heap and warm-start phases, which start servers of their own. */
    private final OwnServerPhases ownServer;

    private ReadBench(ReadOptions options) {
        this.options = options;
        this.pods = new PodFixture(options.namespaces(), options.objectBytes());
        this.configMaps = new Workload("rb", options.objectBytes(), 1);
        this.ownServer = new OwnServerPhases(options, pods, results);
    }

    public static void main(String[] args) throws Exception {
        ReadOptions options = BenchFlags.parseOrExit(args, ReadOptions::parse, ReadOptions.USAGE);
        String command = System.getProperty("bench.command", "ReadBench " + String.join(" ", args));
        boolean complete = new ReadBench(options).run(command);
        System.exit(complete ? 0 : 1);
    }

    /** Runs the phases and prints the report; false when a phase failed (the report says which). */
    private boolean run(String command) throws IOException, InterruptedException {
        String loadAtStart = Report.loadAverage();
        for (ReadOptions.Phase phase : ReadOptions.Phase.values()) {
            if (!options.phases().contains(phase)) {
                continue;
            }
            switch (phase) {
                case LIST -> bothStores(phase, this::listPhase);
                case WATCH -> bothStores(phase, this::watchPhase);
                case HEAP -> ourStoreOnly(phase, ownServer::heapPhase);
                case WARMSTART -> ourStoreOnly(phase, ownServer::warmStartPhase);
                case VERSIONS -> ourStoreOnly(phase, this::versionsPhase);
            }
        }
        String report = new ReadReport(options, results).markdown(command, loadAtStart);
        Report.print(report, options.out());
        return results.problems.stream().noneMatch(p -> p.startsWith("phase "));
    }

    /** A phase's work against one started store. */
    @FunctionalInterface
    private interface StorePhase {
        void run(ReadStore store) throws IOException, InterruptedException;
    }

    /** A phase that starts and stops its own processes. */
    @FunctionalInterface
    private interface OwnPhase {
        void run() throws IOException, InterruptedException;
    }

    /**
     * Runs a phase on a fresh etcd, then on a fresh server of ours, one after the other so that
     * neither competes with the other for the CPUs. A failure is recorded and the run goes on.
     */
    private void bothStores(ReadOptions.Phase phase, StorePhase work) throws InterruptedException {
        if (options.runEtcd()) {
            try (EtcdProcess etcd =
                    Processes.closeOnExit(EtcdProcess.start(options.startTimeout()))) {
                results.etcdVersion = etcd.version();
                work.run(new EtcdReads(etcd.clientUrl()));
            } catch (IOException | RuntimeException e) {
                failed(phase, "etcd", e);
            }
        }
        if (options.runOurs()) {
            try (ServerProcess server =
                    Processes.closeOnExit(
                            ServerProcess.start(options.apiserver(), options.startTimeout()))) {
                work.run(new KubeReads(server.endpoint()));
            } catch (IOException | RuntimeException e) {
                failed(phase, "ours", e);
            }
        }
    }

    /** Lists core Events through both their versions, on a server of its own. */
    private void versionsPhase() throws IOException, InterruptedException {
        try (ServerProcess server =
                Processes.closeOnExit(
                        ServerProcess.start(options.apiserver(), options.startTimeout()))) {
            results.versions = new VersionListsPhase(options).run(new KubeReads(server.endpoint()));
        }
    }

    private void ourStoreOnly(ReadOptions.Phase phase, OwnPhase work) throws InterruptedException {
        if (!options.runOurs()) {
            return;
        }
        try {
            work.run();
        } catch (IOException | RuntimeException e) {
            failed(phase, "ours", e);
        }
    }

    private void failed(ReadOptions.Phase phase, String store, Exception e) {
        String what =
                "phase " + phase.name().toLowerCase(Locale.ROOT) + " failed on " + store + ": " + e;
        System.err.println(what);
        results.problems.add(what);
    }

    /** Grows the collection to each size and times every way of listing it. */
    private void listPhase(ReadStore store) throws IOException, InterruptedException {
        Seeder.createNamespaces(store, options.namespaces());
        long seeded = 0;
        for (int size : options.listSizes().stream().sorted().distinct().toList()) {
            results.add(Seeder.create(store, pods, seeded, size, options.connections()));
            seeded = size;
            Map<ReadStore.ListMode, Samples> timings = new LinkedHashMap<>();
            Map<ReadStore.ListMode, ReadStore.Listing> last = new LinkedHashMap<>();
            try (HttpConn conn = store.newConnection()) {
                // Unmeasured rounds first, so that a JVM server is timed after its JIT compiler has
                // seen
                // the list paths; etcd gets them too, to keep the comparison like for like.
                long warmUntil = System.nanoTime() + LIST_WARMUP.toNanos();
                for (int round = 0;
                        round < LIST_WARMUP_ROUNDS || System.nanoTime() < warmUntil;
                        round++) {
                    for (ReadStore.ListMode mode : ReadStore.ListMode.values()) {
                        last.put(mode, listAll(store, conn, mode, size));
                    }
                }
                Map<ReadStore.ListMode, ReadStore.Listing> verified = new LinkedHashMap<>(last);
                // Modes take turns in every round, so that a slow spell of the machine hits all
                // alike.
                for (int round = 0; round < options.reps(size); round++) {
                    for (ReadStore.ListMode mode : ReadStore.ListMode.values()) {
                        // Timed rounds do not scan for items (the warm-up rounds checked them): the
                        // same byte
                        // count as the checked list is the check here, and the client's CPU stays
                        // out of the time.
                        long t0 = System.nanoTime();
                        ReadStore.Listing listing =
                                store.listPods(conn, mode, options.pageSize(), false);
                        timings.computeIfAbsent(mode, m -> new Samples())
                                .add(System.nanoTime() - t0);
                        if (listing.bytes() != verified.get(mode).bytes()) {
                            throw new IOException(
                                    store.name()
                                            + ": a "
                                            + mode.label
                                            + " list of "
                                            + size
                                            + " pods returned "
                                            + listing.bytes()
                                            + " bytes, the checked one "
                                            + verified.get(mode).bytes());
                        }
                        last.put(mode, verified.get(mode));
                    }
                }
            }
            for (ReadStore.ListMode mode : ReadStore.ListMode.values()) {
                Samples s = timings.get(mode);
                ReadStore.Listing l = last.get(mode);
                results.lists.put(
                        new ReadResults.ListKey(store.name(), size, mode),
                        new ReadResults.ListStats(s, l.bytes(), l.pages()));
                System.err.printf(
                        Locale.ROOT,
                        "%s: list %,d pods %-10s p50 %8.2f ms  p99 %8.2f ms  %.1f MiB"
                                + " in %d request(s)%n",
                        store.name(),
                        size,
                        mode.label,
                        s.p50(),
                        s.p99(),
                        l.bytes() / 1048576.0,
                        l.pages());
            }
        }
    }

    /** One list, checked to have returned every pod. */
    private ReadStore.Listing listAll(
            ReadStore store, HttpConn conn, ReadStore.ListMode mode, int size) throws IOException {
        ReadStore.Listing listing = store.listPods(conn, mode, options.pageSize(), true);
        if (listing.items() != size) {
            throw new IOException(
                    store.name()
                            + ": a "
                            + mode.label
                            + " list of "
                            + size
                            + " pods returned "
                            + listing.items()
                            + " items");
        }
        return listing;
    }

    private void watchPhase(ReadStore store) throws IOException, InterruptedException {
        warmUpWrites(store);
        results.add(
                WatchFanout.run(
                        store,
                        "watch-1",
                        1,
                        options.watchWarmups(),
                        options.watchWrites(),
                        configMaps,
                        openTimeoutSeconds(1)));
        for (int watchers : options.fanout()) {
            results.add(
                    WatchFanout.run(
                            store,
                            "fanout-" + watchers,
                            watchers,
                            FANOUT_WARMUPS,
                            options.fanoutWrites(),
                            configMaps,
                            openTimeoutSeconds(watchers)));
        }
    }

    /**
     * Creates ConfigMaps for a few seconds, unmeasured, with one watcher reading their events, so
     * that a freshly started JVM has compiled its write and event delivery paths before anything is
     * timed. It does not warm the sequential path enough for the one-watcher figure (1.3 ms after
     * this burst where the same server, warm, answers in 0.7 ms): that is what the one watcher's
     * own unmeasured writes ({@code --watch-warmups}) are for.
     */
    private void warmUpWrites(ReadStore store) throws IOException, InterruptedException {
        String namespace = "warmup";
        ReadStore.WatchRequest request;
        try (HttpConn conn = store.newConnection()) {
            if (!store.ensureNamespace(conn, namespace)) {
                throw new IOException(store.name() + ": could not create namespace " + namespace);
            }
            request = store.watchConfigMaps(conn, namespace);
        }
        AtomicLong events = new AtomicLong();
        WatchStream watcher =
                new WatchStream(
                        0,
                        store,
                        request,
                        (stream, line, nanos) ->
                                events.addAndGet(store.parseWatchLine(line).added().size()),
                        () -> {});
        watcher.start();
        Workers.Result result;
        try {
            result =
                    Workers.run(
                            WRITE_WARMUP_CONNECTIONS,
                            Workers.Budget.of(WRITE_WARMUP),
                            store::newConnection,
                            (conn, worker, seq) -> {
                                Workload.Ref ref =
                                        new Workload.Ref(namespace, "warm-" + worker + "-" + seq);
                                return store.createConfigMap(conn, ref, configMaps.configMap(ref));
                            });
        } finally {
            watcher.abort();
            watcher.join();
        }
        if (events.get() == 0) {
            results.problems.add(store.name() + " warm-up watch saw no event");
        }
        if (result.errors() > 0) {
            results.problems.add(
                    store.name()
                            + " warm-up creates: "
                            + result.errors()
                            + " of "
                            + (result.ops() + result.errors())
                            + " failed");
        }
    }

    private static long openTimeoutSeconds(int watchers) {
        return 60 + watchers / 10;
    }

    private void createNamespaces(ReadStore store) throws IOException {
        try (HttpConn conn = store.newConnection()) {
            for (int i = 0; i < options.namespaces(); i++) {
                if (!store.ensureNamespace(conn, PodFixture.namespace(i))) {
                    throw new IOException(
                            store.name()
                                    + ": could not create namespace "
                                    + PodFixture.namespace(i));
                }
            }
        }
    }

    /** A consistent list, which also proves the watch cache has caught up with every create. */
    private void expectItems(ReadStore store, long expected) throws IOException {
        try (HttpConn conn = store.newConnection()) {
            ReadStore.Listing listing =
                    store.listPods(conn, ReadStore.ListMode.CONSISTENT, options.pageSize(), true);
            if (listing.items() != expected) {
                throw new IOException(
                        store.name() + " lists " + listing.items() + " pods, expected " + expected);
            }
        }
    }
}
