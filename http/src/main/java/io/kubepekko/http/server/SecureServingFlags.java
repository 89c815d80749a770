package io.kubepekko.http.server;

import io.kubepekko.api.auth.authorizer.AuthorizationMode;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.SecureServing;
import io.kubepekko.http.security.TlsVersion;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The secure port's flags, named as kube-apiserver names them: where it listens, its TLS, and who
 * may do what through it. Listed in {@link ApiServerFlags#FLAGS}. The secure port is the server's
 * only listener, as kube-apiserver's since 1.20.
 */
final class SecureServingFlags {
    private SecureServingFlags() {}

    private static final String STRING = "string";

    static final Flag<Integer> SECURE_PORT =
            new Flag<>(
                    "secure-port",
                    "int",
                    "6443",
                    "The port on which to serve HTTPS with authentication and authorization; 0 picks a free port",
                    false,
                    false,
                    Flag.last(ServerFlagValues::port));
    static final Flag<Optional<String>> ADVERTISE_ADDRESS =
            new Flag<>(
                    "advertise-address",
                    STRING,
                    null,
                    "the IP address the server advertises to members of the cluster; a name of the generated"
                            + " serving certificate",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::address));
    static final Flag<Optional<Path>> TLS_CERT_FILE =
            new Flag<>(
                    "tls-cert-file",
                    STRING,
                    null,
                    "file with the x509 serving certificate (then its intermediates) for HTTPS; without it a"
                            + " certificate of the CA under --data-dir/pki is served",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));
    static final Flag<Optional<Path>> TLS_PRIVATE_KEY_FILE =
            new Flag<>(
                    "tls-private-key-file",
                    STRING,
                    null,
                    "file with the x509 private key matching --tls-cert-file",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));
    static final Flag<Optional<Path>> CLIENT_CA_FILE =
            new Flag<>(
                    "client-ca-file",
                    STRING,
                    null,
                    "file with the CAs client certificates are verified against (CN the user, O the groups);"
                            + " without it the client CA under --data-dir/pki",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));
    static final Flag<TlsVersion> TLS_MIN_VERSION =
            new Flag<>(
                    "tls-min-version",
                    STRING,
                    "VersionTLS12",
                    "minimum TLS version supported. Possible values: VersionTLS10, VersionTLS11, VersionTLS12,"
                            + " VersionTLS13",
                    false,
                    false,
                    Flag.last(ServerFlagValues::tlsVersion));
    static final Flag<List<String>> TLS_CIPHER_SUITES =
            new Flag<>(
                    "tls-cipher-suites",
                    "strings",
                    "",
                    "comma list of cipher suites for the server (IANA names, as kube's); empty: the defaults",
                    false,
                    false,
                    Flag.last(ServerFlagValues::cipherSuites));
    static final Flag<List<AuthorizationMode>> AUTHORIZATION_MODE =
            new Flag<>(
                    "authorization-mode",
                    "strings",
                    "Node,RBAC",
                    "Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of:"
                            + " AlwaysAllow,AlwaysDeny,Node,RBAC.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::authorizationModes));
    static final Flag<Boolean> ANONYMOUS_AUTH =
            new Flag<>(
                    "anonymous-auth",
                    "",
                    "true",
                    "Enables anonymous requests to the secure port of the API server. Requests that are not"
                            + " rejected by another authentication method are treated as anonymous requests."
                            + " Anonymous requests have a username of system:anonymous, and a group name of"
                            + " system:unauthenticated.",
                    true,
                    false,
                    Flag.last(Flag::goBool));
    static final Flag<Optional<Path>> TOKEN_AUTH_FILE =
            new Flag<>(
                    "token-auth-file",
                    STRING,
                    null,
                    "If set, the file that will be used to secure the secure port of the API server via"
                            + " token authentication.",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));

    static SecureServing secureServing(FlagSet.Parsed.Values v)
            throws ApiServerFlags.UsageException {
        try {
            return new SecureServing(
                    v.get(TLS_CERT_FILE),
                    v.get(TLS_PRIVATE_KEY_FILE),
                    v.get(CLIENT_CA_FILE),
                    v.get(TLS_MIN_VERSION),
                    v.get(TLS_CIPHER_SUITES),
                    v.get(ADVERTISE_ADDRESS),
                    new AccessSettings(
                            v.get(AUTHORIZATION_MODE),
                            v.get(ANONYMOUS_AUTH),
                            v.get(TOKEN_AUTH_FILE),
                            ServiceAccountFlags.settings(v)));
        } catch (IllegalArgumentException e) {
            throw new ApiServerFlags.UsageException(e.getMessage());
        }
    }
}
