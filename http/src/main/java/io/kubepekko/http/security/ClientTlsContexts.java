package io.kubepekko.http.security;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * TLS for a client of an API server, as a kubeconfig describes one: trusting only the given CAs
 * (host names checked by the client, as kubectl's), presenting one client certificate chain
 * whichever issuers the server names — so a certificate of an unknown CA reaches the server and is
 * refused there with kube's 401, as a client that was given it would send it.
 */
public final class ClientTlsContexts {
    private ClientTlsContexts() {}

    /**
     * Trusting {@code cas}, presenting {@code chain} (its leaf first) with {@code key}; an empty
     * chain presents nothing (the server's anonymous user).
     */
    public static SSLContext of(
            List<X509Certificate> cas, List<X509Certificate> chain, PrivateKey key)
            throws IOException {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            for (int i = 0; i < cas.size(); i++) {
                trust.setCertificateEntry("ca" + i, cas.get(i));
            }
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(
                    chain.isEmpty() ? null : new KeyManager[] {new Presenting(chain, key)},
                    tmf.getTrustManagers(),
                    null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("building a client's TLS context: " + e.getMessage(), e);
        }
    }

    /** Presents one chain, whichever issuers the server asks for. */
    private static final class Presenting extends X509ExtendedKeyManager {
        private static final String ALIAS = "client";
        private final X509Certificate[] chain;
        private final PrivateKey key;

        Presenting(List<X509Certificate> chain, PrivateKey key) {
            this.chain = chain.toArray(new X509Certificate[0]);
            this.key = key;
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine e) {
            return ALIAS;
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return ALIAS;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {ALIAS};
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return chain.clone();
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return key;
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }
    }
}
