package io.kubepekko.agent.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigTest {

    @TempDir Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void readsTheCurrentContextsClusterAndUserFromYaml() throws Exception {
        String ca =
                Base64.getEncoder().encodeToString("CA-PEM".getBytes(StandardCharsets.US_ASCII));
        Path f =
                write(
                        "config",
                        """
                apiVersion: v1
                kind: Config
                clusters:
                - name: other
                  cluster: {server: http://other:1}
                - name: main
                  cluster:
                    server: https://10.0.0.1:6443/
                    certificate-authority-data: %s
                contexts:
                - name: ctx
                  context: {cluster: main, user: node, namespace: kube-system}
                current-context: ctx
                users:
                - name: node
                  user:
                    client-certificate: certs/node.crt
                    client-key: certs/node.key
                    tokenFile: token
                """
                                .formatted(ca));
        Files.createDirectories(dir.resolve("certs"));
        Files.writeString(dir.resolve("certs/node.crt"), "CERT");
        Files.writeString(dir.resolve("certs/node.key"), "KEY");
        Files.writeString(dir.resolve("token"), " secret-token\n");
        Kubeconfig k = Kubeconfig.load(f);
        assertEquals(URI.create("https://10.0.0.1:6443"), k.server());
        assertArrayEquals("CA-PEM".getBytes(StandardCharsets.US_ASCII), k.caPem().orElseThrow());
        assertArrayEquals(
                "CERT".getBytes(StandardCharsets.US_ASCII), k.clientCertPem().orElseThrow());
        assertArrayEquals(
                "KEY".getBytes(StandardCharsets.US_ASCII), k.clientKeyPem().orElseThrow());
        assertEquals(
                Optional.of("secret-token"),
                k.bearerToken(),
                "relative to the kubeconfig, trimmed");
        assertEquals("kube-system", k.namespace());
    }

    @Test
    void readsJsonAndATokenWinsOverATokenFile() throws Exception {
        Path f =
                write(
                        "config.json",
                        """
                {"clusters":[{"name":"c","cluster":{"server":"http://127.0.0.1:8080","insecure-skip-tls-verify":true}}],
                 "contexts":[{"name":"x","context":{"cluster":"c","user":"u"}}],"current-context":"x",
                 "users":[{"name":"u","user":{"token":"abc","tokenFile":"nope"}}]}
                """);
        Kubeconfig k = Kubeconfig.load(f);
        assertEquals(URI.create("http://127.0.0.1:8080"), k.server());
        assertTrue(k.insecureSkipTlsVerify());
        assertEquals(Optional.of("abc"), k.bearerToken());
        assertEquals("default", k.namespace());
    }

    @Test
    void namesWhatIsMissing() throws Exception {
        Path noContext = write("a", "clusters: []\n");
        assertEquals(
                "kubeconfig " + noContext + " has no current-context",
                assertThrows(Kubeconfig.Invalid.class, () -> Kubeconfig.load(noContext))
                        .getMessage());
        Path badCluster =
                write(
                        "b",
                        "current-context: x\ncontexts:\n- name: x\n  context: {cluster: gone}\n");
        assertEquals(
                "kubeconfig " + badCluster + ": cluster \"gone\" not found in clusters",
                assertThrows(Kubeconfig.Invalid.class, () -> Kubeconfig.load(badCluster))
                        .getMessage());
    }

    @Test
    void aPkcs1RsaKeyIsRead() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(1024);
        PrivateKey key = g.generateKeyPair().getPrivate();
        // A PKCS#8 RSA key's inner PKCS#1 structure starts after the fixed 26-byte header for these
        // sizes.
        byte[] pkcs8 = key.getEncoded();
        byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
        String pem =
                "-----BEGIN RSA PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder().encodeToString(pkcs1)
                        + "\n-----END RSA PRIVATE KEY-----\n";
        assertEquals(key, Tls.privateKey(pem.getBytes(StandardCharsets.US_ASCII)));
    }
}
