package io.kubepekko.http.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.CertificateLifetimes;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.X509Authenticator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PkiTest {

    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
    private static final ServingNames NAMES =
            ServingNames.of("node-1", Optional.empty(), "10.0.0.1");

    @TempDir Path dataDir;

    private static Clock at(Instant t) {
        return Clock.fixed(t, ZoneOffset.UTC);
    }

    private Pki.Material prepare(ServingNames names, Instant now) throws Exception {
        return Pki.prepare(dataDir, SecureServing.generated(), names, at(now));
    }

    @Test
    void theFirstStartCreatesTheCasTheServingAndAdminCertificatesAndTheSigningKeyOwnerOnly()
            throws Exception {
        prepare(NAMES, NOW);

        Path pki = dataDir.resolve(Pki.DIRECTORY);
        assertEquals(
                "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pki)));
        List<String> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(pki)) {
            for (Path f : (Iterable<Path>) list::iterator) {
                files.add(f.getFileName().toString());
                assertEquals(
                        "rw-------",
                        PosixFilePermissions.toString(Files.getPosixFilePermissions(f)),
                        f.toString());
            }
        }
        assertEquals(
                List.of(
                        "client-admin.crt",
                        "client-admin.key",
                        "client-ca.crt",
                        "client-ca.key",
                        "sa.key",
                        "sa.pub",
                        "server-ca.crt",
                        "server-ca.key",
                        "serving-kube-apiserver.crt",
                        "serving-kube-apiserver.key"),
                files.stream().sorted().toList());
        // PEM as kube's --service-account-signing-key-file / --service-account-key-file read it.
        assertTrue(
                Files.readString(pki.resolve("sa.key"))
                        .startsWith("-----BEGIN RSA PRIVATE KEY-----"));
        assertTrue(
                Files.readString(pki.resolve("sa.pub")).startsWith("-----BEGIN PUBLIC KEY-----"));
        // EC keys as client-go's keyutil writes them, which every client reads (fabric8 too).
        for (String key :
                List.of(
                        "client-admin.key",
                        "client-ca.key",
                        "server-ca.key",
                        "serving-kube-apiserver.key")) {
            assertTrue(
                    Files.readString(pki.resolve(key)).startsWith("-----BEGIN EC PRIVATE KEY-----"),
                    key);
        }
    }

    @Test
    void pkcs8KeysOfAnEarlierStartOrOfOpensslAreReused() throws Exception {
        CertificateIssuer.Issued ca =
                CertificateIssuer.selfSignedCa("earlier-ca", NOW, CertificateLifetimes.CA);
        KeyPair sa = CertificateIssuer.rsaKey();
        Path pki = dataDir.resolve(Pki.DIRECTORY);
        Files.createDirectories(pki);
        Files.writeString(
                pki.resolve("server-ca.key"), PemTest.pem("PRIVATE KEY", ca.key().getEncoded()));
        Files.writeString(pki.resolve("server-ca.crt"), Pem.encode(ca.certificate()));
        // openssl genpkey's form, and no sa.pub: it is derived from the key.
        Files.writeString(
                pki.resolve("sa.key"), PemTest.pem("PRIVATE KEY", sa.getPrivate().getEncoded()));

        Pki.Material m = prepare(NAMES, NOW);

        assertEquals(ca.certificate(), m.serverCa());
        m.servingChain().get(0).verify(ca.certificate().getPublicKey());
        assertEquals(
                List.of(sa.getPublic()), ServiceAccountKeyFiles.publicKeys(pki.resolve("sa.pub")));
    }

    @Test
    void theServingCertificateCarriesEveryNameAndIsSignedByTheServerCaForTenAndOneYears()
            throws Exception {
        Pki.Material m = prepare(NAMES, NOW);

        X509Certificate serving = m.servingChain().get(0);
        serving.verify(m.serverCa().getPublicKey());
        assertTrue(Pki.covers(serving, NAMES));
        List<String> sans = new ArrayList<>();
        for (List<?> san : serving.getSubjectAlternativeNames()) {
            sans.add(String.valueOf(san.get(1)));
        }
        assertTrue(
                sans.containsAll(
                        List.of(
                                "localhost",
                                "node-1",
                                "kubernetes",
                                "kubernetes.default",
                                "kubernetes.default.svc",
                                "kubernetes.default.svc.cluster.local",
                                "127.0.0.1",
                                "10.0.0.1")),
                sans.toString());
        assertTrue(serving.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"));
        assertEquals(NOW.plus(CertificateLifetimes.LEAF), serving.getNotAfter().toInstant());
        assertEquals(NOW.plus(CertificateLifetimes.CA), m.serverCa().getNotAfter().toInstant());
    }

    @Test
    void theAdminCertificateAuthenticatesAsAMemberOfSystemMastersAgainstTheClientCa()
            throws Exception {
        Pki.Material m = prepare(NAMES, NOW);

        X509Certificate admin = m.admin().orElseThrow().certificate();
        Authentication a =
                new X509Authenticator(m.clientCas(), at(NOW.plus(Duration.ofDays(1))))
                        .authenticate(new Credentials(List.of(admin), Optional.empty(), false));

        UserInfo user = assertInstanceOf(Authentication.Authenticated.class, a).user();
        assertEquals(Pki.ADMIN_USER, user.name());
        assertEquals(List.of(UserInfo.MASTERS), user.groups());
        // The server CA does not make a client: the two CAs are apart.
        assertInstanceOf(
                Authentication.Rejected.class,
                new X509Authenticator(List.of(m.serverCa()), at(NOW))
                        .authenticate(new Credentials(List.of(admin), Optional.empty(), false)));
    }

    @Test
    void aSecondStartReusesEveryCertificateAndKey() throws Exception {
        Pki.Material first = prepare(NAMES, NOW);
        String saKey = Files.readString(first.serviceAccountKey());

        Pki.Material second = prepare(NAMES, NOW.plus(Duration.ofDays(30)));

        assertEquals(first.serverCa(), second.serverCa());
        assertEquals(first.clientCas(), second.clientCas());
        assertEquals(first.servingChain(), second.servingChain());
        assertEquals(
                first.admin().orElseThrow().certificate(),
                second.admin().orElseThrow().certificate());
        assertEquals(saKey, Files.readString(second.serviceAccountKey()));
    }

    @Test
    void aNewAdvertiseAddressReissuesTheServingCertificateFromTheSameCa() throws Exception {
        Pki.Material first = prepare(NAMES, NOW);
        ServingNames moved = ServingNames.of("node-1", Optional.of("192.168.7.7"), "10.0.0.1");

        Pki.Material second = prepare(moved, NOW.plus(Duration.ofDays(1)));

        assertEquals(first.serverCa(), second.serverCa());
        assertNotEquals(first.servingChain(), second.servingChain());
        assertTrue(Pki.covers(second.servingChain().get(0), moved));
        second.servingChain().get(0).verify(first.serverCa().getPublicKey());
        assertEquals(
                first.admin().orElseThrow().certificate(),
                second.admin().orElseThrow().certificate());
    }

    @Test
    void certificatesWithinNinetyDaysOfTheirEndAreRenewedFromTheSameCas() throws Exception {
        Pki.Material first = prepare(NAMES, NOW);

        Pki.Material later = prepare(NAMES, NOW.plus(Duration.ofDays(300)));

        assertEquals(first.serverCa(), later.serverCa());
        assertNotEquals(first.servingChain(), later.servingChain());
        assertNotEquals(
                first.admin().orElseThrow().certificate(),
                later.admin().orElseThrow().certificate());
        assertEquals(
                NOW.plus(Duration.ofDays(300)).plus(CertificateLifetimes.LEAF),
                later.servingChain().get(0).getNotAfter().toInstant());
    }

    @Test
    void theOperatorsClientCaReplacesTheGeneratedOneAndTheKubeconfigGetsNoClientCertificate()
            throws Exception {
        CertificateIssuer.Issued own =
                CertificateIssuer.selfSignedCa("operator-ca", NOW, CertificateLifetimes.CA);
        Path file = dataDir.resolve("operator-ca.crt");
        Files.writeString(file, Pem.encode(own.certificate()));
        SecureServing flags =
                new SecureServing(
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(file),
                        TlsVersion.TLS12,
                        List.of(),
                        Optional.empty(),
                        AccessSettings.DEFAULT);

        Pki.Material m = Pki.prepare(dataDir, flags, NAMES, at(NOW));

        assertEquals(List.of(own.certificate()), m.clientCas());
        assertTrue(m.admin().isEmpty());
    }

    @Test
    void kubesCipherSuiteNamesParseAndAnUnknownOneIsRefusedInKubesWords() throws Exception {
        assertEquals(
                List.of(
                        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
                CipherSuites.parse(
                        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305"));
        CipherSuites.Unknown e =
                assertThrows(CipherSuites.Unknown.class, () -> CipherSuites.parse("TLS_NOPE"));
        assertEquals("Cipher suite TLS_NOPE not supported or doesn't exist", e.getMessage());
    }
}
