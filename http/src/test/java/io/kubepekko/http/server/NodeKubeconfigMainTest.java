package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.auth.ServingNames;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.SecureServing;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/node-kubeconfig}'s main on a data directory as a server leaves it (its PKI and admin
 * kubeconfig): a node certificate signed by the client CA, the server and CA of the admin
 * kubeconfig, and the failures named.
 */
class NodeKubeconfigMainTest {
    @TempDir Path tmp;

    private Path data;
    private Pki.Material pki;

    @BeforeEach
    void server() throws Exception {
        data = tmp.resolve("data");
        pki =
                Pki.prepare(
                        data,
                        SecureServing.generated(),
                        ServingNames.of("", Optional.empty(), "10.0.0.1"),
                        Clock.systemUTC());
        Kubeconfig.writeContent(
                data,
                Kubeconfig.renderTls(
                        "https://127.0.0.1:6443",
                        Pem.encode(pki.serverCa()),
                        Optional.of(
                                new String[] {
                                    Pem.encode(pki.admin().orElseThrow().certificate()),
                                    Pem.encode(pki.admin().orElseThrow().key())
                                })));
    }

    private record Run(int code, String out, String err) {}

    private Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                NodeKubeconfigMain.run(
                        args,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        Clock.systemUTC());
        return new Run(
                code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void issuesACertificateForTheNodeUserInTheNodesGroupSignedByTheClientCa() throws Exception {
        Run r = run("--data-dir", data.toString(), "--node-name", "node-1");
        assertEquals(0, r.code(), r.err());
        JsonNode k = Json.YAML.readTree(r.out());
        JsonNode cluster = k.at("/clusters/0/cluster");
        assertEquals("https://127.0.0.1:6443", cluster.path("server").asText());
        assertEquals(
                pki.serverCa(),
                Pem.certificates(decode(cluster.path("certificate-authority-data")), "ca").get(0));
        assertEquals("system:node:node-1", k.at("/users/0/name").asText());
        assertEquals("system:node:node-1", k.at("/contexts/0/context/user").asText());
        X509Certificate cert =
                Pem.certificates(decode(k.at("/users/0/user/client-certificate-data")), "cert")
                        .get(0);
        cert.verify(pki.clientCas().get(0).getPublicKey());
        assertEquals(
                "CN=system:node:node-1,O=system:nodes", cert.getSubjectX500Principal().getName());
        assertEquals(List.of("1.3.6.1.5.5.7.3.2"), cert.getExtendedKeyUsage(), "client auth");
        assertTrue(cert.getPublicKey() instanceof ECPublicKey, "ECDSA P-256 as every other");
        String key = decode(k.at("/users/0/user/client-key-data"));
        assertEquals(
                "EC",
                Pem.privateKey(key, "key").getAlgorithm(),
                "the key that belongs to the certificate");
    }

    @Test
    void writesTheFileOwnerOnlyWithAnotherServerUrlAndAFreshCertificateEachTime() throws Exception {
        Path out = tmp.resolve("nodes/node-2.kubeconfig");
        Run first =
                run(
                        "--data-dir=" + data,
                        "--node-name=node-2",
                        "--out=" + out,
                        "--server=https://10.0.0.1:6443");
        assertEquals(0, first.code(), first.err());
        assertEquals("", first.out());
        assertEquals(
                "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        JsonNode k = Json.YAML.readTree(Files.readString(out));
        assertEquals("https://10.0.0.1:6443", k.at("/clusters/0/cluster/server").asText());
        String cert = k.at("/users/0/user/client-certificate-data").asText();
        assertEquals(
                0,
                run("--data-dir", data.toString(), "--node-name", "node-2", "--out", out.toString())
                        .code());
        assertFalse(
                cert.equals(
                        Json.YAML
                                .readTree(Files.readString(out))
                                .at("/users/0/user/client-certificate-data")
                                .asText()));
    }

    @Test
    void aBadCommandLineIsOneLineAndExitTwo() {
        Run none = run("--data-dir", data.toString());
        assertEquals(2, none.code());
        assertEquals("Error: required flag(s) \"node-name\" not set\n", none.err());
        Run bad = run("--node-name", "Node_1");
        assertEquals(2, bad.code());
        assertTrue(
                bad.err()
                        .startsWith(
                                "Error: invalid argument \"Node_1\" for \"--node-name\" flag: "),
                bad.err());
        Run http = run("--node-name", "n", "--server", "http://127.0.0.1:8080");
        assertEquals(2, http.code());
        assertEquals(
                "Error: invalid argument \"http://127.0.0.1:8080\" for \"--server\" flag: must be an"
                        + " https:// URL\n",
                http.err());
        Run help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("Usage: node-kubeconfig [flags]"), help.out());
    }

    @Test
    void aDataDirectoryWithoutServerOrClientCaIsNamed() throws Exception {
        Path empty = tmp.resolve("empty");
        Run noServer = run("--data-dir", empty.toString(), "--node-name", "n");
        assertEquals(1, noServer.code());
        assertEquals(
                "Error: "
                        + empty.resolve("admin.kubeconfig")
                        + " not found: start the API server with this --data-dir first\n",
                noServer.err());
        // A server that trusts an operator's --client-ca-file has no client CA key to sign with.
        Files.delete(data.resolve("pki/client-ca.key"));
        Run noCa = run("--data-dir", data.toString(), "--node-name", "n");
        assertEquals(1, noCa.code());
        assertTrue(
                noCa.err().startsWith("Error: no client CA under " + data.resolve("pki")),
                noCa.err());
    }

    private static String decode(JsonNode base64) {
        return new String(Base64.getDecoder().decode(base64.asText()), StandardCharsets.US_ASCII);
    }
}
