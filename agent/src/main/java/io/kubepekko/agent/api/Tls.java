package io.kubepekko.agent.api;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The JDK {@link SSLContext} for a kubeconfig, as client-go's transport builds its TLS config: its
 * CA as the only trust anchors (or the JDK's when it has none), its client certificate and key as
 * the client identity. The JDK's HTTP client checks the server's certificate names the host of the
 * server URL (client-go's default); {@code insecure-skip-tls-verify} skips both checks, as Go's
 * {@code InsecureSkipVerify}. Keys as client-go reads them: PKCS#8 ({@code PRIVATE KEY}, RSA, EC or
 * Ed25519), PKCS#1 ({@code RSA PRIVATE KEY}, kubeadm's RSA keys) and SEC 1 ({@code EC PRIVATE KEY},
 * kubeadm's and openssl's EC keys); a key that does not belong to the certificate is refused here
 * rather than in the first handshake.
 */
final class Tls {
    private Tls() {}

    private static final char[] NO_PASSWORD = new char[0];

    static SSLContext context(Kubeconfig k) throws GeneralSecurityException {
        TrustManager[] trust = null;
        if (k.insecureSkipTlsVerify()) {
            trust = new TrustManager[] {new TrustAll()};
        } else if (k.caPem().isPresent()) {
            KeyStore ts = emptyStore();
            int i = 0;
            for (Certificate c : certificates(k.caPem().get())) {
                ts.setCertificateEntry("ca" + i++, c);
            }
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ts);
            trust = tmf.getTrustManagers();
        }
        KeyManager[] keys = null;
        if (k.clientCertPem().isPresent() && k.clientKeyPem().isPresent()) {
            List<Certificate> chain = certificates(k.clientCertPem().get());
            PrivateKey key = privateKey(k.clientKeyPem().get());
            requirePair(key, chain.get(0).getPublicKey());
            KeyStore ks = emptyStore();
            ks.setKeyEntry("client", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            keys = kmf.getKeyManagers();
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(keys, trust, null);
        return ctx;
    }

    private static KeyStore emptyStore() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try {
            store.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        return store;
    }

    static List<Certificate> certificates(byte[] pem) throws GeneralSecurityException {
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        List<Certificate> out =
                new ArrayList<>(cf.generateCertificates(new ByteArrayInputStream(pem)));
        if (out.isEmpty()) {
            throw new GeneralSecurityException("no certificate in PEM data");
        }
        return out;
    }

    /** The first private key among the PEM blocks; other blocks (EC parameters) are skipped. */
    static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser =
                new PEMParser(
                        new InputStreamReader(
                                new ByteArrayInputStream(pem), StandardCharsets.US_ASCII))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                    // client-go refuses them too: a kubeconfig has no field for the password.
                    throw new GeneralSecurityException("the private key is encrypted");
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new GeneralSecurityException("unreadable PEM private key: " + e.getMessage(), e);
        }
        throw new GeneralSecurityException("no private key in PEM data");
    }

    /**
     * Go's {@code tls.X509KeyPair} check, done by signing: the key must be the certificate's, or
     * every handshake would fail with a server's bare "bad certificate".
     */
    private static void requirePair(PrivateKey key, PublicKey certificateKey)
            throws GeneralSecurityException {
        String algorithm =
                switch (key.getAlgorithm()) {
                    case "RSA" -> "SHA256withRSA";
                    case "EC", "ECDSA" -> "SHA256withECDSA";
                    default -> key.getAlgorithm(); // Ed25519 signs without a digest name
                };
        byte[] probe = new byte[32];
        new SecureRandom().nextBytes(probe);
        boolean matches;
        try {
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(certificateKey);
            verify.update(probe);
            matches = verify.verify(signature);
        } catch (GeneralSecurityException e) {
            // A key of another algorithm than the certificate's.
            matches = false;
        }
        if (!matches) {
            throw new GeneralSecurityException(
                    "the client key does not match the client certificate's public key");
        }
    }

    /**
     * {@code insecure-skip-tls-verify}: any server certificate for any host name is accepted, as
     * client-go does then. Extended, so the JDK does not add its own host name check.
     */
    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(
                X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(
                X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
