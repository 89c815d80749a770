package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubepekko.http.security.SecureServing;
import io.kubepekko.http.security.TlsVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The secure port's flags, as kube-apiserver names and checks them. */
class SecureServingFlagsTest {

    private static ApiServerSettings settings(String... args) throws ApiServerFlags.UsageException {
        return ApiServerFlags.parse(args, new Properties()).settings();
    }

    private static String error(String... args) {
        return assertThrows(
                        ApiServerFlags.UsageException.class,
                        () -> ApiServerFlags.parse(args, new Properties()))
                .getMessage();
    }

    @Test
    void httpsOnTheSecurePortIsTheOnlyListenerOnEveryInterfaceByDefault() throws Exception {
        ApiServerSettings s = settings();
        assertEquals(6443, s.port());
        assertEquals("0.0.0.0", s.bindAddress());
        assertEquals(
                "unknown flag: --port", error("--port=8080").lines().findFirst().orElseThrow());
    }

    @Test
    void theSecurePortAndItsTlsFlagsAreRead() throws Exception {
        SecureServing s =
                settings(
                                "--secure-port=0",
                                "--advertise-address=192.168.1.5",
                                "--tls-cert-file=/etc/k/tls.crt",
                                "--tls-private-key-file=/etc/k/tls.key",
                                "--client-ca-file=/etc/k/ca.crt",
                                "--tls-min-version=VersionTLS13",
                                "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256")
                        .secure();
        assertEquals(Optional.of("192.168.1.5"), s.advertiseAddress());
        assertEquals(Optional.of(Path.of("/etc/k/tls.crt")), s.certFile());
        assertEquals(Optional.of(Path.of("/etc/k/tls.key")), s.keyFile());
        assertEquals(Optional.of(Path.of("/etc/k/ca.crt")), s.clientCaFile());
        assertEquals(TlsVersion.TLS13, s.minVersion());
        assertEquals(
                List.of("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
                s.cipherSuites());
    }

    @Test
    void theDefaultsAreTls12AndTheJdksCipherSuites() throws Exception {
        SecureServing s = settings("--secure-port", "6443").secure();
        assertEquals(TlsVersion.TLS12, s.minVersion());
        assertEquals(List.of(), s.cipherSuites());
    }

    @Test
    void anUnknownCipherSuiteOrTlsVersionIsAOneLineUsageError() {
        assertEquals(
                "invalid argument \"TLS_NOPE\" for \"--tls-cipher-suites\" flag: Cipher suite TLS_NOPE"
                        + " not supported or doesn't exist",
                error("--secure-port=0", "--tls-cipher-suites=TLS_NOPE"));
        assertEquals(
                "invalid argument \"TLS1.2\" for \"--tls-min-version\" flag: unknown tls version"
                        + " \"TLS1.2\"",
                error("--secure-port=0", "--tls-min-version=TLS1.2"));
    }

    @Test
    void aCertificateWithoutItsKeyIsRefused() {
        assertEquals(
                "--tls-cert-file and --tls-private-key-file must be given together",
                error("--secure-port=0", "--tls-cert-file=/etc/k/tls.crt"));
    }
}
