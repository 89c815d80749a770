package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The heap a large collection's snapshot takes to save and to load (issue 28): our server alone,
 * with a GC log ({@code -Xlog:gc}), one namespace filled with ConfigMaps of {@code bench/run}'s
 * size, then updated until the collection saves a snapshot holding all of them; then restarted on
 * the same data and written to once, so that the collection loads that snapshot.
 *
 * <p>Memory figures, not timings, so that other load on the machine does not change them: the
 * snapshot's size (its objects' names and JSON, as the server logs it), the full GCs ({@code Pause
 * Full}) between the server's "saving"/"saved" lines (or up to its "recovered" line), and the
 * transient heap: the most heap any GC left in use in that window (what the save or load still held
 * then, plus old garbage not yet collected: an upper bound) minus the live heap right after (a
 * {@code jcmd GC.class_histogram}, which counts live objects exactly). The writes stop when the
 * save starts, so what the window's GCs see is the save's own.
 */
final class SnapshotBench {

    private static final String USAGE =
            """
            usage: bench/snapshot [--objects N] [--object-bytes N] [--concurrency N] [--heap SIZE] [--out FILE]
              --objects N          ConfigMaps in the one namespace (default 110000)
              --object-bytes N     each ConfigMap's data size (default 2048, as bench/run)
              --concurrency N      connections creating and updating (default 16)
              --heap SIZE          the server's -Xmx (default 2g, the server's default); -Xms256m as the default
              --part-bytes SIZE    the server's kubepekko.snapshot-store.part-bytes (default: its own, 4 MiB);
                                   e.g. 1g saves the collection whole, as before snapshots had parts
              --out FILE           also append the report (Markdown) to FILE
            The server's JVM gets -Xms256m -Xmx<heap> -Xlog:gc:file=<tmp>/gc-*.log:time
            (KUBEPEKKO_JAVA_OPTS is replaced). The load is the restart's: the collection recovers
            before the server is ready, so its window runs from the server's start.
            """;

    private static final Pattern SAVING =
            Pattern.compile("saving the snapshot at (\\d+) \\((\\d+) objects, (\\d+) bytes\\)");
    private static final Pattern RECOVERED =
            Pattern.compile("recovered (\\d+) objects at (\\d+) \\((\\d+) events replayed\\)");
    private static final String NAMESPACE = Workload.namespace(0);
    private static final Duration START = Duration.ofMinutes(3);
    private static final Duration SAVE = Duration.ofMinutes(10);
    private static final long MIB = 1 << 20;

    /** What the GC log shows over one save or load. */
    record Window(
            long collectionBytes,
            int objects,
            LocalDateTime from,
            LocalDateTime to,
            int pauses,
            int fullPauses,
            long maxAfterGc,
            long maxBeforeGc,
            long liveAfter,
            int samples,
            long maxLiveDuring) {
        String row(String what) {
            return String.format(
                    Locale.ROOT,
                    "| %s | %,d | %.1f MiB | %d | %d | %s | %s | %s | %.0f MiB |",
                    what,
                    objects,
                    collectionBytes / (double) MIB,
                    pauses,
                    fullPauses,
                    pauses == 0
                            ? "no GC"
                            : String.format(
                                    Locale.ROOT,
                                    "%.0f MiB (%.2f×)",
                                    (maxAfterGc - liveAfter) / (double) MIB,
                                    (maxAfterGc - liveAfter) / (double) collectionBytes),
                    pauses == 0
                            ? "no GC"
                            : String.format(
                                    Locale.ROOT,
                                    "%.0f MiB",
                                    (maxBeforeGc - liveAfter) / (double) MIB),
                    samples == 0
                            ? "–"
                            : String.format(
                                    Locale.ROOT,
                                    "%.0f MiB (%.2f×, %d samples)",
                                    (maxLiveDuring - liveAfter) / (double) MIB,
                                    (maxLiveDuring - liveAfter) / (double) collectionBytes,
                                    samples),
                    liveAfter / (double) MIB);
        }
    }

    private SnapshotBench() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "objects",
                                "object-bytes",
                                "concurrency",
                                "heap",
                                "part-bytes",
                                "out"),
                        USAGE);
        int objects = BenchFlags.positive(flags.getOrDefault("objects", "110000"));
        int objectBytes = BenchFlags.positive(flags.getOrDefault("object-bytes", "2048"));
        int concurrency = BenchFlags.positive(flags.getOrDefault("concurrency", "16"));
        String jvm = "-Xms256m -Xmx" + flags.getOrDefault("heap", "2g");
        if (flags.containsKey("part-bytes")) {
            jvm += " -Dkubepekko.snapshot-store.part-bytes=" + flags.get("part-bytes");
        }
        Path root = Path.of(System.getProperty("bench.root", "."));
        Path script = root.resolve("cluster-config/bin/apiserver");
        Path work = Files.createTempDirectory("bench-snapshot-");
        Path data = work.resolve("data");
        Path serverLog = work.resolve("server.log");
        int port = Processes.freePort();
        Workload workload = new Workload("s", objectBytes, objects);
        String loadAtStart = Report.loadAverage();
        System.err.println("bench/snapshot: work directory " + work);

        Window save;
        Path saveGc = work.resolve("gc-save.log");
        ServerLogTail tail = new ServerLogTail(serverLog);
        try (ServerProcess server =
                Processes.closeOnExit(
                        ServerProcess.start(
                                script,
                                data,
                                port,
                                List.of(),
                                START,
                                serverLog,
                                env(jvm, saveGc)))) {
            createNamespace(server.endpoint());
            create(server.endpoint(), workload, objects, concurrency);
            save = saveWhole(server, workload, objects, concurrency, tail, saveGc);
            server.stop(Duration.ofSeconds(30));
            Window load = loadWhole(script, data, port, work, workload, jvm);
            String report = report(flags, loadAtStart, save, load, work);
            System.out.println(report);
            if (flags.containsKey("out")) {
                Files.writeString(
                        Path.of(flags.get("out")),
                        report,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
        }
    }

    private static Map<String, String> env(String jvm, Path gcLog) {
        return Map.of("KUBEPEKKO_JAVA_OPTS", jvm + " -Xlog:gc:file=" + gcLog + ":time");
    }

    private static void createNamespace(Endpoint endpoint) throws IOException {
        try (HttpConn conn = new HttpConn(endpoint)) {
            byte[] body =
                    ("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                                    + NAMESPACE
                                    + "\"}}")
                            .getBytes(StandardCharsets.UTF_8);
            HttpConn.Response r = conn.send("POST", "/api/v1/namespaces", body);
            if (r.status() != 201 && r.status() != 409) {
                throw new IOException("creating namespace " + NAMESPACE + ": HTTP " + r.status());
            }
        }
    }

    private static void create(Endpoint endpoint, Workload workload, int objects, int concurrency)
            throws IOException, InterruptedException {
        AtomicLong next = new AtomicLong();
        String path = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
        Workers.Result result =
                Workers.run(
                        concurrency,
                        Workers.Budget.ofCount(objects),
                        () -> new HttpConn(endpoint),
                        (conn, worker, seq) -> {
                            Workload.Ref ref = workload.pooled((int) next.getAndIncrement(), 1);
                            return conn.send("POST", path, workload.configMap(ref)).status() == 201;
                        });
        System.err.printf(
                Locale.ROOT,
                "created %,d ConfigMaps in %.1f s (%,d failed)%n",
                result.ops(),
                result.elapsedNanos() / 1e9,
                result.errors());
        if (result.errors() > 0) {
            throw new IOException(result.errors() + " creates failed");
        }
    }

    /**
     * Updates objects until the collection starts saving a snapshot of all of them, stops, and
     * waits for the save to end.
     */
    private static Window saveWhole(
            ServerProcess server,
            Workload workload,
            int objects,
            int concurrency,
            ServerLogTail tail,
            Path gcLog)
            throws IOException, InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong updates = new AtomicLong();
        Thread[] writers = new Thread[concurrency];
        for (int w = 0; w < concurrency; w++) {
            writers[w] =
                    new Thread(
                            () -> update(server.endpoint(), workload, objects, stop, updates),
                            "bench-update-" + w);
            writers[w].start();
        }
        ServerLogTail.Line saving;
        try {
            saving = tail.await(SAVING, m -> Integer.parseInt(m.group(2)) >= objects, SAVE);
        } finally {
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
        }
        System.err.printf(
                Locale.ROOT,
                "%,d updates until the snapshot; %s%n",
                updates.get(),
                saving.match().group());
        String seq = saving.match().group(1);
        Pattern savedLine = Pattern.compile("saved the snapshot at " + seq + "\\b");
        // Live heap while the save runs: each histogram is a full collection, so it counts what is
        // reachable then, the save's parts and buffers included, and nothing else.
        Jcmd jcmd = new Jcmd(server.pid());
        List<Long> during = new ArrayList<>();
        List<LocalDateTime> sampledAt = new ArrayList<>();
        while (tail.find(savedLine, m -> true).isEmpty()) {
            long live = jcmd.histogram().bytes();
            during.add(live);
            sampledAt.add(LocalDateTime.now());
        }
        ServerLogTail.Line saved = tail.await(savedLine, m -> true, SAVE);
        long live = jcmd.histogram().bytes();
        long maxDuring = -1;
        int samples = 0;
        for (int i = 0; i < during.size(); i++) {
            if (!sampledAt.get(i).isAfter(saved.at())) {
                maxDuring = Math.max(maxDuring, during.get(i));
                samples++;
            }
        }
        return window(
                gcLog,
                Long.parseLong(saving.match().group(3)),
                Integer.parseInt(saving.match().group(2)),
                saving.at(),
                saved.at(),
                live,
                samples,
                maxDuring);
    }

    private static void update(
            Endpoint endpoint,
            Workload workload,
            int objects,
            AtomicBoolean stop,
            AtomicLong updates) {
        try (HttpConn conn = new HttpConn(endpoint)) {
            while (!stop.get()) {
                int i = ThreadLocalRandom.current().nextInt(objects);
                Workload.Ref ref = workload.pooled(i, 1);
                String path = "/api/v1/namespaces/" + NAMESPACE + "/configmaps/" + ref.name();
                byte[] body = workload.configMap(ref, Long.toString(updates.incrementAndGet()));
                conn.send("PUT", path, body);
            }
        } catch (IOException e) {
            System.err.println("an update failed: " + e);
        }
    }

    /** Restarts the server on the saved data and writes once, so that the collection loads. */
    private static Window loadWhole(
            Path script, Path data, int port, Path work, Workload workload, String jvm)
            throws IOException, InterruptedException {
        Path gcLog = work.resolve("gc-load.log");
        Path log = work.resolve("server-load.log");
        LocalDateTime started = LocalDateTime.now();
        ServerProcess server =
                ServerProcess.start(script, data, port, List.of(), START, log, env(jvm, gcLog));
        try {
            Workload.Ref ref = workload.pooled(0, 1);
            try (HttpConn conn = new HttpConn(server.endpoint())) {
                conn.send(
                        "PUT",
                        "/api/v1/namespaces/" + NAMESPACE + "/configmaps/" + ref.name(),
                        workload.configMap(ref, "restarted"));
            }
            ServerLogTail.Line recovered = new ServerLogTail(log).await(RECOVERED, m -> true, SAVE);
            System.err.println("after the restart: " + recovered.match().group());
            long live = new Jcmd(server.pid()).histogram().bytes();
            return window(
                    gcLog,
                    -1,
                    Integer.parseInt(recovered.match().group(1)),
                    started,
                    recovered.at(),
                    live,
                    0,
                    -1);
        } finally {
            server.stop(Duration.ofSeconds(30));
        }
    }

    private static Window window(
            Path gcLog,
            long collectionBytes,
            int objects,
            LocalDateTime from,
            LocalDateTime to,
            long liveAfter,
            int samples,
            long maxLiveDuring)
            throws IOException {
        List<GcLog.Pause> pauses = GcLog.between(GcLog.read(gcLog), from, to);
        long maxAfter = 0;
        long maxBefore = 0;
        int full = 0;
        for (GcLog.Pause p : pauses) {
            if (p.collecting()) {
                maxAfter = Math.max(maxAfter, p.after());
            }
            maxBefore = Math.max(maxBefore, p.before());
            full += p.full() && !p.induced() ? 1 : 0;
        }
        return new Window(
                collectionBytes,
                objects,
                from,
                to,
                pauses.size(),
                full,
                maxAfter,
                maxBefore,
                liveAfter,
                samples,
                maxLiveDuring);
    }

    private static long fullPauses(Path gcLog) throws IOException {
        return GcLog.read(gcLog).stream().filter(p -> p.full() && !p.induced()).count();
    }

    private static String report(
            Map<String, String> flags, String loadAtStart, Window save, Window load, Path work)
            throws IOException {
        Window loaded =
                new Window(
                        save.collectionBytes(),
                        load.objects(),
                        load.from(),
                        load.to(),
                        load.pauses(),
                        load.fullPauses(),
                        load.maxAfterGc(),
                        load.maxBeforeGc(),
                        load.liveAfter(),
                        load.samples(),
                        load.maxLiveDuring());
        return String.join(
                "\n",
                "## bench/snapshot (" + LocalDateTime.now() + ")",
                "",
                "- command: " + System.getProperty("bench.command", "bench/snapshot " + flags),
                "- machine: " + Report.machine(loadAtStart),
                "- Pause Full over the whole first server's run (creates, updates, save; not"
                        + " counting jcmd's): "
                        + fullPauses(work.resolve("gc-save.log"))
                        + "; over the restarted server's: "
                        + fullPauses(work.resolve("gc-load.log")),
                "- windows: save "
                        + save.from()
                        + " – "
                        + save.to()
                        + "; load (server start to"
                        + " the recovery's line) "
                        + load.from()
                        + " – "
                        + load.to(),
                "- GC logs and server logs: " + work,
                "",
                "| what | objects | snapshot (names + JSON) | GCs in the window | of them Pause Full"
                        + " | most heap a GC left − live after | most heap a GC found − live after"
                        + " | most live heap during (jcmd) − live after | live after |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
                save.row("save"),
                loaded.row("load"),
                "");
    }
}
