package io.kubepekko.e2e.support;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import io.kubepekko.http.server.ClusterFlags;
import io.kubepekko.http.server.StorageFlags;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Three API servers in this JVM, each its own actor system, forming one Pekko Cluster on one fresh
 * Cassandra keyspace, behind a {@link RoundRobinProxy}: the kubeconfig points at the proxy, so
 * consecutive kubectl connections are served by different nodes. The nodes share one {@link
 * SharedPki}, made before the first starts: TLS passes through the proxy, and whichever node a
 * connection reaches serves a certificate of the one server CA (naming 127.0.0.1) and knows the
 * admin certificate of the kubeconfig.
 *
 * <p>Chosen for the kubectl suite with {@code -Dkubepekko.e2e.target=cluster} (see {@link
 * #requested()}). The Cassandra is the test JVM's one local node, started on first use and shared
 * by every cluster of the JVM (each on a keyspace of its own); it stops with the JVM.
 */
public final class LocalServerCluster implements AutoCloseable {
    /** The system property that selects the deployment the kubectl suite runs against. */
    public static final String TARGET_PROPERTY = "kubepekko.e2e.target";

    public static final int NODES = 3;
    private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(60);

    private static LocalCassandra cassandra;

    private final List<ApiServer> nodes;
    private final RoundRobinProxy proxy;
    private final Path kubeconfig;
    private final SharedPki pki;

    private LocalServerCluster(
            List<ApiServer> nodes, RoundRobinProxy proxy, Path kubeconfig, SharedPki pki) {
        this.nodes = List.copyOf(nodes);
        this.proxy = proxy;
        this.kubeconfig = kubeconfig;
        this.pki = pki;
    }

    /**
     * Whether {@code -Dkubepekko.e2e.target=cluster} asks for a cluster instead of one embedded
     * server.
     */
    public static boolean requested() {
        return "cluster".equals(System.getProperty(TARGET_PROPERTY, "embedded"));
    }

    /**
     * Starts the nodes with their data directories under {@code dir}, waits until each sees all of
     * them Up and answers {@code /readyz} with 200, and opens the proxy. Whatever started is
     * stopped again if a later step fails.
     */
    public static LocalServerCluster start(Path dir) throws Exception {
        StorageFlags storage =
                StorageFlags.cassandra(
                        List.of(sharedCassandra().contactPoint()),
                        "e2e_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        long t0 = System.nanoTime();
        SharedPki pki = SharedPki.create(dir.resolve("shared"));
        int seedPort = freePort();
        List<String> seeds = List.of("127.0.0.1:" + seedPort);
        List<ApiServer> nodes = new ArrayList<>();
        RoundRobinProxy proxy = null;
        // Pekko's shard rebalancing stays on, as in production: within the first minute shards move
        // to the
        // joined nodes while the tests run, Revisions sequencers included (handed over in order).
        ApiServerSettings base = ApiServerSettings.defaults().withBindAddress("127.0.0.1");
        try {
            // One after the other: the first creates the keyspace's tables, which the others then
            // find.
            for (int i = 0; i < NODES; i++) {
                long started = System.nanoTime();
                int clusterPort = i == 0 ? seedPort : 0;
                pki.seed(dir.resolve("node-" + i));
                nodes.add(
                        ApiServer.start(
                                base.withDataDir(dir.resolve("node-" + i))
                                        .withPort(0)
                                        .withStorage(storage)
                                        .withCluster(
                                                new ClusterFlags(
                                                        seeds, clusterPort, "127.0.0.1"))));
                System.err.printf(
                        "[kubepekko e2e] node %d started in %.1f s%n",
                        i, (System.nanoTime() - started) / 1e9);
            }
            awaitFormed(nodes, pki.admin());
            System.err.printf(
                    "[kubepekko e2e] cluster of %d formed in %.1f s on keyspace %s%n",
                    NODES, (System.nanoTime() - t0) / 1e9, storage.cassandraKeyspace());
            List<InetSocketAddress> backends = new ArrayList<>();
            for (ApiServer node : nodes) {
                backends.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), node.port()));
            }
            proxy = RoundRobinProxy.start(backends);
            Path kubeconfig = writeKubeconfig(dir, proxy.url());
            return new LocalServerCluster(nodes, proxy, kubeconfig, pki);
        } catch (Exception | Error e) {
            if (proxy != null) {
                proxy.close();
            }
            nodes.forEach(ApiServer::close);
            throw e;
        }
    }

    private static void awaitFormed(List<ApiServer> nodes, ClientTls admin) {
        await().atMost(FORMATION_TIMEOUT)
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(
                        () -> {
                            for (int i = 0; i < nodes.size(); i++) {
                                assertEquals(
                                        NODES,
                                        nodes.get(i).upMembers().size(),
                                        "members Up seen by node "
                                                + i
                                                + ": "
                                                + nodes.get(i).upMembers());
                            }
                        });
        HttpClient http = admin.httpClient();
        for (ApiServer node : nodes) {
            HttpRequest readyz =
                    HttpRequest.newBuilder(URI.create(node.url() + "/readyz?verbose"))
                            .timeout(Duration.ofSeconds(5))
                            .build();
            await().atMost(FORMATION_TIMEOUT)
                    .pollInterval(Duration.ofMillis(200))
                    .untilAsserted(
                            () -> {
                                HttpResponse<String> r =
                                        http.send(readyz, HttpResponse.BodyHandlers.ofString());
                                assertEquals(
                                        200, r.statusCode(), node.url() + "/readyz: " + r.body());
                            });
        }
    }

    /** The admin kubeconfig of the cluster: the one of each node, but pointing at the proxy. */
    private static Path writeKubeconfig(Path dir, String serverUrl) throws IOException {
        String text = Files.readString(dir.resolve("node-0").resolve("admin.kubeconfig"));
        String rewritten = text.replaceFirst("(?m)^(\\s*server:\\s*).*$", "$1" + serverUrl);
        if (rewritten.equals(text)) {
            throw new IllegalStateException("no server: line to point at the proxy in\n" + text);
        }
        return Files.writeString(dir.resolve("cluster.kubeconfig"), rewritten);
    }

    private static synchronized LocalCassandra sharedCassandra() throws Exception {
        if (cassandra == null || !cassandra.isAlive()) {
            Path dir = Files.createTempDirectory("kubepekko-e2e-cassandra-");
            LocalCassandra started =
                    LocalCassandra.start(dir); // its own hook stops it with this JVM
            // Stopping is idempotent: this hook stops it too, so that its files can go once it is
            // gone.
            Runtime.getRuntime()
                    .addShutdownHook(
                            new Thread(
                                    () -> {
                                        try {
                                            started.stop();
                                            deleteTree(dir);
                                        } catch (RuntimeException e) {
                                            // it did not stop: leave its files to whoever looks
                                            // into why
                                        }
                                    },
                                    "e2e-cassandra-cleanup"));
            cassandra = started;
        }
        return cassandra;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort while the JVM exits
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Node {@code i}, 0 being the first seed (and so, while it runs, the oldest member). */
    public ApiServer node(int i) {
        return nodes.get(i);
    }

    /** The kubeconfig whose server is the proxy in front of all nodes. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * The CAs the nodes share: {@link ClientTls#userCertificate} issues certificates every node
     * authenticates from {@code pki().dataDir()}.
     */
    public SharedPki pki() {
        return pki;
    }

    /** The proxy in front of the nodes. */
    public RoundRobinProxy proxy() {
        return proxy;
    }

    /**
     * Stops the proxy, then the joiners together, then the seed: the joiners' leaving completes at
     * once while the seed (the leader) still runs, and the seed then leaves a cluster of one.
     * Stopping all three together would leave no leader to move the leaving members on, and each
     * would wait out its shutdown phase's timeout.
     */
    @Override
    public void close() {
        long t0 = System.nanoTime();
        proxy.close();
        List<Thread> stopping = new ArrayList<>();
        for (ApiServer node : nodes.subList(1, nodes.size())) {
            Thread t = new Thread(node::close, "stop-" + node.url());
            t.start();
            stopping.add(t);
        }
        boolean interrupted = false;
        for (Thread t : stopping) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted =
                            true; // finish stopping first: a node left running would outlive the
                    // class
                }
            }
        }
        nodes.get(0).close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        List<Integer> connections = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            connections.add(proxy.connectionsTo(i));
        }
        System.err.printf(
                "[kubepekko e2e] cluster of %d stopped in %.1f s; client connections per node: %s%n",
                nodes.size(), (System.nanoTime() - t0) / 1e9, connections);
    }
}
