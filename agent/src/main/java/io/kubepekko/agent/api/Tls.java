package io.kubepekko.agent.api;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * The JDK {@link SSLContext} for a kubeconfig: its CA as the only trust anchors (or the JDK's when
 * it has none), its client certificate and key as the client identity. Keys in PKCS#8 ({@code
 * PRIVATE KEY}) or PKCS#1 RSA ({@code RSA PRIVATE KEY}, what kubeadm writes); SEC1 EC keys are
 * refused with a message.
 */
final class Tls {
    private Tls() {}

    private static final Pattern PEM =
            Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");
    private static final char[] NO_PASSWORD = new char[0];

    static SSLContext context(Kubeconfig k) throws GeneralSecurityException {
        TrustManager[] trust = null;
        if (k.insecureSkipTlsVerify()) {
            trust = new TrustManager[] {new TrustAll()};
        } else if (k.caPem().isPresent()) {
            KeyStore ts = KeyStore.getInstance("PKCS12");
            try {
                ts.load(null, null);
            } catch (IOException e) {
                throw new GeneralSecurityException(e);
            }
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
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try {
                ks.load(null, null);
            } catch (IOException e) {
                throw new GeneralSecurityException(e);
            }
            List<Certificate> chain = certificates(k.clientCertPem().get());
            ks.setKeyEntry(
                    "client",
                    privateKey(k.clientKeyPem().get()),
                    NO_PASSWORD,
                    chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            keys = kmf.getKeyManagers();
        }
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(keys, trust, null);
        return ctx;
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

    static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException {
        Matcher m = PEM.matcher(new String(pem, StandardCharsets.US_ASCII));
        while (m.find()) {
            String type = m.group(1);
            byte[] der = Base64.getMimeDecoder().decode(m.group(2).replaceAll("\\s", ""));
            switch (type) {
                case "PRIVATE KEY" -> {
                    return pkcs8(der);
                }
                case "RSA PRIVATE KEY" -> {
                    return KeyFactory.getInstance("RSA")
                            .generatePrivate(new PKCS8EncodedKeySpec(wrapPkcs1(der)));
                }
                case "EC PRIVATE KEY" ->
                        throw new GeneralSecurityException(
                                "EC private keys in SEC1 form are not supported; convert with: openssl pkcs8 -topk8 -nocrypt");
                default -> {
                    // Parameters and other blocks: look further.
                }
            }
        }
        throw new GeneralSecurityException("no private key in PEM data");
    }

    private static PrivateKey pkcs8(byte[] der) throws GeneralSecurityException {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String alg : new String[] {"RSA", "EC", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException e) {
                // Not this algorithm.
            }
        }
        throw new GeneralSecurityException("unsupported PKCS#8 private key");
    }

    /**
     * A PKCS#1 RSAPrivateKey inside a PKCS#8 PrivateKeyInfo (version 0, rsaEncryption, NULL
     * params).
     */
    static byte[] wrapPkcs1(byte[] pkcs1) {
        byte[] algorithm = {
            0x30,
            0x0d,
            0x06,
            0x09,
            0x2a,
            (byte) 0x86,
            0x48,
            (byte) 0x86,
            (byte) 0xf7,
            0x0d,
            0x01,
            0x01,
            0x01,
            0x05,
            0x00
        };
        byte[] version = {0x02, 0x01, 0x00};
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(version);
        body.writeBytes(algorithm);
        body.write(0x04);
        body.writeBytes(derLength(pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x30);
        out.writeBytes(derLength(body.size()));
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static byte[] derLength(int n) {
        if (n < 0x80) {
            return new byte[] {(byte) n};
        }
        if (n < 0x100) {
            return new byte[] {(byte) 0x81, (byte) n};
        }
        if (n < 0x10000) {
            return new byte[] {(byte) 0x82, (byte) (n >> 8), (byte) n};
        }
        return new byte[] {(byte) 0x83, (byte) (n >> 16), (byte) (n >> 8), (byte) n};
    }

    /**
     * {@code insecure-skip-tls-verify}: any server certificate is accepted, as client-go does then.
     */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
