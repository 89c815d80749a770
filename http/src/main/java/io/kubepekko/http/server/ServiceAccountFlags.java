package io.kubepekko.http.server;

import io.kubepekko.api.auth.serviceaccount.ServiceAccountOptions;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.http.security.ServiceAccountSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube-apiserver's service-account token flags and {@code --api-audiences}, with its names, types
 * and help; listed in {@link ApiServerFlags#FLAGS}. Where kube requires a flag, the server has a
 * default instead: the issuer {@value ServiceAccountOptions#DEFAULT_ISSUER}, the signing key
 * generated under {@code --data-dir/pki}, and that key's public half to verify with.
 */
final class ServiceAccountFlags {
    private ServiceAccountFlags() {}

    static final Flag<List<String>> API_AUDIENCES =
            new Flag<>(
                    "api-audiences",
                    "strings",
                    null,
                    "Identifiers of the API. The service account token authenticator will validate that"
                            + " tokens used against the API are bound to at least one of these audiences."
                            + " If the --service-account-issuer flag is configured and this flag is not,"
                            + " this field defaults to a single element list containing the issuer URL.",
                    false,
                    true,
                    ServerFlagValues::stringSlice);
    static final Flag<List<String>> SERVICE_ACCOUNT_ISSUER =
            new Flag<>(
                    "service-account-issuer",
                    "stringArray",
                    ServiceAccountOptions.DEFAULT_ISSUER,
                    "Identifier of the service account token issuer. The issuer will assert this"
                            + " identifier in \"iss\" claim of issued tokens. This value is a string or"
                            + " URI. If this option is not a valid URI per the OpenID Discovery 1.0 spec,"
                            + " the ServiceAccountIssuerDiscovery feature will remain disabled. It is"
                            + " highly recommended that this value comply with the OpenID spec:"
                            + " https://openid.net/specs/openid-connect-discovery-1_0.html. In practice,"
                            + " this means that service-account-issuer must be an https URL. It is also"
                            + " highly recommended that this URL be capable of serving OpenID discovery"
                            + " documents at {service-account-issuer}/.well-known/openid-configuration."
                            + " When this flag is specified multiple times, the first is used to generate"
                            + " tokens and all are used to determine which issuers are accepted.",
                    false,
                    true,
                    List::copyOf);
    static final Flag<String> SERVICE_ACCOUNT_JWKS_URI =
            new Flag<>(
                    "service-account-jwks-uri",
                    "string",
                    "",
                    "Overrides the URI for the JSON Web Key Set in the discovery doc served at"
                            + " /.well-known/openid-configuration. This flag is useful if the discovery"
                            + " doc and key set are served to relying parties from a URL other than the"
                            + " API server's external address.",
                    false,
                    false,
                    Flag.last(text -> text));
    static final Flag<List<Path>> SERVICE_ACCOUNT_KEY_FILE =
            new Flag<>(
                    "service-account-key-file",
                    "stringArray",
                    null,
                    "File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to"
                            + " verify ServiceAccount tokens. The specified file can contain multiple"
                            + " keys, and the flag can be specified multiple times with different files."
                            + " If unspecified, the public key of --service-account-signing-key-file is"
                            + " used.",
                    false,
                    true,
                    ServiceAccountFlags::paths);
    static final Flag<Duration> SERVICE_ACCOUNT_MAX_TOKEN_EXPIRATION =
            new Flag<>(
                    "service-account-max-token-expiration",
                    "duration",
                    "0s",
                    "The maximum validity duration of a token created by the service account token"
                            + " issuer. If an otherwise valid TokenRequest with a validity duration"
                            + " larger than this value is requested, a token will be issued with a"
                            + " validity duration of this value.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::signedDuration));
    static final Flag<Boolean> SERVICE_ACCOUNT_EXTEND_TOKEN_EXPIRATION =
            new Flag<>(
                    "service-account-extend-token-expiration",
                    "",
                    "true",
                    "Turns on projected service account expiration extension during token"
                            + " generation, which helps safe transition from legacy token to bound"
                            + " service account token feature. If this flag is enabled, admission"
                            + " injected tokens would be extended up to 1 year to prevent unexpected"
                            + " failure during transition, ignoring value of"
                            + " service-account-max-token-expiration.",
                    true,
                    false,
                    Flag.last(Flag::goBool));
    static final Flag<Optional<Path>> SERVICE_ACCOUNT_SIGNING_KEY_FILE =
            new Flag<>(
                    "service-account-signing-key-file",
                    "string",
                    null,
                    "Path to the file that contains the current private key of the service account"
                            + " token issuer. The issuer will sign issued ID tokens with this private key."
                            + " Without it, the key generated under --data-dir/pki (sa.key).",
                    false,
                    false,
                    Flag.optional(ServerFlagValues::dataDir));

    /**
     * The settings the flags give.
     *
     * @throws IllegalArgumentException kube's refusal of their values
     */
    static ServiceAccountSettings settings(FlagSet.Parsed.Values v) {
        return new ServiceAccountSettings(
                v.get(SERVICE_ACCOUNT_ISSUER),
                v.get(SERVICE_ACCOUNT_KEY_FILE),
                v.get(SERVICE_ACCOUNT_SIGNING_KEY_FILE),
                v.get(SERVICE_ACCOUNT_MAX_TOKEN_EXPIRATION),
                v.get(SERVICE_ACCOUNT_EXTEND_TOKEN_EXPIRATION),
                v.get(API_AUDIENCES),
                v.get(SERVICE_ACCOUNT_JWKS_URI));
    }

    /** pflag's string array of files: every occurrence one file. */
    private static List<Path> paths(List<String> given) throws Flag.InvalidValue {
        List<Path> files = new ArrayList<>();
        for (String text : given) {
            files.add(ServerFlagValues.dataDir(text));
        }
        return List.copyOf(files);
    }
}
