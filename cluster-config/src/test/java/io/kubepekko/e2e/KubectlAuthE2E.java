package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.http.server.ApiServer;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real kubectl over the secure port, with nothing but the admin kubeconfig the server wrote: it
 * verifies the serving certificate against the embedded CA (no insecure-skip-tls-verify) and
 * presents the embedded admin client certificate.
 */
class KubectlTlsE2E {

    private static Path scratch;
    private static ApiServer server;

    @BeforeAll
    static void start() throws Exception {
        scratch = Files.createTempDirectory("kubepekko-e2e-tls-");
        server =
                ApiServer.start(
                        ApiServerSettings.defaults()
                                .withDataDir(scratch.resolve("data"))
                                .withPort(0));
    }

    @AfterAll
    static void stop() throws IOException {
        if (server != null) {
            server.close();
        }
        try (Stream<Path> files = Files.walk(scratch)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Kubectl kubectl() {
        return new Kubectl(
                ClientBinaries.require().kubectl(), server.kubeconfig(), scratch, scratch);
    }

    @Test
    void kubectlWorksOverHttpsWithTheGeneratedAdminKubeconfig() throws Exception {
        String kubeconfig = Files.readString(server.kubeconfig());
        assertTrue(kubeconfig.contains("certificate-authority-data:"), kubeconfig);
        assertTrue(!kubeconfig.contains("insecure-skip-tls-verify"), kubeconfig);

        ProcessResult version = kubectl().run("get", "--raw", "/version");
        assertEquals(0, version.exitCode(), version.describe());
        assertTrue(version.stdout().contains("gitVersion"), version.describe());

        ProcessResult created =
                kubectl().run("create", "configmap", "over-tls", "--from-literal=k=v");
        assertEquals(0, created.exitCode(), created.describe());
        ProcessResult got =
                kubectl().run("get", "configmap", "over-tls", "-o", "jsonpath={.data.k}", "-v=6");
        assertEquals(0, got.exitCode(), got.describe());
        assertEquals("v", got.stdout());
        assertTrue(got.stderr().contains(server.url()), got.describe());
    }

    @Test
    void kubectlCreateTokenIssuesAServiceAccountTokenThatAuthenticatesAsIt() throws Exception {
        ProcessResult sa = kubectl().run("create", "serviceaccount", "robot");
        assertEquals(0, sa.exitCode(), sa.describe());
        ProcessResult token = kubectl().run("create", "token", "robot", "--duration=15m");
        assertEquals(0, token.exitCode(), token.describe());
        String jwt = token.stdout().trim();
        assertEquals(3, jwt.split("\\.").length, token.describe());

        // A kubeconfig with the server's CA and the token alone (no client certificate, which
        // would authenticate first).
        String admin = Files.readString(server.kubeconfig());
        Matcher ca = Pattern.compile("certificate-authority-data: *(\\S+)").matcher(admin);
        assertTrue(ca.find(), admin);
        Path robotConfig = scratch.resolve("robot.kubeconfig");
        Files.writeString(
                robotConfig,
                String.join(
                        "\n",
                        "apiVersion: v1",
                        "kind: Config",
                        "clusters:",
                        "- name: kubepekko",
                        "  cluster:",
                        "    server: " + server.url(),
                        "    certificate-authority-data: " + ca.group(1),
                        "users:",
                        "- name: robot",
                        "  user:",
                        "    token: " + jwt,
                        "contexts:",
                        "- name: robot",
                        "  context:",
                        "    cluster: kubepekko",
                        "    user: robot",
                        "current-context: robot",
                        ""));
        ProcessResult whoami =
                new Kubectl(ClientBinaries.require().kubectl(), robotConfig, scratch, scratch)
                        .run("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}");
        assertEquals(0, whoami.exitCode(), whoami.describe());
        assertEquals("system:serviceaccount:default:robot", whoami.stdout());
    }
}
