package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RunningProcess;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's deletions that need the controllers, against one in-process server: {@code
 * --cascade=background|foreground|orphan} (the garbage collector removing or releasing dependents),
 * the default {@code --wait} on an object whose finalizer is removed later, and {@code delete ns}
 * of a populated namespace (the namespace controller emptying it). {@link KubectlDeleteE2E} has the
 * rest. There is no deployment controller: each test creates the ReplicaSets and Pods a Deployment
 * would own, with their ownerReferences, itself. Each test uses a namespace of its own.
 */
class KubectlDeleteLifecycleE2E {
    private static final Duration WITHIN = Duration.ofSeconds(60);

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    @Test
    void cascadeBackgroundRemovesTheOwnerAtOnceAndItsDependentsAfter() {
        String ns = namespace("cascade-bg");
        deploymentWithReplicaSetAndPod(ns);
        ProcessResult deleted = ok("delete", "deploy", "web", "-n", ns);
        assertTrue(
                deleted.stdout().contains("deployment.apps \"web\" deleted"), deleted.describe());
        awaitNames(ns, "rs", List.of());
        awaitNames(ns, "pods", List.of());
    }

    @Test
    void cascadeForegroundReturnsOnlyOnceTheDependentsAreGone() {
        String ns = namespace("cascade-fg");
        deploymentWithReplicaSetAndPod(ns);
        ProcessResult deleted = ok("delete", "deploy", "web", "-n", ns, "--cascade=foreground");
        assertTrue(
                deleted.stdout().contains("deployment.apps \"web\" deleted"), deleted.describe());
        // kubectl waited for the Deployment to disappear, which the foreground finalizer allows
        // only after
        // its blocking dependents are gone.
        assertEquals(List.of(), names(ns, "rs"));
        assertEquals(List.of(), names(ns, "pods"));
        assertEquals(List.of(), names(ns, "deploy"));
    }

    @Test
    void cascadeOrphanKeepsTheDependentsAndReleasesThem() {
        String ns = namespace("cascade-orphan");
        deploymentWithReplicaSetAndPod(ns);
        ok("delete", "deploy", "web", "-n", ns, "--cascade=orphan");
        assertEquals(List.of(), names(ns, "deploy"));
        assertEquals(List.of("replicaset.apps/web-1"), names(ns, "rs"));
        await().atMost(WITHIN)
                .until(
                        () ->
                                ok(
                                                "get",
                                                "rs",
                                                "web-1",
                                                "-n",
                                                ns,
                                                "-o",
                                                "jsonpath={.metadata.ownerReferences}")
                                        .stdout()
                                        .isBlank());
        assertEquals(
                List.of("pod/web-1-a"),
                names(ns, "pods"),
                "the pod's owner, the ReplicaSet, still exists");
    }

    @Test
    void anUnboundPodGoesAtOnce() {
        String ns = namespace("unbound");
        write(ns + "-free.yaml", pod(ns, "free", "", null));
        ok("create", "-f", ns + "-free.yaml");
        ok("delete", "pod", "free", "-n", ns, "--wait=false");
        assertEquals(List.of(), names(ns, "pods"));
    }

    @Test
    void deleteWaitsUntilTheLastFinalizerIsRemoved() {
        String ns = namespace("finalized");
        write(
                ns + "-held.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: held\n  namespace: "
                        + ns
                        + "\n  finalizers: [\"example.com/hold\"]\ndata:\n  key: v\n");
        ok("create", "-f", ns + "-held.yaml");
        try (RunningProcess delete = kubectl().start("delete", "cm", "held", "-n", ns, "-v=6")) {
            // kubectl deletes, then watches until the object is gone.
            delete.awaitErrorLine(l -> l.contains("watch=true") && l.contains("200 OK"), WITHIN);
            assertTrue(delete.isAlive(), "the finalizer holds the object");
            ok(
                    "patch",
                    "cm",
                    "held",
                    "-n",
                    ns,
                    "--type",
                    "json",
                    "-p",
                    "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
            ProcessResult result = delete.awaitExit(WITHIN);
            assertEquals(0, result.exitCode(), result.describe());
            assertTrue(result.stdout().contains("configmap \"held\" deleted"), result.describe());
        }
        assertEquals(List.of(), names(ns, "cm"));
    }

    @Test
    void deletingAPopulatedNamespaceRemovesEverythingInIt() {
        String ns = namespace("populated");
        StringBuilder objects = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            objects.append("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-")
                    .append(i)
                    .append("\n  namespace: ")
                    .append(ns)
                    .append("\ndata:\n  key: v\n");
            objects.append("---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s-")
                    .append(i)
                    .append("\n  namespace: ")
                    .append(ns)
                    .append("\nstringData:\n  key: v\n");
        }
        write(ns + "-objects.yaml", objects.toString());
        ok("create", "-f", ns + "-objects.yaml");
        deploymentWithReplicaSetAndPod(ns);

        ProcessResult deleted = ok("delete", "ns", ns, "--timeout=60s");
        assertTrue(
                deleted.stdout().contains("namespace \"" + ns + "\" deleted"), deleted.describe());
        ProcessResult gone = kubectl().run("get", "ns", ns);
        assertEquals(1, gone.exitCode(), gone.describe());
        assertTrue(gone.stderr().contains("namespaces \"" + ns + "\" not found"), gone.describe());
        assertEquals(
                "", ok("get", "cm,secrets,pods,rs,deploy", "-n", ns, "-o", "name").stdout().trim());
    }

    @Test
    void noSystemNamespaceCanBeDeleted() {
        for (String ns : List.of("kube-system", "kube-public", "kube-node-lease")) {
            ProcessResult refused = kubectl().run("delete", "ns", ns, "--wait=false");
            assertEquals(1, refused.exitCode(), refused.describe());
            assertTrue(
                    refused.stderr()
                            .contains(
                                    "namespaces \""
                                            + ns
                                            + "\" is forbidden: this namespace may not be deleted"),
                    refused.describe());
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A Deployment "web", a ReplicaSet "web-1" it owns (blocking) and a Pod "web-1-a" the
     * ReplicaSet owns.
     */
    private static void deploymentWithReplicaSetAndPod(String ns) {
        write(
                ns + "-deploy.yaml",
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: "
                        + ns
                        + "\nspec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
                        + "    spec:\n      containers:\n      - name: web\n        image: nginx\n");
        ok("create", "-f", ns + "-deploy.yaml");
        String deployUid =
                ok("get", "deploy", "web", "-n", ns, "-o", "jsonpath={.metadata.uid}")
                        .stdout()
                        .trim();
        write(
                ns + "-rs.yaml",
                "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: web-1\n  namespace: "
                        + ns
                        + "\n"
                        + ownedBy("apps/v1", "Deployment", "web", deployUid)
                        + "spec:\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
                        + "    spec:\n      containers:\n      - name: web\n        image: nginx\n");
        ok("create", "-f", ns + "-rs.yaml");
        String rsUid =
                ok("get", "rs", "web-1", "-n", ns, "-o", "jsonpath={.metadata.uid}")
                        .stdout()
                        .trim();
        write(
                ns + "-pod.yaml",
                pod(ns, "web-1-a", "", ownedBy("apps/v1", "ReplicaSet", "web-1", rsUid)));
        ok("create", "-f", ns + "-pod.yaml");
    }

    private static String ownedBy(String apiVersion, String kind, String name, String uid) {
        return "  ownerReferences:\n  - apiVersion: "
                + apiVersion
                + "\n    kind: "
                + kind
                + "\n    name: "
                + name
                + "\n    uid: "
                + uid
                + "\n    controller: true\n    blockOwnerDeletion: true\n";
    }

    private static String pod(String ns, String name, String extraSpec, String ownerReferences) {
        return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: "
                + name
                + "\n  namespace: "
                + ns
                + "\n"
                + (ownerReferences == null ? "" : ownerReferences)
                + "spec:\n"
                + extraSpec
                + "  containers:\n  - name: main\n    image: busybox\n";
    }

    /** What kubectl names, but kube-root-ca.crt, which the root CA publisher keeps everywhere. */
    private static List<String> names(String ns, String resource) {
        return ok("get", resource, "-n", ns, "-o", "name")
                .stdout()
                .lines()
                .filter(l -> !l.isBlank() && !l.equals("configmap/kube-root-ca.crt"))
                .toList();
    }

    private static void awaitNames(String ns, String resource, List<String> expected) {
        await().atMost(WITHIN).until(() -> names(ns, resource).equals(expected));
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static String namespace(String name) {
        return SERVER.namespace(name);
    }

    private static void write(String file, String content) {
        SERVER.write(file, content);
    }
}
