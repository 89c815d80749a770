package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;

class X509AuthenticatorTest {

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private record Issued(X509Certificate cert, PrivateKey key) {}

    private static final Issued CA = ca("client-ca");
    private static final Issued OTHER_CA = ca("other-ca");
    private static final X509Authenticator AUTHENTICATOR =
            new X509Authenticator(List.of(CA.cert()), CLOCK);

    @Test
    void aClientCertificateOfTheClientCaNamesTheUserByCnAndTheGroupsByO() {
        Issued alice =
                leaf(
                        CA,
                        "alice",
                        List.of("dev", "ops"),
                        Optional.of(KeyPurposeId.id_kp_clientAuth),
                        NOW);

        Authentication a = AUTHENTICATOR.authenticate(presenting(alice.cert()));

        Authentication.Authenticated ok = assertInstanceOf(Authentication.Authenticated.class, a);
        assertEquals("alice", ok.user().name());
        assertEquals(List.of("dev", "ops"), ok.user().groups());
    }

    /**
     * A chain verified once is remembered, but only while every certificate of its path is valid:
     * the same chain a year and a day later is rejected as expired, as a first look would.
     */
    @Test
    void aRememberedChainIsRejectedOnceItsValidityEnds() {
        AtomicReference<Instant> now = new AtomicReference<>(NOW);
        Clock moving =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return now.get();
                    }
                };
        X509Authenticator authenticator = new X509Authenticator(List.of(CA.cert()), moving);
        Issued alice = leaf(CA, "alice", List.of("dev"), Optional.empty(), NOW);
        for (int i = 0; i < 2; i++) {
            Authentication.Authenticated ok =
                    assertInstanceOf(
                            Authentication.Authenticated.class,
                            authenticator.authenticate(presenting(alice.cert())));
            assertEquals("alice", ok.user().name());
            assertEquals(List.of("dev"), ok.user().groups());
        }
        now.set(NOW.plus(Duration.ofDays(366)));
        assertInstanceOf(
                Authentication.Rejected.class,
                authenticator.authenticate(presenting(alice.cert())));
        now.set(NOW.minus(Duration.ofDays(1)));
        assertInstanceOf(
                Authentication.Rejected.class,
                authenticator.authenticate(presenting(alice.cert())));
    }

    /** Only chains that authenticated are remembered: a rejected one is rejected every time. */
    @Test
    void aRejectedChainStaysRejected() {
        Issued stranger = leaf(OTHER_CA, "mallory", List.of(), Optional.empty(), NOW);
        for (int i = 0; i < 2; i++) {
            assertInstanceOf(
                    Authentication.Rejected.class,
                    AUTHENTICATOR.authenticate(presenting(stranger.cert())));
        }
    }

    @Test
    void aRequestWithoutACertificateIsNotPresented() {
        assertInstanceOf(
                Authentication.NotPresented.class, AUTHENTICATOR.authenticate(Credentials.none()));
    }

    @Test
    void withoutClientCasNoCertificateAuthenticatesAsKubeWithAnEmptyBundle() {
        Issued alice = leaf(CA, "alice", List.of(), Optional.empty(), NOW);
        assertInstanceOf(
                Authentication.NotPresented.class,
                new X509Authenticator(List.of(), CLOCK).authenticate(presenting(alice.cert())));
    }

    @Test
    void anExpiredCertificateIsRejected() {
        Issued old =
                leaf(CA, "alice", List.of(), Optional.empty(), NOW.minus(Duration.ofDays(400)));
        Authentication.Rejected r =
                assertInstanceOf(
                        Authentication.Rejected.class,
                        AUTHENTICATOR.authenticate(presenting(old.cert())));
        assertEquals(
                true,
                r.reason().contains("certificate has expired or is not yet valid"),
                r.reason());
    }

    @Test
    void aCertificateNotValidYetIsRejected() {
        Issued future =
                leaf(CA, "alice", List.of(), Optional.empty(), NOW.plus(Duration.ofDays(2)));
        assertInstanceOf(
                Authentication.Rejected.class,
                AUTHENTICATOR.authenticate(presenting(future.cert())));
    }

    @Test
    void aCertificateOfAnotherCaIsRejected() {
        Issued mallory =
                leaf(OTHER_CA, "mallory", List.of(UserInfo.MASTERS), Optional.empty(), NOW);
        Authentication.Rejected r =
                assertInstanceOf(
                        Authentication.Rejected.class,
                        AUTHENTICATOR.authenticate(presenting(mallory.cert())));
        assertEquals(true, r.reason().contains("unknown authority"), r.reason());
    }

    @Test
    void aServerOnlyCertificateIsRejectedForClientAuth() {
        Issued server =
                leaf(CA, "alice", List.of(), Optional.of(KeyPurposeId.id_kp_serverAuth), NOW);
        Authentication.Rejected r =
                assertInstanceOf(
                        Authentication.Rejected.class,
                        AUTHENTICATOR.authenticate(presenting(server.cert())));
        assertEquals(true, r.reason().contains("incompatible key usage"), r.reason());
    }

    @Test
    void aCertificateWithoutExtendedKeyUsageOrWithAnyUsageAuthenticatesAsInGo() {
        Issued none = leaf(CA, "bob", List.of(), Optional.empty(), NOW);
        Issued any =
                leaf(CA, "carol", List.of(), Optional.of(KeyPurposeId.anyExtendedKeyUsage), NOW);
        assertInstanceOf(
                Authentication.Authenticated.class,
                AUTHENTICATOR.authenticate(presenting(none.cert())));
        assertInstanceOf(
                Authentication.Authenticated.class,
                AUTHENTICATOR.authenticate(presenting(any.cert())));
    }

    @Test
    void aChainThroughAnIntermediateOfTheClientCaAuthenticates() {
        Issued intermediate = intermediate(CA, "intermediate");
        Issued dave = leaf(intermediate, "dave", List.of("g"), Optional.empty(), NOW);
        Authentication a =
                AUTHENTICATOR.authenticate(
                        new Credentials(
                                List.of(dave.cert(), intermediate.cert()),
                                Optional.empty(),
                                false));
        assertEquals("dave", assertInstanceOf(Authentication.Authenticated.class, a).user().name());
    }

    @Test
    void aVerifiedCertificateWithoutCommonNameAuthenticatesNobodyWithoutRejecting() {
        Issued nameless = leaf(CA, "", List.of("g"), Optional.empty(), NOW);
        assertInstanceOf(
                Authentication.NotPresented.class,
                AUTHENTICATOR.authenticate(presenting(nameless.cert())));
    }

    private static Credentials presenting(X509Certificate leaf) {
        return new Credentials(List.of(leaf), Optional.empty(), false);
    }

    private static KeyPair key() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return g.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static X500Name name(String cn, List<String> orgs) {
        X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
        orgs.forEach(o -> b.addRDN(BCStyle.O, o));
        if (!cn.isEmpty()) {
            b.addRDN(BCStyle.CN, cn);
        }
        return b.build();
    }

    private static Issued ca(String cn) {
        KeyPair k = key();
        X500Name n = name(cn, List.of());
        return new Issued(
                sign(
                        n,
                        n,
                        k,
                        k.getPrivate(),
                        NOW.minus(Duration.ofDays(30)),
                        b -> {
                            b.addExtension(
                                    Extension.basicConstraints, true, new BasicConstraints(true));
                            b.addExtension(
                                    Extension.keyUsage,
                                    true,
                                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                        }),
                k.getPrivate());
    }

    private static Issued intermediate(Issued ca, String cn) {
        KeyPair k = key();
        return new Issued(
                sign(
                        name(cn, List.of()),
                        X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()),
                        k,
                        ca.key(),
                        NOW.minus(Duration.ofDays(10)),
                        b -> {
                            b.addExtension(
                                    Extension.basicConstraints, true, new BasicConstraints(true));
                            b.addExtension(
                                    Extension.keyUsage,
                                    true,
                                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                        }),
                k.getPrivate());
    }

    /** A leaf valid for a year from {@code from}. */
    private static Issued leaf(
            Issued ca, String cn, List<String> orgs, Optional<KeyPurposeId> usage, Instant from) {
        KeyPair k = key();
        return new Issued(
                sign(
                        name(cn, orgs),
                        X500Name.getInstance(ca.cert().getSubjectX500Principal().getEncoded()),
                        k,
                        ca.key(),
                        from,
                        b -> {
                            if (usage.isPresent()) {
                                b.addExtension(
                                        Extension.extendedKeyUsage,
                                        false,
                                        new ExtendedKeyUsage(usage.get()));
                            }
                        }),
                k.getPrivate());
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder b) throws Exception;
    }

    private static X509Certificate sign(
            X500Name subject,
            X500Name issuer,
            KeyPair subjectKey,
            PrivateKey issuerKey,
            Instant from,
            Extensions extensions) {
        try {
            X509v3CertificateBuilder b =
                    new JcaX509v3CertificateBuilder(
                            issuer,
                            BigInteger.valueOf(System.nanoTime()),
                            Date.from(from),
                            Date.from(from.plus(Duration.ofDays(365))),
                            subject,
                            subjectKey.getPublic());
            extensions.add(b);
            return new JcaX509CertificateConverter()
                    .getCertificate(
                            b.build(
                                    new JcaContentSignerBuilder("SHA256withECDSA")
                                            .build(issuerKey)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
