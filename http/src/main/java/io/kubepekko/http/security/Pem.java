package io.kubepekko.http.security;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPrivateKey;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyInfoFactory;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * PEM text in the forms client-go's {@code keyutil} writes (kubeadm's files and kubeconfigs):
 * {@code CERTIFICATE} blocks, private keys as {@code RSA PRIVATE KEY} (PKCS#1) or {@code EC PRIVATE
 * KEY} (SEC 1, RFC 5915, naming its curve and carrying its public key), other private keys as
 * {@code PRIVATE KEY} (PKCS#8); public keys as {@code PUBLIC KEY}. Reading takes every one of them,
 * EC keys in PKCS#8 too (operators' {@code --tls-private-key-file}, data directories written
 * before).
 */
public final class Pem {
    private Pem() {}

    /** {@code objects} (certificates, keys) as PEM blocks, one after the other. */
    public static String encode(Object... objects) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (Object o : objects) {
                if (o instanceof ECPrivateKey key) {
                    writer.writeObject(sec1(key));
                } else if (o instanceof PrivateKey key && !key.getAlgorithm().equals("RSA")) {
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

    /**
     * {@code key} with its named curve and its public point (d·G), as Go's {@code
     * x509.MarshalECPrivateKey} writes it: the PEM writer then names it {@code EC PRIVATE KEY}.
     * Written from the JDK's own encoding, the SEC 1 structure would lack both, which Go refuses
     * (no curve) and Bouncy Castle's PEM parser, fabric8's, cannot make a key pair of (no point).
     */
    private static PrivateKeyInfo sec1(ECPrivateKey key) throws IOException {
        ASN1ObjectIdentifier curve =
                ASN1ObjectIdentifier.getInstance(
                        PrivateKeyInfo.getInstance(key.getEncoded())
                                .getPrivateKeyAlgorithm()
                                .getParameters());
        X9ECParameters parameters = ECNamedCurveTable.getByOID(curve);
        if (parameters == null) {
            throw new IOException("EC key on an unnamed curve " + curve);
        }
        return PrivateKeyInfoFactory.createPrivateKeyInfo(
                new ECPrivateKeyParameters(
                        key.getS(), new ECNamedDomainParameters(curve, parameters)));
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
}
