package io.kubepekko.http;

import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.SecureServing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;

/**
 * One PKI for every test server of this JVM, as the servers of one cluster share one ({@link
 * Pki#SHARED}): {@link TestApiServer} seeds each data directory with it before the server starts,
 * so one client, presenting the admin certificate and trusting the one server CA, talks to every
 * test server over TLS — the HTTP clients, {@link RawHttp} and {@link WatchClient} alike, as kube's
 * own integration tests talk to theirs.
 */
public final class TestPki {
    private TestPki() {}

    private static final class Holder {
        static final Path TEMPLATE = create();
        static final SSLContext ADMIN = adminContext();
    }

    private static Path create() {
        try {
            Path dir = Files.createTempDirectory("kubepekko-test-pki-");
            Pki.Material pki =
                    Pki.prepare(
                            dir,
                            SecureServing.generated(),
                            ServingNames.of("", Optional.empty(), "10.0.0.1"),
                            Clock.systemUTC());
            pki.admin().orElseThrow();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shared PKI as a test server reads it from its data directory. */
    public static Pki.Material material() {
        try {
            return Pki.prepare(
                    Holder.TEMPLATE,
                    SecureServing.generated(),
                    ServingNames.of("", Optional.empty(), "10.0.0.1"),
                    Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SSLContext adminContext() {
        try {
            Pki.Material pki = material();
            return TlsClients.context(
                    pki.serverCa(),
                    pki.admin().orElseThrow().certificate(),
                    pki.admin().orElseThrow().key());
        } catch (Exception e) {
            throw new IllegalStateException("the test PKI could not be read", e);
        }
    }

    /**
     * Gives {@code dataDir} the shared CAs and service-account key before a server starts there.
     */
    static void seed(Path dataDir) throws IOException {
        Pki.share(Holder.TEMPLATE, dataDir);
    }

    /** TLS as the admin ({@code system:masters}), trusting the shared server CA. */
    public static SSLContext admin() {
        return Holder.ADMIN;
    }

    /** An HTTP/1.1 client of every test server, as the admin. */
    public static HttpClient adminClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(admin())
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is harmless
        }
    }
}
