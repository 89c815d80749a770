package io.kubepekko.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** {@code bench/cold}'s command-line settings; see {@link #USAGE}. */
record ColdOptions(
        int runs,
        int creates,
        Duration duration,
        int clients,
        int objectBytes,
        Path apiserver,
        Duration startTimeout,
        Path out) {

    static final String USAGE =
            """
      usage: bench/cold [options]
      Each cell of each run starts a fresh etcd and a fresh server (empty data directories) and
      measures from their first request, without warm-up.
        --runs N                runs, each with fresh processes for every cell (default 3)
        --creates N             cell (a): the first N creates, one client (default 5000)
        --duration D            cell (b): the first D of creates (default 10s; e.g. 500ms, 2s)
        --clients N             cell (b): concurrent clients (default 64)
        --object-bytes N        ConfigMap data size (default 2048)
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --start-timeout D       deadline for a process to become ready (default 300s)
        --out FILE              also append the report to FILE
      """;

    static ColdOptions parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "runs",
                                "creates",
                                "duration",
                                "clients",
                                "object-bytes",
                                "apiserver",
                                "start-timeout",
                                "out"),
                        USAGE);
        Path root = Path.of(System.getProperty("bench.root", "."));
        Duration duration = BenchFlags.duration(flags.getOrDefault("duration", "10s"));
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("--duration must be positive");
        }
        return new ColdOptions(
                BenchFlags.positive(flags.getOrDefault("runs", "3")),
                BenchFlags.positive(flags.getOrDefault("creates", "5000")),
                duration,
                BenchFlags.positive(flags.getOrDefault("clients", "64")),
                BenchFlags.positive(flags.getOrDefault("object-bytes", "2048")),
                flags.containsKey("apiserver")
                        ? Path.of(flags.get("apiserver"))
                        : root.resolve("cluster-config/bin/apiserver"),
                BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                flags.containsKey("out") ? Path.of(flags.get("out")) : null);
    }
}
