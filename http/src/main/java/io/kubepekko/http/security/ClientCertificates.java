package io.kubepekko.http.security;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.apache.pekko.http.javadsl.model.AttributeKeys;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.SslSessionInfo;
import org.apache.pekko.http.javadsl.settings.ServerSettings;

/**
 * The client certificate chain a request's TLS connection presented (leaf first), read from the SSL
 * session Pekko HTTP attaches to each request of a secure listener whose parser settings include it
 * ({@code ssl-session-attribute}, see {@link #includeSession}); empty over plain HTTP or when the
 * client sent none.
 */
public final class ClientCertificates {
    private ClientCertificates() {}

    /** The chain {@code request} came with. */
    public static List<X509Certificate> of(HttpRequest request) {
        Optional<SslSessionInfo> info = request.getAttribute(AttributeKeys.sslSession);
        return info.map(i -> of(i.getSession())).orElse(List.of());
    }

    static List<X509Certificate> of(SSLSession session) {
        Certificate[] peer;
        try {
            peer = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return List.of(); // the client sent no certificate
        }
        List<X509Certificate> chain = new ArrayList<>();
        for (Certificate c : peer) {
            if (c instanceof X509Certificate x) {
                chain.add(x);
            }
        }
        return List.copyOf(chain);
    }

    /** Server settings that attach the SSL session to every request. */
    public static ServerSettings includeSession(ServerSettings settings) {
        return settings.withParserSettings(
                settings.getParserSettings().withIncludeSslSessionAttribute(true));
    }
}
