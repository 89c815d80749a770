package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.ClientTls;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Who the real kubectl is, and what it may do, over the server's TLS: the admin kubeconfig the
 * server wrote (the CA to verify it, the admin's client certificate); a second user with a
 * certificate of the server's client CA, bound to kube's {@code edit} role in one namespace;
 * impersonation with {@code --as}; a service-account token; and no credentials at all. Every answer
 * as kube-apiserver's, word for word.
 */
class KubectlAuthE2E {
    private static final Duration RBAC_IN_FORCE = Duration.ofSeconds(30);
    private static final String TEAM = "auth-team";
    private static final String OTHER = "auth-other";

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    /** Jane, in group {@code developers}, may edit {@link #TEAM} and nothing else. */
    private static Kubectl jane;

    @BeforeAll
    static void janeEditsTheTeamNamespace() {
        SERVER.namespace(TEAM);
        SERVER.namespace(OTHER);
        SERVER.ok(
                "create",
                "rolebinding",
                "jane-edit",
                "-n",
                TEAM,
                "--clusterrole=edit",
                "--user=jane");
        jane = kubectlWith(SERVER.kubeconfigFor("jane", List.of("developers")), "jane");
        // RBAC follows the binding through a watch: in force within a moment.
        await().atMost(RBAC_IN_FORCE)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () ->
                                jane.run("auth", "can-i", "create", "configmaps", "-n", TEAM)
                                        .stdout()
                                        .strip()
                                        .equals("yes"));
    }

    /** kubectl with {@code kubeconfig}, and a cache and home of its own. */
    private static Kubectl kubectlWith(Path kubeconfig, String who) {
        try {
            Path home = Files.createDirectories(SERVER.scratch().resolve("home-" + who));
            return new Kubectl(
                    ClientBinaries.require().kubectl(), kubeconfig, home, SERVER.manifests());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theAdminKubeconfigVerifiesTheServerAndPresentsTheAdminCertificate() throws Exception {
        String kubeconfig = Files.readString(SERVER.kubeconfig());
        assertTrue(kubeconfig.contains("certificate-authority-data:"), kubeconfig);
        assertTrue(kubeconfig.contains("client-certificate-data:"), kubeconfig);
        assertFalse(kubeconfig.contains("insecure-skip-tls-verify"), kubeconfig);
        assertTrue(ClientTls.serverOf(SERVER.kubeconfig()).startsWith("https://"), kubeconfig);

        ProcessResult whoami =
                SERVER.ok(
                        "auth",
                        "whoami",
                        "-o",
                        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}");
        assertEquals(
                "kubernetes-admin [\"system:masters\",\"system:authenticated\"]", whoami.stdout());
    }

    @Test
    void aUserBoundToEditInOneNamespaceMayEditThereAndNowhereElse() {
        ProcessResult whoami =
                jane.run(
                        "auth",
                        "whoami",
                        "-o",
                        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}");
        assertEquals(0, whoami.exitCode(), whoami.describe());
        assertEquals("jane [\"developers\",\"system:authenticated\"]", whoami.stdout());

        ProcessResult created =
                jane.run("create", "configmap", "janes", "-n", TEAM, "--from-literal=k=v");
        assertEquals(0, created.exitCode(), created.describe());
        assertEquals("configmap/janes created", created.stdoutText(), created.describe());
        ProcessResult read =
                jane.run("get", "configmap", "janes", "-n", TEAM, "-o", "jsonpath={.data.k}");
        assertEquals(0, read.exitCode(), read.describe());
        assertEquals("v", read.stdout());

        ProcessResult listElsewhere = jane.run("get", "configmaps", "-n", OTHER);
        assertEquals(1, listElsewhere.exitCode(), listElsewhere.describe());
        assertEquals(
                "Error from server (Forbidden): configmaps is forbidden: User \"jane\" cannot list"
                        + " resource \"configmaps\" in API group \"\" in the namespace \""
                        + OTHER
                        + "\"",
                listElsewhere.stderrText(),
                listElsewhere.describe());
        ProcessResult createElsewhere =
                jane.run("create", "configmap", "janes", "-n", OTHER, "--from-literal=k=v");
        assertEquals(1, createElsewhere.exitCode(), createElsewhere.describe());
        assertEquals(
                "error: failed to create configmap: configmaps is forbidden: User \"jane\" cannot"
                        + " create resource \"configmaps\" in API group \"\" in the namespace \""
                        + OTHER
                        + "\"",
                createElsewhere.stderrText(),
                createElsewhere.describe());
        // edit grants no RBAC objects: jane cannot widen her own access.
        ProcessResult bind =
                jane.run(
                        "create",
                        "rolebinding",
                        "jane-admin",
                        "-n",
                        TEAM,
                        "--clusterrole=admin",
                        "--user=jane");
        assertEquals(1, bind.exitCode(), bind.describe());
        assertTrue(
                bind.stderrText()
                        .startsWith(
                                "error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io"
                                        + " is forbidden: User \"jane\" cannot create resource"
                                        + " \"rolebindings\" in API group"
                                        + " \"rbac.authorization.k8s.io\" in the namespace"),
                bind.describe());
    }

    /**
     * {@code can-i --list}: in her namespace the rules of {@code edit} (configmaps among them, with
     * every verb but the RBAC ones), in another only what every authenticated user has.
     */
    @Test
    void canIListShowsTheUsersRulesPerNamespace() {
        ProcessResult team = jane.run("auth", "can-i", "--list", "-n", TEAM);
        assertEquals(0, team.exitCode(), team.describe());
        assertEquals(
                new TreeSet<>(
                        List.of(
                                "create",
                                "delete",
                                "deletecollection",
                                "get",
                                "list",
                                "patch",
                                "update",
                                "watch")),
                verbsOf(team, "configmaps"),
                team.describe());
        assertEquals(
                Set.of("create"),
                verbsOf(team, "selfsubjectreviews.authentication.k8s.io"),
                team.describe());

        ProcessResult other = jane.run("auth", "can-i", "--list", "-n", OTHER);
        assertEquals(0, other.exitCode(), other.describe());
        assertEquals(Set.of(), verbsOf(other, "configmaps"), other.describe());
        assertEquals(
                Set.of("create"),
                verbsOf(other, "selfsubjectreviews.authentication.k8s.io"),
                other.describe());

        ProcessResult no = jane.run("auth", "can-i", "get", "configmaps", "-n", OTHER);
        assertEquals(1, no.exitCode(), no.describe());
        assertEquals("no", no.stdoutText(), no.describe());
    }

    /** The verbs of {@code resource}'s line of {@code kubectl auth can-i --list}; none: empty. */
    private static Set<String> verbsOf(ProcessResult list, String resource) {
        Pattern line =
                Pattern.compile(
                        "^" + Pattern.quote(resource) + "\\s+\\[\\]\\s+\\[\\]\\s+\\[([^\\]]*)\\]$",
                        Pattern.MULTILINE);
        Set<String> verbs = new TreeSet<>();
        Matcher m = line.matcher(list.stdout());
        while (m.find()) {
            verbs.addAll(Arrays.asList(m.group(1).split(" ")));
        }
        return verbs;
    }

    /**
     * {@code --as}: the admin may impersonate (system:masters), and is then refused what jane is
     * refused; jane may not impersonate anyone.
     */
    @Test
    void impersonationActsAsTheUserForThoseAllowedToImpersonate() {
        ProcessResult whoami =
                SERVER.ok(
                        "auth",
                        "whoami",
                        "--as=jane",
                        "--as-group=developers",
                        "-o",
                        "jsonpath={.status.userInfo.username} {.status.userInfo.groups}");
        assertEquals("jane [\"developers\",\"system:authenticated\"]", whoami.stdout());
        assertEquals(
                "yes",
                SERVER.ok("auth", "can-i", "create", "configmaps", "-n", TEAM, "--as=jane")
                        .stdoutText());
        ProcessResult asJane = SERVER.kubectl().run("get", "configmaps", "-n", OTHER, "--as=jane");
        assertEquals(1, asJane.exitCode(), asJane.describe());
        assertEquals(
                "Error from server (Forbidden): configmaps is forbidden: User \"jane\" cannot list"
                        + " resource \"configmaps\" in API group \"\" in the namespace \""
                        + OTHER
                        + "\"",
                asJane.stderrText(),
                asJane.describe());

        ProcessResult janeAsBob = jane.run("get", "configmaps", "-n", TEAM, "--as=bob");
        assertEquals(1, janeAsBob.exitCode(), janeAsBob.describe());
        assertEquals(
                "Error from server (Forbidden): users \"bob\" is forbidden: User \"jane\" cannot"
                        + " impersonate resource \"users\" in API group \"\" at the cluster scope",
                janeAsBob.stderrText(),
                janeAsBob.describe());
    }

    /**
     * No credentials: the server takes the client for {@code system:anonymous}, which may read the
     * health endpoints and nothing else (403, kube's Status). A credential that proves no one is
     * 401, and kubectl says the user must log in. (kubectl itself never goes without credentials:
     * with an empty user it asks for a user name.)
     */
    @Test
    void withoutCredentialsOnlyHealthIsServedAndABadTokenIsUnauthorized() throws Exception {
        ClientTls caOnly = ClientTls.fromKubeconfig(SERVER.kubeconfig()).anonymous();
        String server = ClientTls.serverOf(SERVER.kubeconfig());
        ApiCalls anonymous = new ApiCalls(Duration.ofSeconds(30), caOnly);
        ApiCalls.Reply readyz = anonymous.get(server, "/readyz");
        assertEquals(200, readyz.status(), readyz.toString());
        ApiCalls.Reply list = anonymous.get(server, "/api/v1/namespaces/default/configmaps");
        assertEquals(403, list.status(), list.toString());
        assertTrue(list.isStatusBody(), list.toString());
        assertEquals("Forbidden", list.json().path("reason").asText(), list.toString());
        assertEquals(
                "configmaps is forbidden: User \"system:anonymous\" cannot list resource"
                        + " \"configmaps\" in API group \"\" in the namespace \"default\"",
                list.json().path("message").asText(),
                list.toString());
        ApiCalls.Reply discovery = anonymous.get(server, "/api");
        assertEquals(403, discovery.status(), discovery.toString());

        HttpResponse<String> badToken =
                caOnly.httpClient()
                        .send(
                                HttpRequest.newBuilder(URI.create(server + "/api/v1/namespaces"))
                                        .header("Authorization", "Bearer not-a-token-anyone-issued")
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        assertEquals(401, badToken.statusCode(), badToken.body());
        assertEquals(
                "Unauthorized",
                ApiCalls.JSON.readTree(badToken.body()).path("reason").asText(),
                badToken.body());
        Kubectl withBadToken =
                kubectlWith(
                        caOnly.writeKubeconfig(
                                SERVER.scratch().resolve("bad-token.kubeconfig"),
                                server,
                                Optional.of("not-a-token-anyone-issued")),
                        "bad-token");
        ProcessResult refused = withBadToken.run("get", "configmaps");
        assertEquals(1, refused.exitCode(), refused.describe());
        // Discovery is refused first: kubectl logs each try, then gives kube's 401 reason.
        List<String> lines = refused.stderrText().lines().toList();
        assertEquals(
                "error: You must be logged in to the server (the server has asked for the client"
                        + " to provide credentials)",
                lines.get(lines.size() - 1),
                refused.describe());
        ProcessResult raw = withBadToken.run("get", "--raw", "/api/v1/namespaces");
        assertEquals(1, raw.exitCode(), raw.describe());
        assertEquals(
                "error: You must be logged in to the server (Unauthorized)",
                raw.stderrText(),
                raw.describe());
    }

    @Test
    void kubectlCreateTokenIssuesAServiceAccountTokenThatAuthenticatesAsIt() {
        SERVER.ok("create", "serviceaccount", "robot");
        ProcessResult token = SERVER.ok("create", "token", "robot", "--duration=15m");
        String jwt = token.stdout().trim();
        assertEquals(3, jwt.split("\\.").length, token.describe());

        // The server's CA and the token alone: a client certificate would authenticate first.
        Path robotConfig =
                ClientTls.fromKubeconfig(SERVER.kubeconfig())
                        .anonymous()
                        .writeKubeconfig(
                                SERVER.scratch().resolve("robot.kubeconfig"),
                                ClientTls.serverOf(SERVER.kubeconfig()),
                                Optional.of(jwt));
        ProcessResult whoami =
                kubectlWith(robotConfig, "robot")
                        .run("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}");
        assertEquals(0, whoami.exitCode(), whoami.describe());
        assertEquals("system:serviceaccount:default:robot", whoami.stdout());
    }
}
