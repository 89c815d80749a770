package io.kubepekko.e2e.support;

import io.kubepekko.http.ApiServer;
import io.kubepekko.http.ApiServerSettings;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * One API server in this JVM for a test class, on a free loopback port with its data in a
 * temporary directory, and the real kubectl pointed at it. Register it as a static field with
 * {@code @RegisterExtension}; the server starts before the class's tests and is stopped, and its
 * directory removed, after them.
 *
 * <p>With {@code -Dkubepekko.e2e.target=cluster} the class gets a {@link LocalServerCluster} instead:
 * three clustered servers on Cassandra behind a round-robin proxy, which {@link #kubeconfig()} points
 * at, so that the same tests prove the same behaviour whichever node serves each request.
 */
public final class InProcessServer implements BeforeAllCallback, AfterAllCallback {
    private Path scratch;
    private Path manifests;
    private ApiServer server;
    private LocalServerCluster cluster;
    private Path kubeconfig;
    private Kubectl kubectl;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        scratch = Files.createTempDirectory("kubepekko-e2e-");
        manifests = Files.createDirectories(scratch.resolve("manifests"));
        if (LocalServerCluster.requested()) {
            cluster = LocalServerCluster.start(scratch.resolve("cluster"));
            server = cluster.node(0);
            kubeconfig = cluster.kubeconfig();
        } else {
            server = ApiServer.start(ApiServerSettings.defaults().withDataDir(scratch.resolve("data")).withPort(0));
            kubeconfig = server.kubeconfig();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (cluster != null) {
            cluster.close();
        } else if (server != null) {
            server.close();
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (UncheckedIOException e) {
            // best effort: a file kubectl still writes to is not worth failing the class for
        }
    }

    /** The running server; in cluster mode the first node (kubectl goes through {@link #kubeconfig()}). */
    public ApiServer server() {
        return server;
    }

    /** The kubeconfig kubectl and helm use: the server's own, or in cluster mode the proxy's. */
    public Path kubeconfig() {
        return kubeconfig;
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
            throw new AssertionError("kubectl exited " + result.exitCode() + ": " + result.describe());
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
            kubectl = new Kubectl(ClientBinaries.require().kubectl(), kubeconfig, scratch, manifests);
        }
        return kubectl;
    }
}
