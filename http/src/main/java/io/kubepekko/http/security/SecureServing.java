package io.kubepekko.http.security;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The secure port's flags, as kube-apiserver names them. Without {@code --tls-cert-file} the server
 * serves a certificate of its own CA under the data directory; without {@code --client-ca-file} it
 * trusts the client CA it generated there (which signed the admin kubeconfig's certificate).
 *
 * @param certFile {@code --tls-cert-file}: the serving certificate, then its intermediates (PEM)
 * @param keyFile {@code --tls-private-key-file}: its private key (PEM)
 * @param clientCaFile {@code --client-ca-file}: the CAs client certificates are verified against
 * @param minVersion {@code --tls-min-version}
 * @param cipherSuites {@code --tls-cipher-suites}, IANA names; empty: the JDK's defaults
 * @param advertiseAddress {@code --advertise-address}: the IP members of the cluster reach this
 *     server at, a name of the generated serving certificate
 * @param access who may do what through the secure port (authentication and authorization)
 */
public record SecureServing(
        Optional<Path> certFile,
        Optional<Path> keyFile,
        Optional<Path> clientCaFile,
        TlsVersion minVersion,
        List<String> cipherSuites,
        Optional<String> advertiseAddress,
        AccessSettings access) {

    public SecureServing {
        cipherSuites = List.copyOf(cipherSuites);
        if (certFile.isPresent() != keyFile.isPresent()) {
            throw new IllegalArgumentException(
                    "--tls-cert-file and --tls-private-key-file must be given together");
        }
    }

    /**
     * Generated certificates, TLS 1.2 and later, the JDK's cipher suites, kube's default access
     * settings.
     */
    public static SecureServing generated() {
        return new SecureServing(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                TlsVersion.TLS12,
                List.of(),
                Optional.empty(),
                AccessSettings.DEFAULT);
    }

    /** The same TLS with {@code other} access settings. */
    public SecureServing withAccess(AccessSettings other) {
        return new SecureServing(
                certFile, keyFile, clientCaFile, minVersion, cipherSuites, advertiseAddress, other);
    }
}
