package io.kubepekko.http.server;

import io.kubepekko.api.alloc.Ipv4;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.http.security.ClientCertificates;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.http.security.TlsServing;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.settings.ServerSettings;
import org.apache.pekko.stream.javadsl.Flow;

/**
 * The HTTPS listener on {@code --secure-port}, the server's only one: TLS with the PKI under the
 * data directory, each request carrying its connection's SSL session (for the client certificate),
 * each connection under the deadlines of {@link HeaderDeadline} and {@link HandshakeGuard}.
 *
 * @param binding the listener
 * @param url its URL, on the host clients reach it at
 * @param pki what it serves and trusts
 */
record SecureListener(HttpsBinding binding, String url, Pki.Material pki) {

    /** The PKI the secure port serves and trusts, created under the data directory when absent. */
    static Pki.Material pki(ApiServerSettings settings) throws Exception {
        SecureServing tls = settings.secure();
        ServingNames names =
                ServingNames.of(
                        hostName(),
                        tls.advertiseAddress(),
                        Ipv4.format(settings.services().clusterIpRange().firstUsable()));
        return Pki.prepare(settings.dataDir(), tls, names, Clock.systemUTC());
    }

    /**
     * Binds the secure port.
     *
     * @param handler serves each connection's requests, one materialization per connection
     * @param headerTimeout {@code kubepekko.http.read-header-timeout}
     * @param keepAliveTimeout {@code kubepekko.http.keep-alive-timeout}
     */
    static SecureListener bind(
            ActorSystem<Void> system,
            ApiServerSettings settings,
            Pki.Material pki,
            Flow<HttpRequest, HttpResponse, ?> handler,
            Duration headerTimeout,
            Duration keepAliveTimeout,
            String host)
            throws Exception {
        ServerSettings server =
                ClientCertificates.includeSession(
                        ServerSettings.create(system.classicSystem())
                                .withRawRequestUriHeader(true)
                                // the peer's address: the audit's sourceIPs
                                .withRemoteAddressAttribute(true));
        HttpsBinding binding =
                HttpsBinding.bind(
                        system,
                        settings.bindAddress(),
                        settings.port(),
                        server,
                        TlsServing.engines(pki, settings.secure()),
                        handler,
                        headerTimeout,
                        keepAliveTimeout);
        String url =
                "https://"
                        + (host.contains(":") ? "[" + host + "]" : host)
                        + ":"
                        + binding.localAddress().getPort();
        return new SecureListener(binding, url, pki);
    }

    /** The admin kubeconfig for this listener. */
    String kubeconfig() {
        return Kubeconfig.renderTls(
                url,
                Pem.encode(pki.serverCa()),
                pki.admin()
                        .map(a -> new String[] {Pem.encode(a.certificate()), Pem.encode(a.key())}));
    }

    /**
     * The host's name as the kernel has it (Go's {@code os.Hostname}), without a DNS lookup; the
     * JDK's local host name when the kernel's is not readable.
     */
    private static String hostName() {
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        try {
            if (Files.isReadable(kernel)) {
                return Files.readString(kernel).trim();
            }
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "";
        }
    }
}
