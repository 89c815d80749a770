package io.kubepekko.agent.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * How to reach and authenticate to the API server, read from a kubeconfig file (YAML or JSON) at
 * its {@code current-context}, as client-go's clientcmd does: file paths are relative to the
 * kubeconfig's directory; {@code *-data} fields win over the file fields; a token wins over a token
 * file; a CA together with {@code insecure-skip-tls-verify} is refused, as client-go's transport
 * does. {@link ApiClient} turns it into TLS ({@code Tls}).
 *
 * @param server the API server's URL
 * @param caPem CA certificates (PEM) to trust for an {@code https} server; empty: the JDK's
 * @param insecureSkipTlsVerify trust any server certificate
 * @param clientCertPem the client certificate chain (PEM), with {@code clientKeyPem}
 * @param clientKeyPem the client's private key (PEM: PKCS#8 or PKCS#1 RSA)
 * @param token a bearer token
 * @param tokenFile a file holding the bearer token, re-read on each connection set-up
 * @param namespace the context's namespace, {@code default} when unset
 */
public record Kubeconfig(
        URI server,
        Optional<byte[]> caPem,
        boolean insecureSkipTlsVerify,
        Optional<byte[]> clientCertPem,
        Optional<byte[]> clientKeyPem,
        Optional<String> token,
        Optional<Path> tokenFile,
        String namespace) {

    /** A kubeconfig that could not be used; the message names the file and what is wrong. */
    public static final class Invalid extends Exception {
        public Invalid(String message) {
            super(message);
        }
    }

    /** A plain connection to {@code server} without credentials (tests, local servers). */
    public static Kubeconfig plain(URI server) {
        return new Kubeconfig(
                server,
                Optional.empty(),
                false,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                "default");
    }

    public static Kubeconfig load(Path file) throws Invalid {
        JsonNode root;
        try {
            // YAML is a superset of JSON: one parser reads both forms.
            root = Json.YAML.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new Invalid("cannot read kubeconfig " + file + ": " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new Invalid("kubeconfig " + file + " is not a YAML or JSON object");
        }
        Path dir = file.toAbsolutePath().getParent();
        String current = root.path("current-context").asText("");
        if (current.isEmpty()) {
            throw new Invalid("kubeconfig " + file + " has no current-context");
        }
        JsonNode context = named(root, "contexts", current, "context", file);
        JsonNode cluster =
                named(root, "clusters", context.path("cluster").asText(""), "cluster", file);
        String userName = context.path("user").asText("");
        JsonNode user =
                userName.isEmpty()
                        ? Json.MAPPER.createObjectNode()
                        : named(root, "users", userName, "user", file);

        String server = cluster.path("server").asText("");
        if (server.isEmpty()) {
            throw new Invalid(
                    "kubeconfig "
                            + file
                            + ": cluster "
                            + context.path("cluster").asText()
                            + " has no server");
        }
        URI uri;
        try {
            uri =
                    URI.create(
                            server.endsWith("/")
                                    ? server.substring(0, server.length() - 1)
                                    : server);
        } catch (IllegalArgumentException e) {
            throw new Invalid("kubeconfig " + file + ": bad server URL " + server);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw new Invalid(
                    "kubeconfig " + file + ": server URL " + server + " is neither http nor https");
        }
        Optional<byte[]> ca =
                bytes(cluster, "certificate-authority-data", "certificate-authority", dir, file);
        boolean insecure = cluster.path("insecure-skip-tls-verify").asBoolean(false);
        if (insecure && ca.isPresent()) {
            // client-go's transport refuses the pair rather than ignore either.
            throw new Invalid(
                    "kubeconfig "
                            + file
                            + ": specifying a root certificates file with the insecure flag is not allowed");
        }
        Optional<byte[]> cert =
                bytes(user, "client-certificate-data", "client-certificate", dir, file);
        Optional<byte[]> key = bytes(user, "client-key-data", "client-key", dir, file);
        if (cert.isPresent() != key.isPresent()) {
            throw new Invalid(
                    "kubeconfig "
                            + file
                            + ": user "
                            + userName
                            + " has a client certificate or key without the other");
        }
        Optional<String> token = text(user, "token");
        Optional<Path> tokenFile =
                token.isPresent() ? Optional.empty() : text(user, "tokenFile").map(dir::resolve);
        return new Kubeconfig(
                uri,
                ca,
                insecure,
                cert,
                key,
                token,
                tokenFile,
                text(context, "namespace").orElse("default"));
    }

    /** The bearer token to send, if any: the token, else the token file's trimmed content. */
    public Optional<String> bearerToken() {
        if (token.isPresent()) {
            return token;
        }
        return tokenFile.flatMap(
                f -> {
                    try {
                        String t = Files.readString(f).trim();
                        return t.isEmpty() ? Optional.empty() : Optional.of(t);
                    } catch (IOException e) {
                        return Optional.empty();
                    }
                });
    }

    private static JsonNode named(JsonNode root, String list, String name, String field, Path file)
            throws Invalid {
        for (JsonNode entry : root.path(list)) {
            if (name.equals(entry.path("name").asText(null))) {
                return entry.path(field);
            }
        }
        throw new Invalid(
                "kubeconfig " + file + ": " + field + " \"" + name + "\" not found in " + list);
    }

    private static Optional<String> text(JsonNode n, String field) {
        String v = n.path(field).asText("");
        return v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    private static Optional<byte[]> bytes(
            JsonNode n, String dataField, String fileField, Path dir, Path file) throws Invalid {
        Optional<String> data = text(n, dataField);
        if (data.isPresent()) {
            try {
                return Optional.of(
                        Base64.getMimeDecoder()
                                .decode(data.get().getBytes(StandardCharsets.US_ASCII)));
            } catch (IllegalArgumentException e) {
                throw new Invalid("kubeconfig " + file + ": " + dataField + " is not base64");
            }
        }
        Optional<String> path = text(n, fileField);
        if (path.isPresent()) {
            Path p = dir.resolve(path.get());
            try {
                return Optional.of(Files.readAllBytes(p));
            } catch (IOException e) {
                throw new Invalid(
                        "kubeconfig "
                                + file
                                + ": cannot read "
                                + fileField
                                + " "
                                + p
                                + ": "
                                + e.getMessage());
            }
        }
        return Optional.empty();
    }
}
