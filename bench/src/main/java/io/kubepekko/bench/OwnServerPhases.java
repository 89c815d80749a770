package io.kubepekko.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The read benchmark's two figures of our own server, which etcd has no counterpart of: the live
 * heap per cached pod ({@code heap}) and the time a restart on a full data directory takes until
 * ready ({@code warmstart}). Each starts and stops its own server processes, unlike the list and
 * watch phases of {@link ReadBench}, which run against whichever store they are handed.
 */
final class OwnServerPhases {
    private static final Duration STOP_GRACE = Duration.ofSeconds(60);

    private final ReadOptions options;
    private final PodFixture pods;
    private final ReadResults results;

    OwnServerPhases(ReadOptions options, PodFixture pods, ReadResults results) {
        this.options = options;
        this.pods = pods;
        this.results = results;
    }

    /**
     * Live heap before and after adding pods, each after a full collection. A first batch of pods
     * is created before the baseline, so that code paths, the namespaces' entities and caches exist
     * already and the difference is the objects' own cost.
     */
    void heapPhase() throws IOException, InterruptedException {
        try (ServerProcess server =
                Processes.closeOnExit(
                        ServerProcess.start(options.apiserver(), options.startTimeout()))) {
            Jcmd.verify(server.pid(), "ApiServerMain");
            Jcmd jcmd = new Jcmd(server.pid());
            ReadStore store = new KubeReads(server.endpoint());
            createNamespaces(store);
            int first = Math.max(options.namespaces(), Math.min(1000, options.heapObjects() / 10));
            results.add(Seeder.create(store, pods, 0, first, options.connections()));
            expectItems(store, first);
            jcmd.gc();
            long usedBefore = jcmd.heapUsed();
            Jcmd.ClassHistogram before = jcmd.histogram();
            Seeder.Outcome added =
                    Seeder.create(
                            store,
                            pods,
                            first,
                            first + options.heapObjects(),
                            options.connections());
            results.add(added);
            expectItems(store, first + options.heapObjects());
            jcmd.gc();
            long usedAfter = jcmd.heapUsed();
            Jcmd.ClassHistogram after = jcmd.histogram();
            results.heap =
                    new ReadResults.Heap(
                            options.heapObjects(),
                            added.storedBytes(),
                            before,
                            after,
                            usedBefore,
                            usedAfter);
            System.err.printf(
                    Locale.ROOT,
                    "ours: heap grew %.1f MiB for %.1f MiB of stored JSON%n",
                    results.heap.histogramGrowth() / 1048576.0,
                    added.storedBytes() / 1048576.0);
        }
    }

    /**
     * Times a restart on a data directory holding the pods. The port is fixed, so that readiness is
     * polled from the moment the process starts, not from when the server first logs its address.
     */
    void warmStartPhase() throws IOException, InterruptedException {
        Path dataDir = Files.createTempDirectory("bench-warmstart-");
        int port = Processes.freePort();
        long t0 = System.nanoTime();
        ServerProcess first =
                ServerProcess.start(options.apiserver(), dataDir, port, options.startTimeout());
        ReadResults.Start cold = started(first, t0);
        Seeder.Outcome seeded;
        long stop;
        int exitCode;
        try {
            Processes.closeOnExit(first);
            ReadStore store = new KubeReads(first.endpoint());
            createNamespaces(store);
            seeded = Seeder.create(store, pods, 0, options.warmObjects(), options.connections());
            results.add(seeded);
            expectItems(store, options.warmObjects());
            System.err.println(
                    "ours: stopping the server (SIGTERM) to restart it on the same data");
            long s0 = System.nanoTime();
            exitCode = first.stop(STOP_GRACE);
            stop = System.nanoTime() - s0;
        } catch (IOException | RuntimeException e) {
            first.close();
            throw e;
        }
        long w0 = System.nanoTime();
        try (ServerProcess second =
                Processes.closeOnExit(
                        ServerProcess.start(
                                options.apiserver(), dataDir, port, options.startTimeout()))) {
            ReadResults.Start warm = started(second, w0);
            System.err.printf(
                    Locale.ROOT,
                    "ours: warm start with %,d pods took %.2f s from the JVM's"
                            + " start, %.2f s from the process's%s%n",
                    options.warmObjects(),
                    warm.jvmNanos() / 1e9,
                    warm.processNanos() / 1e9,
                    warm.rebuilt() ? " (the launch script built the project first)" : "");
            ReadStore store = new KubeReads(second.endpoint());
            long l0 = System.nanoTime();
            ReadStore.Listing listing;
            try (HttpConn conn = store.newConnection()) {
                listing =
                        store.listPods(
                                conn, ReadStore.ListMode.CONSISTENT, options.pageSize(), true);
            }
            long firstList = System.nanoTime() - l0;
            if (listing.items() != options.warmObjects()) {
                results.problems.add(
                        "warm start: the restarted server lists "
                                + listing.items()
                                + " pods, expected "
                                + options.warmObjects());
            }
            results.warmStart =
                    new ReadResults.WarmStart(
                            options.warmObjects(),
                            cold,
                            seeded,
                            stop,
                            exitCode,
                            warm,
                            firstList,
                            listing.items());
        } finally {
            Processes.deleteTree(dataDir); // already gone unless the restart failed early
        }
    }

    /** Called as soon as {@code server} is ready, which it is when its start returns. */
    private static ReadResults.Start started(ServerProcess server, long processStart) {
        long now = System.nanoTime();
        long jvm = server.jvmStartNanos();
        return new ReadResults.Start(
                now - processStart, jvm == 0 ? 0 : now - jvm, server.rebuilt());
    }

    private void createNamespaces(ReadStore store) throws IOException {
        Seeder.createNamespaces(store, options.namespaces());
    }

    private void expectItems(ReadStore store, long expected) throws IOException {
        Seeder.expectItems(store, expected, options.pageSize());
    }
}
