package io.kubepekko.http.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.serviceaccount.BoundObjects;
import io.kubepekko.api.auth.serviceaccount.ObjectRef;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountClaims;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenAuthenticator;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenIssuer;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServiceAccountKeyFilesTest {

    private static final KeyPair RSA = generate("RSA");
    private static final KeyPair EC = generate("EC");

    @TempDir Path dir;

    private static KeyPair generate(String alg) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance(alg);
            if (alg.equals("EC")) {
                g.initialize(new ECGenParameterSpec("secp256r1"));
            } else {
                g.initialize(2048);
            }
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path write(String name, Object... objects) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
            for (Object o : objects) {
                pem.writeObject(o);
            }
        }
        Path file = dir.resolve(name);
        Files.writeString(file, text.toString());
        return file;
    }

    private static Object pkcs8(KeyPair pair) throws Exception {
        return new JcaPKCS8Generator(pair.getPrivate(), null).generate();
    }

    @Test
    void readsTheSigningKeyInPkcs1Sec1AndPkcs8() throws Exception {
        // JcaPEMWriter writes an RSA KeyPair as "RSA PRIVATE KEY" (PKCS#1).
        assertEquals(
                RSA.getPublic(),
                ServiceAccountKeyFiles.signingKey(write("rsa1.key", RSA)).getPublic());
        assertEquals(
                EC.getPublic(),
                ServiceAccountKeyFiles.signingKey(write("ec1.key", sec1(true))).getPublic());
        assertEquals(
                EC.getPublic(),
                ServiceAccountKeyFiles.signingKey(write("ec0.key", sec1(false))).getPublic());
        assertEquals(
                RSA.getPublic(),
                ServiceAccountKeyFiles.signingKey(write("rsa8.key", pkcs8(RSA))).getPublic());
        assertEquals(
                EC.getPublic(),
                ServiceAccountKeyFiles.signingKey(write("ec8.key", pkcs8(EC))).getPublic());
    }

    @Test
    void readsEveryPublicKeyOfEveryFileIncludingPrivateKeysAndCertificates() throws Exception {
        Path a = write("a.pem", RSA.getPublic(), certificate(EC));
        Path b = write("b.pem", pkcs8(RSA));
        List<PublicKey> keys = ServiceAccountKeyFiles.publicKeys(List.of(a, b));
        assertEquals(List.of(RSA.getPublic(), EC.getPublic(), RSA.getPublic()), keys);
    }

    @Test
    void refusesAFileWithoutKeysWithKubesMessage() throws Exception {
        Path empty = dir.resolve("empty.pem");
        Files.writeString(empty, "not pem at all\n");
        ServiceAccountKeyFiles.KeyFileException e =
                assertThrows(
                        ServiceAccountKeyFiles.KeyFileException.class,
                        () -> ServiceAccountKeyFiles.publicKeys(empty));
        assertEquals(
                "error reading public key file "
                        + empty
                        + ": data does not contain any valid RSA or ECDSA public keys",
                e.getMessage());
        Path onlyPublic = write("pub.pem", RSA.getPublic());
        assertThrows(
                ServiceAccountKeyFiles.KeyFileException.class,
                () -> ServiceAccountKeyFiles.signingKey(onlyPublic));
    }

    @Test
    void refusesAMissingFileInGosWords() {
        Path missing = dir.resolve("missing.pem");
        assertEquals(
                "open " + missing + ": no such file or directory",
                assertThrows(
                                ServiceAccountKeyFiles.KeyFileException.class,
                                () -> ServiceAccountKeyFiles.publicKeys(missing))
                        .getMessage());
        assertEquals(
                "open " + missing + ": no such file or directory",
                assertThrows(
                                ServiceAccountKeyFiles.KeyFileException.class,
                                () -> ServiceAccountKeyFiles.signingKey(missing))
                        .getMessage());
    }

    @Test
    void aTokenSignedWithTheSigningFileVerifiesWithTheKeyFile() throws Exception {
        KeyPair signing = ServiceAccountKeyFiles.signingKey(write("sa.key", pkcs8(EC)));
        List<PublicKey> verify = ServiceAccountKeyFiles.publicKeys(write("sa.pub", EC.getPublic()));
        Instant now = Instant.parse("2026-11-29T08:00:00Z");
        String token =
                new ServiceAccountTokenIssuer("https://issuer", signing)
                        .issue(
                                ServiceAccountClaims.of(
                                        "ns",
                                        new ObjectRef("sa", "u"),
                                        new ServiceAccountClaims.Unbound(),
                                        List.of("https://issuer"),
                                        now,
                                        Duration.ofHours(1),
                                        Duration.ZERO,
                                        ""));
        Authentication a =
                new ServiceAccountTokenAuthenticator(
                                List.of("https://issuer"),
                                verify,
                                List.of("https://issuer"),
                                BoundObjects.of(
                                        Map.of(
                                                BoundObjects.key(
                                                        BoundObjects.Kind.SERVICE_ACCOUNT,
                                                        "ns",
                                                        "sa"),
                                                BoundObjects.Live.of("u"))),
                                InstantSource.fixed(now))
                        .authenticateToken(token, List.of());
        assertTrue(a instanceof Authentication.Authenticated, a.toString());
    }

    // "EC PRIVATE KEY" as openssl writes it: curve parameters, with or without the public point.
    private static PemObject sec1(boolean withPublic) throws Exception {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(EC.getPrivate().getEncoded());
        SubjectPublicKeyInfo pub = SubjectPublicKeyInfo.getInstance(EC.getPublic().getEncoded());
        BigInteger d = ECPrivateKey.getInstance(info.parsePrivateKey()).getKey();
        ASN1Encodable params = pub.getAlgorithm().getParameters();
        ECPrivateKey key =
                withPublic
                        ? new ECPrivateKey(256, d, pub.getPublicKeyData(), params)
                        : new ECPrivateKey(256, d, params);
        return new PemObject("EC PRIVATE KEY", key.getEncoded());
    }

    private static Object certificate(KeyPair pair) throws Exception {
        X500Name name = new X500Name("CN=sa");
        return new JcaX509v3CertificateBuilder(
                        name,
                        BigInteger.ONE,
                        new Date(0),
                        new Date(4_000_000_000_000L),
                        name,
                        pair.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate()));
    }
}
