package io.kubepekko.bench;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pod start latency on one node: the project's containerd ({@code containerd-local}), an API server
 * and one node agent, all on this machine. A pod's start is timed from the moment its create
 * request is sent (over HTTP, not through kubectl, whose own process start would be timed too)
 * until its {@code Ready=True} condition arrives on a watch opened before the create. Timed: the
 * first pod after the agent started (cold), pods one after another, pods created all at once, and
 * their deletes (request sent until the {@code DELETED} event). Before the agent starts, the same
 * pods on containerd alone ({@link RuntimeFloor}): the runtime's own floor, measured in the same
 * run. Then, optionally, a node full of running pods left idle: the agent's CPU over a window and
 * its heap after a full collection. Run it as root (containerd needs it) with {@code bench/podstart
 * --help}.
 */
public final class PodStartBench {

    /** The runtime alone ({@link RuntimeFloor}): its first pod, one after another, all at once. */
    record Floor(
            RuntimeFloor.Result cold, RuntimeFloor.Result sequential, RuntimeFloor.Result burst) {}

    /** Per pod: create request sent, its 201 read, Ready seen on the watch (System.nanoTime()). */
    record PodTimes(long sent, long created, long ready) {
        long startNanos() {
            return ready - sent;
        }

        long createNanos() {
            return created - sent;
        }
    }

    /** What the idle node's agent used. */
    record SteadyState(
            int pods,
            double fillSeconds,
            Samples fill,
            double agentCpuPercent,
            double containerdCpuPercent,
            long heapAfterGcBytes,
            long agentRssBytes,
            Samples delete) {}

    static final int STEADY_CREATORS = 10;

    private final PodStartOptions options;
    private PodStartApi api;

    private PodStartBench(PodStartOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        PodStartOptions options =
                BenchFlags.parseOrExit(args, PodStartOptions::parse, PodStartOptions.USAGE);
        String command =
                System.getProperty("bench.command", "PodStartBench " + String.join(" ", args));
        try {
            new PodStartBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }

    private void run(String command) throws Exception {
        if ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") != 0) {
            throw new IOException("run as root: containerd and runc need it");
        }
        String loadAtStart = Report.loadAverage();
        Path tmp = Files.createTempDirectory("podbench-");
        List<AutoCloseable> started = Collections.synchronizedList(new ArrayList<>());
        ContainerdLocal[] containerd = new ContainerdLocal[1];
        AtomicBoolean stopped = new AtomicBoolean();
        // Stopped on Ctrl-C or SIGTERM too (the agent, the server and containerd's pods would
        // outlive the bench), once.
        AutoCloseable stopAll =
                Processes.closeOnExit(
                        () -> {
                            if (!stopped.compareAndSet(false, true)) {
                                return;
                            }
                            List<AutoCloseable> running;
                            synchronized (started) {
                                running = new ArrayList<>(started);
                            }
                            for (int i = running.size() - 1; i >= 0; i--) {
                                try {
                                    running.get(i).close();
                                } catch (Exception e) {
                                    System.err.println(
                                            "warning: stopping " + running.get(i) + ": " + e);
                                }
                            }
                            // Only once containerd unmounted everything it mounted is its directory
                            // safe to delete.
                            if (containerd[0] == null || containerd[0].stop()) {
                                Processes.deleteTree(tmp);
                            } else {
                                System.err.println(
                                        "warning: left "
                                                + tmp
                                                + " in place (containerd-local stop failed)");
                            }
                        });
        try {
            System.err.println("bench: starting containerd-local in " + tmp.resolve("containerd"));
            containerd[0] =
                    ContainerdLocal.start(options.containerdLocal(), tmp.resolve("containerd"));
            ServerProcess server = ServerProcess.start(options.apiserver(), options.startTimeout());
            started.add(server);
            api = new PodStartApi(server.endpoint(), options.startTimeout());
            Floor floor =
                    options.runtimeFloor()
                            ? runtimeFloor(containerd[0], tmp.resolve("floor"))
                            : null;
            Path agentLog =
                    options.agentLog() != null ? options.agentLog() : tmp.resolve("agent.log");
            if (agentLog.toAbsolutePath().getParent() != null) {
                Files.createDirectories(agentLog.toAbsolutePath().getParent());
            }
            AgentProcess agent =
                    AgentProcess.start(
                            options.agent(),
                            List.of(
                                    "--kubeconfig",
                                    server.kubeconfig().toString(),
                                    "--container-runtime-endpoint",
                                    containerd[0].endpoint(),
                                    "--root-dir",
                                    tmp.resolve("agent").toString(),
                                    "--hostname-override",
                                    PodStartApi.NODE,
                                    // the agent's own server: loopback and a free port (10250 may
                                    // be taken on a shared machine)
                                    "--address",
                                    "127.0.0.1",
                                    "--port",
                                    "0",
                                    "--max-pods",
                                    Integer.toString(options.maxPods())),
                            agentLog);
            started.add(agent);
            long agentStarted = System.nanoTime();
            api.awaitNodeReady(agent);
            System.err.printf(
                    Locale.ROOT,
                    "bench: node %s Ready %.1f s after the agent started (log %s)%n",
                    PodStartApi.NODE,
                    (System.nanoTime() - agentStarted) / 1e9,
                    agentLog);
            api.warmConnections(Math.max(options.burst(), STEADY_CREATORS));

            try (PodWatch watch = api.watch()) {
                PodTimes cold = createAndAwait(watch, "cold-0");
                System.err.printf(
                        Locale.ROOT,
                        "bench: cold pod Ready after %.0f ms%n",
                        cold.startNanos() / 1e6);
                deleteAll(watch, List.of("cold-0"));

                Samples sequential = new Samples();
                Samples sequentialCreate = new Samples();
                List<String> sequentialNames = new ArrayList<>();
                for (int i = 0; i < options.sequential(); i++) {
                    String name = "seq-" + i;
                    sequentialNames.add(name);
                    PodTimes t = createAndAwait(watch, name);
                    sequential.add(t.startNanos());
                    sequentialCreate.add(t.createNanos());
                }
                System.err.printf(
                        Locale.ROOT,
                        "bench: sequential p50 %.0f ms, max %.0f ms%n",
                        sequential.p50(),
                        sequential.max());
                Samples sequentialDelete = new Samples();
                for (String name : sequentialNames) {
                    sequentialDelete.add(deleteAll(watch, List.of(name)).get(name));
                }

                Map<String, PodTimes> burstTimes =
                        createAtOnce(watch, "burst-", options.burst(), options.burst());
                Samples burst = new Samples();
                Samples burstCreate = new Samples();
                burstTimes
                        .values()
                        .forEach(
                                t -> {
                                    burst.add(t.startNanos());
                                    burstCreate.add(t.createNanos());
                                });
                System.err.printf(
                        Locale.ROOT,
                        "bench: burst p50 %.0f ms, max %.0f ms%n",
                        burst.p50(),
                        burst.max());
                Samples burstDelete = new Samples();
                deleteAll(watch, new ArrayList<>(burstTimes.keySet()))
                        .values()
                        .forEach(burstDelete::add);

                SteadyState steady =
                        options.steadyPods() > 0 ? steady(watch, agent, containerd[0]) : null;

                Report.print(
                        PodStartReport.markdown(
                                options,
                                command,
                                loadAtStart,
                                cold,
                                sequential,
                                sequentialCreate,
                                sequentialDelete,
                                burst,
                                burstCreate,
                                burstDelete,
                                steady,
                                floor),
                        options.out());
            } catch (IOException | RuntimeException e) {
                System.err.println("--- agent log (last lines) ---\n" + agent.tail(40));
                throw e;
            }
        } finally {
            stopAll.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // The measured steps

    /**
     * The runtime's floor, before the agent starts (never alongside it: both would share the two
     * cores): the pods the agent will start, with its configs, on containerd alone; all removed
     * again before the agent comes.
     */
    private Floor runtimeFloor(ContainerdLocal containerd, Path dir)
            throws IOException, InterruptedException {
        try (RuntimeFloor floor =
                RuntimeFloor.connect(
                        containerd.endpoint(), api.storedPod("floor"), dir, options.podTimeout())) {
            RuntimeFloor.Result cold = floor.sequential("floor-cold-", 1);
            RuntimeFloor.Result sequential = floor.sequential("floor-seq-", options.sequential());
            RuntimeFloor.Result burst = floor.atOnce("floor-burst-", options.burst());
            System.err.printf(
                    Locale.ROOT,
                    "bench: runtime alone: cold %.0f ms, sequential p50 %.0f ms, burst p50 %.0f ms, "
                            + "max %.0f ms%n",
                    cold.total().max(),
                    sequential.total().p50(),
                    burst.total().p50(),
                    burst.total().max());
            return new Floor(cold, sequential, burst);
        }
    }

    private PodTimes createAndAwait(PodWatch watch, String name)
            throws IOException, InterruptedException {
        long sent = System.nanoTime();
        api.create(name);
        long created = System.nanoTime();
        long ready = watch.awaitReady(List.of(name), options.podTimeout()).get(name);
        return new PodTimes(sent, created, ready);
    }

    /**
     * Creates {@code count} pods from {@code inFlight} threads released together; waits until all
     * are Ready.
     */
    private Map<String, PodTimes> createAtOnce(
            PodWatch watch, String prefix, int count, int inFlight)
            throws IOException, InterruptedException {
        Map<String, long[]> sent = new ConcurrentHashMap<>();
        CyclicBarrier go = new CyclicBarrier(inFlight);
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        List<Future<?>> creators = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        for (int t = 0; t < inFlight; t++) {
            creators.add(
                    pool.submit(
                            () -> {
                                go.await();
                                for (int i = next.getAndIncrement();
                                        i < count;
                                        i = next.getAndIncrement()) {
                                    String name = prefix + i;
                                    long s = System.nanoTime();
                                    api.create(name);
                                    sent.put(name, new long[] {s, System.nanoTime()});
                                }
                                return null;
                            }));
        }
        try {
            for (Future<?> f : creators) {
                f.get();
            }
        } catch (ExecutionException e) {
            throw new IOException("creating pods: " + e.getCause().getMessage(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        Duration timeout = options.podTimeout().plusSeconds(count);
        Map<String, Long> ready = watch.awaitReady(sent.keySet(), timeout);
        Map<String, PodTimes> times = new TreeMap<>();
        sent.forEach((name, s) -> times.put(name, new PodTimes(s[0], s[1], ready.get(name))));
        return times;
    }

    /**
     * Deletes the pods at once (default grace) and waits until each is gone; per pod, request sent
     * to DELETED.
     */
    private Map<String, Long> deleteAll(PodWatch watch, List<String> names)
            throws IOException, InterruptedException {
        Map<String, Long> sent = new ConcurrentHashMap<>();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (String name : names) {
            sent.put(name, System.nanoTime());
            calls.add(api.deleteAsync(name));
        }
        for (int i = 0; i < calls.size(); i++) {
            HttpResponse<String> r = calls.get(i).join();
            if (r.statusCode() != 200 && r.statusCode() != 202) {
                throw new IOException(
                        "deleting pod "
                                + names.get(i)
                                + ": HTTP "
                                + r.statusCode()
                                + " "
                                + r.body());
            }
        }
        Map<String, Long> gone =
                watch.awaitDeleted(names, options.podTimeout().plusSeconds(names.size()));
        Map<String, Long> took = new HashMap<>();
        names.forEach(n -> took.put(n, gone.get(n) - sent.get(n)));
        return took;
    }

    private SteadyState steady(PodWatch watch, AgentProcess agent, ContainerdLocal containerd)
            throws IOException, InterruptedException {
        int n = options.steadyPods();
        long start = System.nanoTime();
        Map<String, PodTimes> times =
                createAtOnce(watch, "steady-", n, Math.min(n, STEADY_CREATORS));
        double fillSeconds =
                (times.values().stream().mapToLong(PodTimes::ready).max().orElse(start) - start)
                        / 1e9;
        Samples fill = new Samples();
        times.values().forEach(t -> fill.add(t.startNanos()));
        System.err.printf(
                Locale.ROOT,
                "bench: %d pods Ready in %.1f s; idle %d s, then CPU over %d s%n",
                n,
                fillSeconds,
                options.settle().toSeconds(),
                options.cpuWindow().toSeconds());
        Thread.sleep(options.settle().toMillis());
        long containerdPid = containerd.pid().orElse(-1L);
        long windowStart = System.nanoTime();
        long agentCpu0 = ProcStat.cpuNanos(agent.pid());
        long containerdCpu0 = containerdPid > 0 ? ProcStat.cpuNanos(containerdPid) : 0;
        Thread.sleep(options.cpuWindow().toMillis());
        long agentCpu1 = ProcStat.cpuNanos(agent.pid());
        long containerdCpu1 = containerdPid > 0 ? ProcStat.cpuNanos(containerdPid) : 0;
        long window = System.nanoTime() - windowStart;
        long rss = ProcStat.rssBytes(agent.pid());
        Jcmd jcmd = new Jcmd(agent.pid());
        jcmd.gc();
        long heap = jcmd.heapUsed();
        if (!agent.isAlive()) {
            throw new IOException("the agent exited during the idle window");
        }
        Samples delete = new Samples();
        deleteAll(watch, new ArrayList<>(times.keySet())).values().forEach(delete::add);
        return new SteadyState(
                n,
                fillSeconds,
                fill,
                100.0 * (agentCpu1 - agentCpu0) / window,
                containerdPid > 0 ? 100.0 * (containerdCpu1 - containerdCpu0) / window : Double.NaN,
                heap,
                rss,
                delete);
    }
}
