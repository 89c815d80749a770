package io.kubepekko.bench;

import java.net.URI;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * A server and how to reach it: plain HTTP (etcd), or TLS with the CA that verifies the server and
 * the client certificate that says who we are (our API server, which serves only HTTPS and
 * authenticates every request).
 *
 * @param base {@code http://host:port} or {@code https://host:port}
 * @param tls the client's trust and identity for an {@code https} base; null for {@code http}
 */
record Endpoint(URI base, SSLContext tls) {

    Endpoint {
        Objects.requireNonNull(base, "base");
        boolean https = "https".equals(base.getScheme());
        if (!https && !"http".equals(base.getScheme())) {
            throw new IllegalArgumentException("expected http:// or https://, got " + base);
        }
        if (https != (tls != null)) {
            throw new IllegalArgumentException(
                    https
                            ? base + " is HTTPS: a client certificate and CA are needed"
                            : base + " is plain HTTP: no TLS to configure");
        }
    }

    /** A plain HTTP server (etcd, or a running server given by URL without a kubeconfig). */
    static Endpoint plain(URI base) {
        return new Endpoint(base, null);
    }

    /** Another server trusted and authenticated to the same way (a node of the same cluster). */
    Endpoint at(URI otherBase) {
        return new Endpoint(otherBase, tls);
    }

    /** The same server, with another identity (a user's client certificate). */
    Endpoint as(SSLContext identity) {
        return new Endpoint(base, identity);
    }

    boolean secure() {
        return tls != null;
    }

    @Override
    public String toString() {
        return base.toString();
    }
}
