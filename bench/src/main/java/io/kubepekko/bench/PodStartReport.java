package io.kubepekko.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The markdown report of {@link PodStartBench}: start, runtime-floor, delete and steady-state
 * tables.
 */
final class PodStartReport {
    private PodStartReport() {}

    static String markdown(
            PodStartOptions options,
            String command,
            String loadAtStart,
            PodStartBench.PodTimes cold,
            Samples sequential,
            Samples sequentialCreate,
            Samples sequentialDelete,
            Samples burst,
            Samples burstCreate,
            Samples burstDelete,
            PodStartBench.SteadyState steady,
            PodStartBench.Floor floor) {
        StringBuilder md = new StringBuilder();
        md.append("## Pod start latency: create to Ready on a watch, one node ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ")
                .append(Report.machine(loadAtStart))
                .append("; load average at end ")
                .append(Report.loadAverage())
                .append('\n');
        md.append("- one API server, one agent (`--max-pods ")
                .append(options.maxPods())
                .append("`, the launch script's ")
                .append("JVM flags) and containerd ")
                .append(ContainerdLocal.version())
                .append(" (`containerd-local`) on this machine; pod: `")
                .append(PodStartApi.IMAGE)
                .append(
                        "`, `imagePullPolicy: IfNotPresent`, `spec.nodeName` set, `sleep 3600` under a shell that exits on ")
                .append(
                        "SIGTERM; no image pull: containerd-local imported the images before the agent started\n");
        md.append(
                        "- start: create request sent (HTTP, not kubectl: `kubectl apply` adds its own process start, ")
                .append(
                        "~0.1–0.3 s) until `Ready=True` arrives on a watch opened before the create; delete: request sent ")
                .append(
                        "(default grace) until the `DELETED` event. With 30 samples p99 is the slowest.\n");
        if (floor != null) {
            md.append(
                            "- runtime alone (same run, before the agent started; the API server idle): the same pods on ")
                    .append(
                            "containerd over CRI, no agent, no API server: the agent's own configs (`SandboxConfigs`, ")
                    .append(
                            "`ContainerConfigs` over the pod as the server stores it, same image, cgroup parent ")
                    .append(
                            "`/kubepods/besteffort/pod<uid>`, CNI network) through its CRI client; a pod from its RunPodSandbox ")
                    .append(
                            "request until StartContainer answers (RunPodSandbox → CreateContainer → StartContainer, nothing ")
                    .append(
                            "else); removed through CRI between the modes and before the agent started\n");
        }
        md.append('\n');
        md.append(
                "| mode | pods | p50 | p99 | max | create 201 p50 | target |\n|---|---:|---:|---:|---:|---:|---|\n");
        md.append(
                String.format(
                        Locale.ROOT,
                        "| cold (first pod after the agent started) | 1 | %.0f ms | — | — | %.0f ms | |%n",
                        cold.startNanos() / 1e6,
                        cold.createNanos() / 1e6));
        if (floor != null) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| runtime alone: cold (first pod after containerd started) | 1 | %.0f ms | — "
                                    + "| — | — | |%n",
                            floor.cold().total().max()));
        }
        row(
                md,
                "sequential (each after the previous is Ready)",
                sequential,
                sequentialCreate,
                "p99 ≤ 2 s, p50 ≤ 1 s");
        if (floor != null) {
            row(
                    md,
                    "runtime alone: sequential (each after the previous started)",
                    floor.sequential().total(),
                    null,
                    "");
        }
        row(
                md,
                "burst (" + options.burst() + " created at once)",
                burst,
                burstCreate,
                "p99 ≤ 2 s, p50 ≤ 1 s");
        if (floor != null) {
            row(
                    md,
                    "runtime alone: " + options.burst() + " at once",
                    floor.burst().total(),
                    null,
                    "");
        }
        if (steady != null) {
            row(
                    md,
                    "fill ("
                            + steady.pods()
                            + " pods, "
                            + PodStartBench.STEADY_CREATORS
                            + " creates in flight)",
                    steady.fill(),
                    null,
                    "");
        }
        if (floor != null) {
            md.append(
                            "\n| runtime alone, per CRI call (p50 / max) | RunPodSandbox | CreateContainer | StartContainer |\n")
                    .append("|---|---:|---:|---:|\n");
            callRow(md, "sequential", floor.sequential());
            callRow(md, options.burst() + " at once", floor.burst());
        }
        md.append("\n| delete to gone | pods | p50 | p99 | max |\n|---|---:|---:|---:|---:|\n");
        deleteRow(md, "sequential, one at a time", sequentialDelete);
        deleteRow(md, "burst, all at once", burstDelete);
        if (steady != null) {
            deleteRow(md, steady.pods() + " pods, all at once", steady.delete());
            md.append(
                    String.format(
                            Locale.ROOT,
                            "%n**Steady state**, %d running pods (all Ready %.1f s after the first "
                                    + "create), idle %d s, then measured over %d s:%n%n",
                            steady.pods(),
                            steady.fillSeconds(),
                            options.settle().toSeconds(),
                            options.cpuWindow().toSeconds()));
            md.append("| figure | value | target |\n|---|---:|---|\n");
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| agent CPU (utime+stime, %% of one core) | %.2f %% | ≤ 5 %% |%n",
                            steady.agentCpuPercent()));
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| agent heap after full GC (`jcmd GC.run`, `GC.heap_info` used) | %.1f MiB "
                                    + "| ≤ 150 MiB |%n",
                            steady.heapAfterGcBytes() / 1048576.0));
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| agent RSS (before the GC) | %.1f MiB | (kubelet: ~100–200 MiB) |%n",
                            steady.agentRssBytes() / 1048576.0));
            md.append(
                    String.format(
                            Locale.ROOT,
                            "| containerd CPU (daemon only, no shims) | %.2f %% | |%n",
                            steady.containerdCpuPercent()));
        }
        return md.toString();
    }

    private static void row(
            StringBuilder md, String mode, Samples start, Samples create, String target) {
        md.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %d | %.0f ms | %.0f ms | %.0f ms | %s | %s |%n",
                        mode,
                        start.count(),
                        start.p50(),
                        start.p99(),
                        start.max(),
                        create == null ? "—" : String.format(Locale.ROOT, "%.0f ms", create.p50()),
                        target));
    }

    private static void callRow(StringBuilder md, String mode, RuntimeFloor.Result r) {
        md.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %.0f / %.0f ms | %.0f / %.0f ms | %.0f / %.0f ms |%n",
                        mode,
                        r.runSandbox().p50(),
                        r.runSandbox().max(),
                        r.createContainer().p50(),
                        r.createContainer().max(),
                        r.startContainer().p50(),
                        r.startContainer().max()));
    }

    private static void deleteRow(StringBuilder md, String mode, Samples s) {
        md.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %d | %.0f ms | %.0f ms | %.0f ms |%n",
                        mode,
                        s.count(),
                        s.p50(),
                        s.p99(),
                        s.max()));
    }
}
