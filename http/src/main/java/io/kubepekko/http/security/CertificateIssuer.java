package io.kubepekko.http.security;

import io.kubepekko.api.auth.ServingNames;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues the X.509 certificates of the server's PKI with Bouncy Castle: self-signed CAs, serving
 * certificates with their subject alternative names, client certificates whose subject names a user
 * (CN) and groups (O). Keys are ECDSA P-256, as k3s issues them. Every certificate starts an hour
 * before it is issued, so a client whose clock is a little behind accepts it.
 */
public final class CertificateIssuer {
    private CertificateIssuer() {}

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration BACKDATE = Duration.ofHours(1);

    /** A certificate and its private key. */
    public record Issued(X509Certificate certificate, PrivateKey key) {}

    /** What a leaf certificate is for. */
    public enum Usage {
        SERVER(KeyPurposeId.id_kp_serverAuth),
        CLIENT(KeyPurposeId.id_kp_clientAuth);

        private final KeyPurposeId purpose;

        Usage(KeyPurposeId purpose) {
            this.purpose = purpose;
        }
    }

    /** A new ECDSA P-256 key pair. */
    public static KeyPair ecKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers ECDSA P-256", e);
        }
    }

    /** A new RSA 2048 key pair. */
    public static KeyPair rsaKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048, RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers RSA", e);
        }
    }

    /** A subject with common name {@code cn} and organizations {@code orgs}. */
    public static X500Name subject(String cn, List<String> orgs) {
        X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
        for (String o : orgs) {
            b.addRDN(BCStyle.O, o);
        }
        b.addRDN(BCStyle.CN, cn);
        return b.build();
    }

    /** A self-signed CA named {@code cn}, valid from {@code now} for {@code validity}. */
    public static Issued selfSignedCa(String cn, Instant now, Duration validity) {
        KeyPair key = ecKey();
        X500Name name = subject(cn, List.of());
        return new Issued(
                build(
                        name,
                        key.getPublic(),
                        name,
                        key.getPrivate(),
                        null,
                        now,
                        validity,
                        b -> {
                            b.addExtension(
                                    Extension.basicConstraints, true, new BasicConstraints(true));
                            b.addExtension(
                                    Extension.keyUsage,
                                    true,
                                    new KeyUsage(
                                            KeyUsage.keyCertSign
                                                    | KeyUsage.cRLSign
                                                    | KeyUsage.digitalSignature));
                        }),
                key.getPrivate());
    }

    /**
     * A leaf certificate for {@code subject}, signed by {@code ca}, for {@code usage}, with {@code
     * names} as its subject alternative names (none for a client).
     */
    public static Issued leaf(
            Issued ca,
            X500Name subject,
            Usage usage,
            ServingNames names,
            Instant now,
            Duration validity) {
        KeyPair key = ecKey();
        X500Name issuer =
                X500Name.getInstance(ca.certificate().getSubjectX500Principal().getEncoded());
        return new Issued(
                build(
                        subject,
                        key.getPublic(),
                        issuer,
                        ca.key(),
                        ca.certificate(),
                        now,
                        validity,
                        b -> {
                            b.addExtension(
                                    Extension.basicConstraints, true, new BasicConstraints(false));
                            b.addExtension(
                                    Extension.keyUsage,
                                    true,
                                    new KeyUsage(
                                            KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
                            b.addExtension(
                                    Extension.extendedKeyUsage,
                                    false,
                                    new ExtendedKeyUsage(usage.purpose));
                            GeneralNames sans = generalNames(names);
                            if (sans != null) {
                                b.addExtension(Extension.subjectAlternativeName, false, sans);
                            }
                        }),
                key.getPrivate());
    }

    /** Adds a certificate's extensions. */
    @FunctionalInterface
    private interface Extensions {
        void add(X509v3CertificateBuilder builder) throws CertIOException;
    }

    private static X509Certificate build(
            X500Name subject,
            PublicKey publicKey,
            X500Name issuer,
            PrivateKey signingKey,
            X509Certificate issuerCert,
            Instant now,
            Duration validity,
            Extensions extensions) {
        try {
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            X509v3CertificateBuilder b =
                    new JcaX509v3CertificateBuilder(
                            issuer,
                            new BigInteger(127, RANDOM).add(BigInteger.ONE),
                            Date.from(now.minus(BACKDATE)),
                            Date.from(now.plus(validity)),
                            subject,
                            publicKey);
            b.addExtension(
                    Extension.subjectKeyIdentifier,
                    false,
                    utils.createSubjectKeyIdentifier(publicKey));
            if (issuerCert != null) {
                b.addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        utils.createAuthorityKeyIdentifier(issuerCert));
            }
            extensions.add(b);
            String algorithm =
                    signingKey.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(new JcaContentSignerBuilder(algorithm).build(signingKey)));
        } catch (GeneralSecurityException | CertIOException | OperatorCreationException e) {
            throw new IllegalStateException("issuing a certificate for " + subject, e);
        }
    }

    private static GeneralNames generalNames(ServingNames names) {
        List<GeneralName> all = new ArrayList<>();
        for (String dns : names.dnsNames()) {
            all.add(new GeneralName(GeneralName.dNSName, dns));
        }
        for (String ip : names.ipAddresses()) {
            all.add(new GeneralName(GeneralName.iPAddress, ip));
        }
        return all.isEmpty() ? null : new GeneralNames(all.toArray(GeneralName[]::new));
    }

    /** The address of an IP literal, without a name lookup. */
    static InetAddress literal(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + ip, e);
        }
    }
}
