package io.kubepekko.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** {@code bench/failover}'s command-line settings; see {@link #USAGE}. */
record FailoverOptions(
        int nodes,
        int kills,
        int namespaces,
        Duration settle,
        Duration requestTimeout,
        Duration gapTimeout,
        Path apiserver,
        Path cassandraCache,
        Duration startTimeout,
        Path logs,
        Path out) {

    static final String USAGE =
            """
      usage: bench/failover [options]
        --nodes N               servers in the cluster (default 3)
        --kills N               kill -9 this many times, servers in turn 1, 2, 0, 1, ... (default 5)
        --namespaces N          writers, one per namespace (default 9)
        --settle D              after a restart, load before the next kill (default 20s)
        --request-timeout D     a writer gives up on one create after this (default 3s)
        --gap-timeout D         a kill whose writes are not back after this fails (default 180s)
        --apiserver PATH        launch script (default cluster-config/bin/apiserver)
        --start-timeout D       deadline for each process to become ready (default 300s)
        --logs DIR              keep each server's log in DIR/node-<i>.log (default: not kept)
        --out FILE              also append the report to FILE
      The servers' JVM flags come from KUBEPEKKO_JAVA_OPTS (e.g. -D overrides of the cluster timings).
      """;

    static FailoverOptions parse(String[] args) {
        Map<String, String> flags =
                BenchFlags.parse(
                        args,
                        List.of(
                                "nodes",
                                "kills",
                                "namespaces",
                                "settle",
                                "request-timeout",
                                "gap-timeout",
                                "apiserver",
                                "start-timeout",
                                "logs",
                                "out"),
                        USAGE);
        Path root = Path.of(System.getProperty("bench.root", "."));
        return new FailoverOptions(
                BenchFlags.positive(flags.getOrDefault("nodes", "3")),
                BenchFlags.positive(flags.getOrDefault("kills", "5")),
                BenchFlags.positive(flags.getOrDefault("namespaces", "9")),
                BenchFlags.duration(flags.getOrDefault("settle", "20s")),
                BenchFlags.duration(flags.getOrDefault("request-timeout", "3s")),
                BenchFlags.duration(flags.getOrDefault("gap-timeout", "180s")),
                flags.containsKey("apiserver")
                        ? Path.of(flags.get("apiserver"))
                        : root.resolve("cluster-config/bin/apiserver"),
                root.resolve(".cache/cassandra"),
                BenchFlags.duration(flags.getOrDefault("start-timeout", "300s")),
                flags.containsKey("logs") ? Path.of(flags.get("logs")) : null,
                flags.containsKey("out") ? Path.of(flags.get("out")) : null);
    }
}
