package io.kubepekko.http.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.auth.X509Authenticator;
import io.kubepekko.http.TlsClients;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.Http;
import org.apache.pekko.http.javadsl.ServerBinding;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client certificate chain of a TLS connection reaches each request on a listener set up as the
 * secure port is ({@link TlsServing}, {@link ClientCertificates#includeSession}), and the x509
 * authenticator judges it there: the handshake itself lets any certificate through, as kube's
 * {@code tls.RequestClientCert} does.
 */
class ClientCertificatesIT {

    @TempDir static Path dataDir;

    private static ActorSystem<Void> system;
    private static ServerBinding binding;
    private static Pki.Material pki;

    @BeforeAll
    static void bind() throws Exception {
        pki =
                Pki.prepare(
                        dataDir,
                        SecureServing.generated(),
                        ServingNames.of("", Optional.empty(), "10.0.0.1"),
                        Clock.systemUTC());
        X509Authenticator authenticator = new X509Authenticator(pki.clientCas(), Clock.systemUTC());
        system = ActorSystem.create(Behaviors.empty(), "client-certificates");
        binding =
                Http.get(system)
                        .newServerAt("127.0.0.1", 0)
                        .enableHttps(TlsServing.context(pki, SecureServing.generated()))
                        .adaptSettings(ClientCertificates::includeSession)
                        .bindSync(
                                request -> {
                                    Authentication a =
                                            authenticator.authenticate(
                                                    new Credentials(
                                                            ClientCertificates.of(request),
                                                            Optional.empty(),
                                                            false));
                                    return HttpResponse.create().withEntity(describe(a));
                                })
                        .toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
    }

    private static String describe(Authentication a) {
        if (a instanceof Authentication.Authenticated ok) {
            return "user " + ok.user().name() + " " + ok.user().groups();
        }
        return a instanceof Authentication.Rejected ? "rejected" : "none";
    }

    @AfterAll
    static void unbind() throws Exception {
        binding.terminate(Duration.ofSeconds(5)).toCompletableFuture().get(10, TimeUnit.SECONDS);
        system.terminate();
        system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static String get(X509Certificate cert, PrivateKey key) throws Exception {
        HttpClient client = TlsClients.client(pki.serverCa(), cert, key);
        URI uri = URI.create("https://localhost:" + binding.localAddress().getPort() + "/");
        return client.send(HttpRequest.newBuilder(uri).build(), BodyHandlers.ofString()).body();
    }

    @Test
    void theAdminCertificateReachesTheRequestAndAuthenticates() throws Exception {
        CertificateIssuer.Issued admin = pki.admin().orElseThrow();
        assertEquals(
                "user kubernetes-admin [system:masters]", get(admin.certificate(), admin.key()));
    }

    @Test
    void noCertificateIsNotPresented() throws Exception {
        assertEquals("none", get(null, null));
    }

    @Test
    void aCertificateOfAnotherCaCompletesTheHandshakeAndIsRejectedByTheAuthenticator()
            throws Exception {
        CertificateIssuer.Issued otherCa =
                CertificateIssuer.selfSignedCa("other", Instant.now(), CertificateLifetimes.CA);
        CertificateIssuer.Issued mallory =
                CertificateIssuer.leaf(
                        otherCa,
                        CertificateIssuer.subject("mallory", List.of("system:masters")),
                        CertificateIssuer.Usage.CLIENT,
                        new ServingNames(List.of(), List.of()),
                        Instant.now(),
                        CertificateLifetimes.LEAF);
        assertEquals("rejected", get(mallory.certificate(), mallory.key()));
    }
}
