package io.kubepekko.bench.floor;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.http.security.TlsServing;
import io.kubepekko.persistence.EmbeddedSchema;
import io.kubepekko.persistence.StorageSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.ServerBuilder;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.japi.function.Function;

/**
 * The stack's floor: the least a server on our fixed stack does to store a ConfigMap, started the
 * way our server starts (the same Pekko configuration: a one-node cluster over Artery; the same
 * embedded journal: pekko-persistence-jdbc on H2 with our schema and journal writer; the same
 * generated PKI and HTTPS through Pekko HTTP), with none of Kubernetes' work (no registry,
 * bootstrap policy, admission, validation, watch caches, controllers). {@code bench/cold
 * --apiserver bench/floor-server} measures it as it measures our server: the gap between the two is
 * what our own code costs, and the floor's own figures what the stack costs on the machine.
 *
 * <p>Flags: {@code --data-dir}, {@code --secure-port}, {@code --bind-address} (as the server's),
 * {@code --plain} (HTTP instead of HTTPS), {@code --load NAMESPACE} (repeatable: that namespace's
 * collection is recovered before it serves, for timing a restart). It logs the time since the JVM
 * started at each step of its start, writes {@code <data-dir>/admin.kubeconfig} (its CA and admin
 * client certificate) and logs {@code listening on <url>} once it serves.
 */
public final class FloorServer {
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration LOAD_TIMEOUT = Duration.ofMinutes(10);

    private final long jvmStartNanos;

    private FloorServer() {
        long sinceJvmStart =
                System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        this.jvmStartNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(sinceJvmStart);
    }

    public static void main(String[] args) throws Exception {
        FloorServer server = new FloorServer();
        server.step("main");
        Path dataDir = Path.of("data");
        int port = 0;
        String address = "127.0.0.1";
        boolean plain = false;
        List<String> loads = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--data-dir" -> dataDir = Path.of(value(args, ++i));
                case "--secure-port" -> port = port(value(args, ++i));
                case "--bind-address" -> address = value(args, ++i);
                case "--plain" -> plain = true;
                case "--load" -> loads.add(value(args, ++i));
                case "--help" -> {
                    System.out.println(
                            "usage: bench/floor-server [--data-dir DIR] [--secure-port PORT]"
                                    + " [--bind-address IP] [--plain] [--load NAMESPACE]...");
                    return;
                }
                default -> {
                    System.err.println("floor-server: unknown flag " + args[i]);
                    System.exit(2);
                }
            }
        }
        server.start(dataDir, address, port, plain, loads);
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        System.err.println(
                "floor-server: --secure-port must be a port number (0-65535), not " + value);
        System.exit(2);
        return -1;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            System.err.println("floor-server: " + args[i - 1] + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    private void start(Path dataDir, String address, int port, boolean plain, List<String> loads)
            throws Exception {
        Files.createDirectories(dataDir);
        // Made beside the actor system's start, as our server makes its PKI.
        CompletableFuture<Optional<Pki.Material>> pki =
                plain
                        ? CompletableFuture.completedFuture(Optional.empty())
                        : CompletableFuture.supplyAsync(() -> Optional.of(pki(dataDir)));
        Config config = config(dataDir);
        step("config");
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "kubepekko", config);
        step("actor system");
        EmbeddedSchema.createIfNotExists(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
        step("schema");
        Cluster cluster = Cluster.get(system);
        cluster.manager().tell(Join.create(cluster.selfMember().address()));
        ClusterSharding sharding = ClusterSharding.get(system);
        sharding.init(Entity.of(FloorCollection.KEY, c -> new FloorCollection(c.getEntityId())));
        awaitUp(cluster);
        step("member up");
        // One write before serving, as our server's start writes its bootstrap objects.
        sharding.entityRefFor(FloorCollection.KEY, "kube-system")
                .<Long>ask(
                        r ->
                                new FloorCollection.Batch(
                                        List.of(
                                                new FloorCollection.Create(
                                                        "floor",
                                                        "{}".getBytes(StandardCharsets.UTF_8))),
                                        r),
                        STEP_TIMEOUT)
                .toCompletableFuture()
                .get(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        step("first write");
        // A restart's collections recovered before serving, as our server's watch caches load them.
        for (String namespace : loads) {
            int objects =
                    sharding.entityRefFor(FloorCollection.KEY, namespace)
                            .<Integer>ask(FloorCollection.Count::new, LOAD_TIMEOUT)
                            .toCompletableFuture()
                            .get(LOAD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            step("loaded " + namespace + " (" + objects + " objects)");
        }
        FloorRoutes routes = new FloorRoutes(system, sharding);
        ServerBuilder builder = Http.get(system).newServerAt(address, port);
        Optional<Pki.Material> material = pki.join();
        if (material.isPresent()) {
            builder =
                    builder.enableHttps(
                            TlsServing.context(material.get(), SecureServing.generated()));
        }
        Function<HttpRequest, CompletionStage<HttpResponse>> handler = routes::handle;
        ServerBinding binding =
                builder.bind(handler)
                        .toCompletableFuture()
                        .get(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        String url =
                (plain ? "http" : "https")
                        + "://"
                        + address
                        + ":"
                        + binding.localAddress().getPort();
        writeKubeconfig(dataDir, url, material);
        step("serving");
        System.out.println("floor-server listening on " + url);
        String readyFile = System.getProperty("kubepekko.ready-file");
        if (readyFile != null) {
            Files.writeString(Path.of(readyFile), "");
        }
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> {
                                    system.terminate();
                                    system.getWhenTerminated()
                                            .toCompletableFuture()
                                            .completeOnTimeout(null, 10, TimeUnit.SECONDS)
                                            .join();
                                }));
    }

    /**
     * The server's own configuration (its {@code kubepekko-server.conf} over every module's
     * reference), its embedded journal in {@code dataDir}.
     */
    private static Config config(Path dataDir) {
        // load() resolves after layering, so the journal's URL follows the data directory.
        return ConfigFactory.load(
                new StorageSettings.Embedded(dataDir)
                        .toConfig()
                        .withFallback(ConfigFactory.parseResources("kubepekko-server.conf")));
    }

    private static Pki.Material pki(Path dataDir) {
        try {
            return Pki.prepare(
                    dataDir,
                    SecureServing.generated(),
                    ServingNames.of("localhost", Optional.empty(), "10.0.0.1"),
                    Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitUp(Cluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (cluster.selfMember().status() != MemberStatus.up()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the member did not come up in " + STEP_TIMEOUT);
            }
            Thread.sleep(5);
        }
    }

    /** The admin kubeconfig, written whole under its final name, as the server writes it. */
    private static void writeKubeconfig(Path dataDir, String url, Optional<Pki.Material> pki)
            throws IOException {
        String ca = pki.map(m -> base64(Pem.encode(m.serverCa()))).orElse("");
        String user =
                pki.flatMap(Pki.Material::admin)
                        .map(
                                a ->
                                        "\n    client-certificate-data: "
                                                + base64(Pem.encode(a.certificate()))
                                                + "\n    client-key-data: "
                                                + base64(Pem.encode(a.key())))
                        .orElse(" {}");
        String text =
                """
                apiVersion: v1
                kind: Config
                clusters:
                - name: floor
                  cluster:
                    server: %s
                    certificate-authority-data: %s
                contexts:
                - name: floor
                  context:
                    cluster: floor
                    user: admin
                current-context: floor
                users:
                - name: admin
                  user:%s
                """
                        .formatted(url, ca, user);
        Path part = dataDir.resolve("admin.kubeconfig.part");
        Files.writeString(part, text);
        Files.move(part, dataDir.resolve("admin.kubeconfig"), StandardCopyOption.ATOMIC_MOVE);
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    private void step(String name) {
        System.out.printf(
                Locale.ROOT,
                "floor-server: %-12s %.3f s after the JVM started%n",
                name,
                (System.nanoTime() - jvmStartNanos) / 1e9);
    }
}
