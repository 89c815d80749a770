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
 */
public final class InProcessServer implements BeforeAllCallback, AfterAllCallback {
    private Path scratch;
    private Path manifests;
    private ApiServer server;
    private Kubectl kubectl;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        scratch = Files.createTempDirectory("kubepekko-e2e-");
        manifests = Files.createDirectories(scratch.resolve("manifests"));
        server = ApiServer.start(ApiServerSettings.defaults().withDataDir(scratch.resolve("data")).withPort(0));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (server != null) {
            server.close();
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (UncheckedIOException e) {
            // best effort: a file kubectl still writes to is not worth failing the class for
        }
    }

    /** The running server. */
    public ApiServer server() {
        return server;
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
            kubectl = new Kubectl(ClientBinaries.require().kubectl(), server.kubeconfig(), scratch, manifests);
        }
        return kubectl;
    }
}
