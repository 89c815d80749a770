package io.kubepekko.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@code bench/podstart} ({@link PodStartBench}): what to time and for how
 * long, and where the server, agent and containerd scripts are. Parsed once, before anything
 * starts, so a bad flag costs no containerd start.
 */
record PodStartOptions(
        int sequential,
        int burst,
        int steadyPods,
        int maxPods,
        Duration settle,
        Duration cpuWindow,
        Duration podTimeout,
        Duration startTimeout,
        Path apiserver,
        Path agent,
        Path containerdLocal,
        Path agentLog,
        Path out,
        boolean runtimeFloor) {

    static final String USAGE =
            """
      usage: bench/podstart [options]        (as root: containerd needs it)
        --sequential N          pods created one after another, each once the previous is Ready (default 30)
        --burst N               pods created at once (default 30)
        --steady-pods N         pods to fill the node with for the idle measurement; 0 skips it (default 110)
        --max-pods N            the agent's --max-pods (default: the larger of 110 and --steady-pods)
        --settle D              idle time after the node is full, before the CPU window (default 60s)
        --cpu-window D          the agent's CPU is measured over this idle window (default 60s)
        --pod-timeout D         a pod not Ready (or not gone) after this fails the run (default 120s)
        --start-timeout D       deadline for the server and the agent's node to be ready (default 300s)
        --apiserver PATH        server launch script (default cluster-config/bin/apiserver)
        --agent PATH            agent launch script (default cluster-config/bin/agent)
        --containerd-local PATH containerd script (default cluster-config/bin/containerd-local)
        --agent-log FILE        keep the agent's log there (default: deleted with the run's temp dir)
        --no-runtime-floor      skip the runtime floor: before the agent starts, the same pods (the agent's own CRI
                                configs) one after another and all at once on containerd alone, over CRI
        --out FILE              also append the report to FILE
      """;

    static PodStartOptions parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "sequential",
                                "burst",
                                "steady-pods",
                                "max-pods",
                                "settle",
                                "cpu-window",
                                "pod-timeout",
                                "start-timeout",
                                "apiserver",
                                "agent",
                                "containerd-local",
                                "agent-log",
                                "out",
                                "no-runtime-floor"),
                        USAGE);
        Path root = Path.of(System.getProperty("bench.root", "."));
        int steadyPods = Integer.parseInt(flags.getOrDefault("steady-pods", "110").trim());
        if (steadyPods < 0) {
            throw new IllegalArgumentException("--steady-pods must not be negative");
        }
        return new PodStartOptions(
                BenchFlags.positive(flags.getOrDefault("sequential", "30")),
                BenchFlags.positive(flags.getOrDefault("burst", "30")),
                steadyPods,
                BenchFlags.positive(
                        flags.getOrDefault(
                                "max-pods", Integer.toString(Math.max(110, steadyPods)))),
                BenchFlags.duration(flags.getOrDefault("settle", "60s")),
                BenchFlags.duration(flags.getOrDefault("cpu-window", "60s")),
                BenchFlags.duration(flags.getOrDefault("pod-timeout", "120s")),
                BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                path(flags, "apiserver", root.resolve("cluster-config/bin/apiserver")),
                path(flags, "agent", root.resolve("cluster-config/bin/agent")),
                path(
                        flags,
                        "containerd-local",
                        root.resolve("cluster-config/bin/containerd-local")),
                flags.containsKey("agent-log")
                        ? Path.of(flags.get("agent-log")).toAbsolutePath()
                        : null,
                flags.containsKey("out") ? Path.of(flags.get("out")) : null,
                !flags.containsKey("no-runtime-floor"));
    }

    private static Path path(Map<String, String> flags, String name, Path fallback) {
        return flags.containsKey(name) ? Path.of(flags.get(name)).toAbsolutePath() : fallback;
    }
}
