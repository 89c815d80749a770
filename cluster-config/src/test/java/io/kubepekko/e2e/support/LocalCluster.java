package io.kubepekko.e2e.support;

import static org.awaitility.Awaitility.await;

import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * A local Cassandra and N API servers, each in a JVM of its own on loopback, forming one Pekko
 * Cluster on one keyspace: what a clustered deployment is, on one machine, for tests that kill a
 * node with SIGKILL or restart Cassandra. Every node lists all the nodes' cluster ports as seed
 * nodes, so whichever is killed can restart (same data directory and ports) and join the others
 * again. The nodes share one {@link SharedPki}, made before the first starts: {@link #tls()} is an
 * admin of every node. {@link #close()} stops everything it started.
 */
public final class LocalCluster implements AutoCloseable {
    /**
     * A cluster start (Cassandra, schema, N JVMs on a shared 2-core machine) and a rejoin may take
     * this long.
     */
    public static final Duration WHOLE_TIMEOUT = Duration.ofMinutes(3);

    private final Path dir;
    private final String keyspace;
    private final List<Integer> clusterPorts = new ArrayList<>();
    private final List<ServerProcess> nodes = new ArrayList<>();
    private final SharedPki pki;
    private final HttpClient http;
    private LocalCassandra cassandra;

    /**
     * Kills the server JVMs if this JVM exits without {@link #close()} (a test run cut short):
     * unlike the local Cassandra, they are not tied to it.
     */
    private final Thread exitHook = new Thread(this::killNodes, "local-cluster-stop");

    /** The servers' extra settings file, or null. */
    private Path settings;

    private LocalCluster(Path dir) {
        this.dir = dir;
        this.keyspace = "e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        this.pki = SharedPki.create(dir.resolve("shared"));
        this.http = pki.admin().httpClient();
        Runtime.getRuntime().addShutdownHook(exitHook);
    }

    /**
     * Creates the nodes' shared PKI under {@code dir/shared}, starts Cassandra under {@code
     * dir/cassandra}, then node 0 (it creates the keyspace's schema), then the others side by side,
     * and returns once every node's /readyz is 200 with its {@code cluster} check ok.
     */
    public static LocalCluster start(Path dir, int size) {
        return start(dir, size, "");
    }

    /**
     * As {@link #start(Path, int)}, every server with {@code settings} (HOCON, layered under the
     * flags through {@code --config}; empty: none).
     */
    public static LocalCluster start(Path dir, int size, String settings) {
        LocalCluster cluster = new LocalCluster(dir);
        try {
            if (!settings.isEmpty()) {
                Files.createDirectories(dir);
                cluster.settings = Files.writeString(dir.resolve("server-settings.conf"), settings);
            }
            cluster.cassandra = LocalCassandra.start(dir.resolve("cassandra"));
            for (int i = 0; i < size; i++) {
                cluster.clusterPorts.add(ServerProcess.freePort());
            }
            cluster.nodes.add(cluster.spawn(0));
            cluster.nodes.get(0).awaitReady();
            for (int i = 1; i < size; i++) {
                cluster.nodes.add(cluster.spawn(i));
            }
            for (ServerProcess node : cluster.nodes) {
                node.awaitReady();
            }
            cluster.awaitWhole();
            return cluster;
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        } catch (InterruptedException e) {
            cluster.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local cluster", e);
        } catch (Exception e) {
            cluster.close();
            throw new IllegalStateException("the local cluster did not start", e);
        }
    }

    private ServerProcess spawn(int node) {
        Path dataDir = dir.resolve("node-" + node);
        pki.seed(dataDir);
        return ServerProcess.spawn(dataDir, ServerProcess.freePort(), flags(node));
    }

    private List<String> flags(int node) {
        String seeds =
                clusterPorts.stream().map(p -> "127.0.0.1:" + p).collect(Collectors.joining(","));
        List<String> flags =
                new ArrayList<>(
                        List.of(
                                "--storage=cassandra",
                                "--cassandra-contact-points",
                                cassandra.contactPoint(),
                                "--cassandra-keyspace",
                                keyspace,
                                "--cluster-seed-nodes",
                                seeds,
                                "--cluster-port",
                                Integer.toString(clusterPorts.get(node)),
                                "--cluster-hostname",
                                "127.0.0.1"));
        if (settings != null) {
            flags.addAll(List.of("--config", settings.toString()));
        }
        return List.copyOf(flags);
    }

    public int size() {
        return nodes.size();
    }

    public ServerProcess node(int i) {
        return nodes.get(i);
    }

    /** The nodes' base URLs, in node order. */
    public List<String> urls() {
        return nodes.stream().map(ServerProcess::url).toList();
    }

    /** TLS as an admin of every node (the nodes share their CAs). */
    public ClientTls tls() {
        return pki.admin();
    }

    public LocalCassandra cassandra() {
        return cassandra;
    }

    public String keyspace() {
        return keyspace;
    }

    /** SIGKILL to node {@code i}'s JVM. */
    public void kill9(int i) {
        nodes.get(i).kill9();
    }

    /**
     * Starts node {@code i} again (same data directory, ports and flags) and waits until the
     * cluster is whole.
     */
    public void restart(int i) {
        nodes.get(i).restart();
        awaitWhole();
    }

    /**
     * Starts nodes {@code which} again side by side (same data directories, ports and flags), as
     * {@link #start} starts all but the first, and waits until the cluster is whole.
     */
    public void restartTogether(List<Integer> which) {
        which.forEach(i -> nodes.get(i).relaunch());
        which.forEach(i -> nodes.get(i).awaitReady());
        awaitWhole();
    }

    /**
     * Brings back whatever an earlier (failed) test left down: Cassandra, then every node not
     * running; then waits until the cluster is whole. Lets each test start from a whole cluster.
     */
    public void ensureWhole() {
        if (!cassandra.isAlive()) {
            startCassandra();
        }
        for (ServerProcess node : nodes) {
            if (!node.isAlive()) {
                node.restart();
            }
        }
        awaitWhole();
    }

    /** Stops Cassandra the graceful way (it drains and flushes); the servers keep running. */
    public void stopCassandra() {
        cassandra.stop();
    }

    /**
     * Starts Cassandra again on its data directory and its previous ports, where the servers look
     * for it.
     */
    public void startCassandra() {
        int port = cassandra.cqlPort();
        try {
            cassandra =
                    LocalCassandra.start(
                            dir.resolve("cassandra"),
                            LocalCassandra.Options.defaults().reusingPorts());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(e);
        }
        if (cassandra.cqlPort() != port) {
            throw new IllegalStateException(
                    "Cassandra came back on CQL port " + cassandra.cqlPort() + ", not " + port);
        }
    }

    /**
     * Waits until every node runs and answers /readyz with 200 and its {@code cluster} check ok: it
     * is Up and sees no member unreachable. (The servers expose no member list over HTTP; with
     * every node Up and only the first seed able to form a cluster, all are members of the one
     * cluster.)
     */
    public void awaitWhole() {
        await().atMost(WHOLE_TIMEOUT)
                .pollInterval(Duration.ofMillis(250))
                .alias("every node ready with its cluster check ok")
                .until(
                        () ->
                                nodes.stream()
                                        .allMatch(node -> node.isAlive() && readyInCluster(node)));
    }

    /** The verbose /readyz of node {@code i}, or why there was none. */
    public String readyz(int i) {
        HttpRequest probe =
                HttpRequest.newBuilder(URI.create(nodes.get(i).url() + "/readyz?verbose"))
                        .timeout(Duration.ofSeconds(5))
                        .GET()
                        .build();
        try {
            HttpResponse<String> r = http.send(probe, HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + "\n" + r.body();
        } catch (ConnectException e) {
            return "connection refused";
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private boolean readyInCluster(ServerProcess node) {
        String r = readyz(nodes.indexOf(node));
        return r.startsWith("200\n") && r.lines().anyMatch("[+]cluster ok"::equals);
    }

    /** Where each node's and Cassandra's logs are, for failure messages. */
    public String logs() {
        StringBuilder b =
                new StringBuilder("cassandra: ")
                        .append(dir.resolve("cassandra/logs/cassandra.out"));
        for (int i = 0; i < nodes.size(); i++) {
            b.append("\nnode ")
                    .append(i)
                    .append(" (")
                    .append(nodes.get(i).url())
                    .append("): ")
                    .append(nodes.get(i).log());
        }
        return b.toString();
    }

    /** Kills every server JVM, then stops Cassandra. */
    @Override
    public void close() {
        killNodes();
        try {
            Runtime.getRuntime().removeShutdownHook(exitHook);
        } catch (IllegalStateException alreadyExiting) {
            // the hook runs anyway
        }
        if (cassandra != null && cassandra.isAlive()) {
            cassandra.stop();
        }
    }

    private void killNodes() {
        for (ServerProcess node : List.copyOf(nodes)) {
            node.close();
        }
    }
}
