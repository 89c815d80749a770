package io.kubepekko.e2e.support;

import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Store;

/**
 * One API server in this JVM for a test class, on a free loopback port with its data in a temporary
 * directory, and the real kubectl pointed at it. Register it as a static field with
 * {@code @RegisterExtension}; the server starts before the class's tests and is stopped, and its
 * directory removed, after them.
 *
 * <p>With {@code -Dkubepekko.e2e.target=cluster} the class gets a {@link LocalServerCluster}
 * instead: three clustered servers on Cassandra behind a round-robin proxy, which {@link
 * #kubeconfig()} points at, so that the same tests prove the same behaviour whichever node serves
 * each request.
 *
 * <p>A class made with {@link #onSharedCluster()} shares, in that mode, the JVM's one cluster with
 * the other such classes instead of starting its own (a cluster takes ~20 s to form): it is started
 * for the first of them and stopped after the last test of the JVM. Such a class must not depend on
 * what other classes leave behind: its kubectl's context names a namespace of the class's own
 * ({@link #defaultNamespace()}), created on first use, and the cluster-scoped objects it makes
 * (namespaces, nodes, cluster roles) must have names no other sharing class uses. Its scratch
 * directory, and with it kubectl's discovery cache, stays its own.
 */
public final class InProcessServer implements BeforeAllCallback, AfterAllCallback {
    private static final String DEFAULT_NAMESPACE = "default";

    private final boolean sharesTheCluster;
    private Path scratch;
    private Path manifests;
    private ApiServer server;
    private LocalServerCluster cluster;
    private Path kubeconfig;
    private String defaultNamespace = DEFAULT_NAMESPACE;
    private boolean defaultNamespaceCreated;
    private Kubectl kubectl;

    /** A server, or in cluster mode a cluster, of the class's own. */
    public InProcessServer() {
        this(false);
    }

    private InProcessServer(boolean sharesTheCluster) {
        this.sharesTheCluster = sharesTheCluster;
    }

    /**
     * A server of the class's own, or in cluster mode the JVM's shared cluster: for a class whose
     * tests work in {@link #defaultNamespace()} or in namespaces of their own, and whose
     * cluster-scoped objects have names of their own.
     */
    public static InProcessServer onSharedCluster() {
        return new InProcessServer(true);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        scratch = Files.createTempDirectory("kubepekko-e2e-");
        manifests = Files.createDirectories(scratch.resolve("manifests"));
        if (LocalServerCluster.requested() && sharesTheCluster) {
            LocalServerCluster shared = SharedCluster.of(context);
            server = shared.node(0);
            defaultNamespace = namespaceFor(context.getRequiredTestClass());
            kubeconfig =
                    withDefaultNamespace(
                            shared.kubeconfig(), defaultNamespace, scratch.resolve("kubeconfig"));
        } else if (LocalServerCluster.requested()) {
            cluster = LocalServerCluster.start(scratch.resolve("cluster"));
            server = cluster.node(0);
            kubeconfig = cluster.kubeconfig();
        } else {
            server =
                    ApiServer.start(
                            ApiServerSettings.defaults()
                                    .withDataDir(scratch.resolve("data"))
                                    .withBindAddress("127.0.0.1")
                                    .withPort(0));
            kubeconfig = server.kubeconfig();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (cluster != null) {
            cluster.close();
        } else if (server != null && !sharedClusterMode()) {
            server.close();
        }
        deleteTree(scratch);
    }

    private boolean sharedClusterMode() {
        return sharesTheCluster && LocalServerCluster.requested();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a file kubectl still writes to is not worth failing the class for
        }
    }

    /** {@code KubectlServerSideApplyE2E} becomes {@code kubectl-server-side-apply-e2e}. */
    static String namespaceFor(Class<?> testClass) {
        return testClass
                .getSimpleName()
                .replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .toLowerCase(Locale.ROOT);
    }

    /**
     * A copy of {@code kubeconfig} whose context names {@code namespace} instead of {@code
     * default}.
     */
    private static Path withDefaultNamespace(Path kubeconfig, String namespace, Path copy)
            throws IOException {
        String text = Files.readString(kubeconfig);
        String rewritten =
                text.replaceFirst("(?m)^(\\s*namespace:\\s*)default\\s*$", "$1" + namespace);
        if (rewritten.equals(text)) {
            throw new IllegalStateException(
                    "no namespace: default line in the context of\n" + text);
        }
        return Files.writeString(copy, rewritten);
    }

    /**
     * The JVM's one cluster for the classes made with {@link #onSharedCluster()}: kept in the root
     * context's store, which JUnit closes after the last test of the run, so the cluster is stopped
     * (and its directory removed) then. A failed start is remembered by the store: the classes
     * after the first fail at once instead of each waiting out a formation timeout again.
     */
    private record SharedCluster(LocalServerCluster cluster, Path dir)
            implements Store.CloseableResource {
        private static final ExtensionContext.Namespace STORE =
                ExtensionContext.Namespace.create(InProcessServer.class, SharedCluster.class);

        static LocalServerCluster of(ExtensionContext context) {
            return context.getRoot()
                    .getStore(STORE)
                    .getOrComputeIfAbsent(SharedCluster.class, k -> start(), SharedCluster.class)
                    .cluster();
        }

        private static SharedCluster start() {
            try {
                Path dir = Files.createTempDirectory("kubepekko-e2e-shared-cluster-");
                System.err.printf(
                        "[kubepekko e2e] starting the cluster shared by this JVM's test classes in %s%n",
                        dir);
                return new SharedCluster(LocalServerCluster.start(dir), dir);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("the shared cluster did not start", e);
            }
        }

        @Override
        public void close() {
            cluster.close();
            deleteTree(dir);
        }
    }

    /**
     * The running server; in cluster mode the first node (kubectl goes through {@link
     * #kubeconfig()}).
     */
    public ApiServer server() {
        return server;
    }

    /**
     * The namespace kubectl's context names, where objects without one go: {@code default}, or on
     * the shared cluster the class's own (see {@link #onSharedCluster()}).
     */
    public String defaultNamespace() {
        return defaultNamespace;
    }

    /** The kubeconfig kubectl and helm use: the server's own, or in cluster mode the proxy's. */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * A kubeconfig like {@link #kubeconfig()} (the same server and CA) whose user is {@code user}
     * in {@code groups}, by a client certificate of the server's client CA (in cluster mode, the CA
     * every node shares), written into {@link #scratch()}.
     */
    public Path kubeconfigFor(String user, List<String> groups) {
        ClientTls tls =
                ClientTls.fromKubeconfig(kubeconfig)
                        .as(ClientTls.userCertificate(server.settings().dataDir(), user, groups));
        return tls.writeKubeconfig(
                scratch.resolve(user.replaceAll("[^A-Za-z0-9-]", "_") + ".kubeconfig"),
                ClientTls.serverOf(kubeconfig),
                Optional.empty());
    }

    /** A directory of this class's own: kubectl's and helm's caches and homes live below it. */
    public Path scratch() {
        return scratch;
    }

    /** Where tests write manifests; kubectl runs here, so relative paths resolve. */
    public Path manifests() {
        return manifests;
    }

    /** Runs kubectl and fails the test unless it exits 0. */
    public ProcessResult ok(String... args) {
        ProcessResult result = kubectl().run(args);
        if (result.exitCode() != 0) {
            throw new AssertionError(
                    "kubectl exited " + result.exitCode() + ": " + result.describe());
        }
        return result;
    }

    /** Creates namespace {@code name} with kubectl and returns its name. */
    public String namespace(String name) {
        ok("create", "namespace", name);
        return name;
    }

    /** Writes a manifest into {@link #manifests()}. */
    public void write(String file, String content) {
        try {
            Files.writeString(manifests.resolve(file), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The real kubectl against this server, made on first use: called from a test (not from
     * {@code @BeforeAll}), missing client binaries then show as skipped tests.
     */
    public Kubectl kubectl() {
        if (kubectl == null) {
            kubectl =
                    new Kubectl(ClientBinaries.require().kubectl(), kubeconfig, scratch, manifests);
        }
        if (!defaultNamespaceCreated && !DEFAULT_NAMESPACE.equals(defaultNamespace)) {
            ProcessResult created = kubectl.run("create", "namespace", defaultNamespace);
            if (created.exitCode() != 0) {
                throw new AssertionError(
                        "the class's namespace was not created: " + created.describe());
            }
            defaultNamespaceCreated = true;
        }
        return kubectl;
    }
}
