package io.kubepekko.persistence.cassandra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The files a local single-node Cassandra runs from, all under one data directory: a minimal {@code
 * cassandra.yaml} bound to loopback and a logback configuration that logs to the console.
 */
final class CassandraNodeFiles {
    private CassandraNodeFiles() {}

    static Path yaml(Path dataDir) {
        return dataDir.resolve("conf").resolve("cassandra.yaml");
    }

    static Path logback(Path dataDir) {
        return dataDir.resolve("conf").resolve("logback.xml");
    }

    /**
     * Writes both files for a node listening on {@code host} at the given ports (rewritten on every
     * start).
     */
    static void write(Path dataDir, String host, int storagePort, int cqlPort) throws IOException {
        Files.createDirectories(yaml(dataDir).getParent());
        String yaml =
                """
                cluster_name: kubepekko-local
                num_tokens: 1
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                endpoint_snitch: SimpleSnitch
                listen_address: %1$s
                rpc_address: %1$s
                storage_port: %2$d
                native_transport_port: %3$d
                start_native_transport: true
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "%1$s:%2$d"
                commitlog_sync: periodic
                commitlog_sync_period: 10000ms
                data_file_directories:
                  - %4$s
                commitlog_directory: %5$s
                saved_caches_directory: %6$s
                hints_directory: %7$s
                cdc_raw_directory: %8$s
                """
                        .formatted(
                                host,
                                storagePort,
                                cqlPort,
                                quoted(dataDir.resolve("data")),
                                quoted(dataDir.resolve("commitlog")),
                                quoted(dataDir.resolve("saved_caches")),
                                quoted(dataDir.resolve("hints")),
                                quoted(dataDir.resolve("cdc_raw")));
        Files.writeString(yaml(dataDir), yaml);
        Files.writeString(
                logback(dataDir),
                """
                <configuration>
                  <appender name="STDOUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%-5level [%thread] %date{ISO8601} %logger{0} %msg%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="STDOUT"/></root>
                </configuration>
                """);
    }

    /**
     * The storage and CQL ports of the {@code cassandra.yaml} an earlier start wrote into {@code
     * dataDir}: the data directory's memory of where its clients found it. Empty when there is none
     * or it names no ports.
     */
    static Optional<NodePorts> ports(Path dataDir) throws IOException {
        Path yaml = yaml(dataDir);
        if (!Files.isRegularFile(yaml)) {
            return Optional.empty();
        }
        Integer storage = null;
        Integer cql = null;
        for (String line : Files.readAllLines(yaml)) {
            String l = line.strip();
            if (l.startsWith("storage_port:")) {
                storage = Integer.valueOf(l.substring("storage_port:".length()).strip());
            } else if (l.startsWith("native_transport_port:")) {
                cql = Integer.valueOf(l.substring("native_transport_port:".length()).strip());
            }
        }
        return storage == null || cql == null
                ? Optional.empty()
                : Optional.of(new NodePorts(storage, cql));
    }

    private static String quoted(Path p) {
        return "\""
                + p.toAbsolutePath().toString().replace("\\", "\\\\").replace("\"", "\\\"")
                + "\"";
    }
}
