package io.kubepekko.http.security;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * TLS for a small HTTPS server that presents one certificate chain and asks clients for none: an
 * admission webhook's, as the tests and the webhook benchmark run one on loopback.
 */
public final class ServingTlsContexts {
    private ServingTlsContexts() {}

    /** Presenting {@code chain} (its leaf first, then its issuers) with {@code key}. */
    public static SSLContext of(List<X509Certificate> chain, PrivateKey key) throws IOException {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("serving", key, new char[0], chain.toArray(new X509Certificate[0]));
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, new char[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("building a server's TLS context: " + e.getMessage(), e);
        }
    }
}
