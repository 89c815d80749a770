package io.kubepekko.bench;

import io.kubepekko.http.security.Pki;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * One way of deploying our API server that {@link ClusterBench} measures, and the processes it
 * takes: the server JVMs through the launch script, and for the Cassandra profiles a local
 * Cassandra of their own (started fresh, so that no deployment inherits another's data or
 * compactions).
 */
enum Deployment {
    EMBEDDED("1 node, embedded (H2)"),
    CASSANDRA("1 node, Cassandra"),
    CLUSTER("%d nodes, Cassandra");

    private final String label;

    Deployment(String label) {
        this.label = label;
    }

    /** The report's name for it, with the cluster's size filled in. */
    String label(int nodes) {
        return String.format(Locale.ROOT, label, nodes);
    }

    static Deployment parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--deployments: unknown deployment "
                            + name.trim()
                            + " (expected embedded, cassandra or cluster)");
        }
    }

    /**
     * Starts the deployment and returns once every server answers {@code /readyz} with 200 (a
     * joining node only does once it is Up in the cluster). Whatever started is stopped again if a
     * later step fails.
     */
    Running start(Path script, int nodes, Path cassandraCache, String keyspace, Duration timeout)
            throws IOException, InterruptedException {
        Running running = new Running();
        try {
            if (this == EMBEDDED) {
                running.servers.add(ServerProcess.start(script, timeout));
                return running;
            }
            Path cassandraDir = Files.createTempDirectory("bench-cassandra-");
            running.cassandraDir = cassandraDir;
            try {
                running.cassandra =
                        LocalCassandra.start(
                                cassandraDir,
                                LocalCassandra.Options.defaults().withCacheDir(cassandraCache));
            } catch (TimeoutException e) {
                throw new IOException("the local Cassandra did not start: " + e.getMessage(), e);
            }
            List<String> storage =
                    List.of(
                            "--storage=cassandra",
                            "--cassandra-contact-points=" + running.cassandra.contactPoint(),
                            "--cassandra-keyspace=" + keyspace);
            if (this == CASSANDRA) {
                running.servers.add(
                        ServerProcess.start(
                                script,
                                Files.createTempDirectory("bench-apiserver-"),
                                0,
                                storage,
                                timeout));
                return running;
            }
            // The seed first, on a fixed cluster port; it creates the keyspace's tables, which the
            // joiners then find. One after the other, so that each is Up before the next joins.
            // The seed also creates the cluster's CAs and service-account key, which every joiner
            // gets before it starts (kube's servers share them the same way).
            int seedPort = Processes.freePort();
            String seeds = "--cluster-seed-nodes=127.0.0.1:" + seedPort;
            for (int i = 0; i < nodes; i++) {
                List<String> flags = new ArrayList<>(storage);
                flags.add(seeds);
                Path dataDir = Files.createTempDirectory("bench-apiserver-");
                if (i == 0) {
                    flags.add("--cluster-port=" + seedPort);
                } else {
                    Pki.share(running.servers.get(0).dataDir(), dataDir);
                }
                running.servers.add(ServerProcess.start(script, dataDir, 0, flags, timeout));
            }
            // The seed's own readiness was checked while it was alone: check all again as one
            // cluster.
            for (ServerProcess server : running.servers) {
                Processes.awaitHttp(
                        server.endpoint(), "/readyz", r -> r.status() == 200, null, timeout);
            }
            return running;
        } catch (IOException | InterruptedException | RuntimeException e) {
            running.close();
            throw e;
        }
    }

    /** What a started deployment runs; {@link #close()} stops all of it and removes its files. */
    static final class Running implements AutoCloseable {
        private final List<ServerProcess> servers = new ArrayList<>();
        private LocalCassandra cassandra;
        private Path cassandraDir;

        /** The servers, each with its own admin identity, the seed's first. */
        List<Endpoint> endpoints() {
            return servers.stream().map(ServerProcess::endpoint).toList();
        }

        @Override
        public synchronized void close() {
            // The joiners leave before the seed, then storage goes once no server uses it.
            for (int i = servers.size() - 1; i >= 0; i--) {
                servers.get(i).close();
            }
            servers.clear();
            if (cassandra != null) {
                cassandra.stop();
                cassandra = null;
            }
            if (cassandraDir != null) {
                Processes.deleteTree(cassandraDir);
                cassandraDir = null;
            }
        }
    }
}
