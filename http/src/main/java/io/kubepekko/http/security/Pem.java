package io.kubepekko.http.security;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * PEM text in the forms kube and kubectl read: {@code CERTIFICATE} blocks, and private keys as
 * {@code RSA PRIVATE KEY} (PKCS#1) or {@code PRIVATE KEY} (PKCS#8, for EC keys); public keys as
 * {@code PUBLIC KEY}. Reading takes {@code EC PRIVATE KEY} (SEC 1) too.
 */
public final class Pem {
    private Pem() {}

    /** {@code objects} (certificates, keys) as PEM blocks, one after the other. */
    public static String encode(Object... objects) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object o : objects) {
                if (o instanceof PrivateKey key && !key.getAlgorithm().equals("RSA")) {
                    // SEC 1 ("EC PRIVATE KEY") from the JDK's key would lack the curve: PKCS#8
                    // names it, and Go reads it.
                    writer.writeObject(new JcaPKCS8Generator(key, null));
                } else {
                    writer.writeObject(o);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Every certificate in {@code file}, in order. */
    public static List<X509Certificate> certificates(Path file) throws IOException {
        return certificates(Files.readString(file), file.toString());
    }

    /** Every certificate in {@code text}, in order; {@code source} names it in errors. */
    public static List<X509Certificate> certificates(String text, String source)
            throws IOException {
        List<X509Certificate> certs = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof X509CertificateHolder holder) {
                    certs.add(converter.getCertificate(holder));
                }
            }
        } catch (CertificateException e) {
            throw new IOException(source + ": " + e.getMessage(), e);
        }
        if (certs.isEmpty()) {
            throw new IOException(source + ": no PEM CERTIFICATE block");
        }
        return List.copyOf(certs);
    }

    /** The first private key in {@code file}. */
    public static PrivateKey privateKey(Path file) throws IOException {
        return privateKey(Files.readString(file), file.toString());
    }

    /** The first private key in {@code text}; {@code source} names it in errors. */
    public static PrivateKey privateKey(String text, String source) throws IOException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(text))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
            }
        }
        throw new IOException(source + ": no PEM private key block");
    }

    /** The key pair of the first PKCS#1 or SEC 1 private key in {@code file}. */
    static KeyPair keyPair(Path file) throws IOException {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = new PEMParser(new StringReader(Files.readString(file)))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair) {
                    return converter.getKeyPair(pair);
                }
            }
        }
        throw new IOException(file + ": no PEM RSA or EC private key block");
    }
}
