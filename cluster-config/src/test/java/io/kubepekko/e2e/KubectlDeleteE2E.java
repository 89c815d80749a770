package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's {@code delete} against one in-process server: an immortal namespace refused,
 * two-phase deletion of an object with a finalizer, a bound pod's grace period and {@code --force
 * --grace-period=0}, and {@code --dry-run=server}. Each test uses a namespace of its own.
 */
class KubectlDeleteE2E {

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    @Test
    void theDefaultNamespaceMayNotBeDeleted() {
        ProcessResult r = SERVER.kubectl().run("delete", "namespace", "default", "--wait=false");
        assertEquals(1, r.exitCode(), r.describe());
        assertTrue(
                r.stderrText()
                        .contains(
                                "Error from server (Forbidden): namespaces \"default\" is forbidden: "
                                        + "this namespace may not be deleted"),
                r.describe());
    }

    @Test
    void anObjectWithAFinalizerStaysUntilItIsRemoved() {
        String ns = namespace("del-fin");
        SERVER.write(
                "fin.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fin\n  namespace: "
                        + ns
                        + "\n  finalizers: [example.com/hold]\n");
        ok("create", "-f", "fin.yaml");
        assertEquals(
                "configmap \"fin\" deleted from " + ns + " namespace",
                ok("delete", "cm", "fin", "-n", ns, "--wait=false").stdoutText());
        assertTrue(
                ok("get", "cm", "fin", "-n", ns, "-o", "jsonpath={.metadata.deletionTimestamp}")
                        .stdoutText()
                        .matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z"));
        ok(
                "patch",
                "cm",
                "fin",
                "-n",
                ns,
                "--type",
                "merge",
                "-p",
                "{\"metadata\":{\"finalizers\":null}}");
        ProcessResult gone = SERVER.kubectl().run("get", "cm", "fin", "-n", ns);
        assertEquals(1, gone.exitCode(), gone.describe());
        assertTrue(gone.stderrText().contains("NotFound"), gone.describe());
    }

    @Test
    void aBoundPodTerminatesGracefullyUnlessForced() {
        String ns = namespace("del-pod");
        SERVER.write(
                "pod.yaml",
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: "
                        + ns
                        + "\nspec:\n  nodeName: n1\n  containers:\n  - name: c\n    image: busybox\n");
        ok("create", "-f", "pod.yaml");
        ok("delete", "pod", "p", "-n", ns, "--wait=false");
        assertEquals(
                "30",
                ok(
                                "get",
                                "pod",
                                "p",
                                "-n",
                                ns,
                                "-o",
                                "jsonpath={.metadata.deletionGracePeriodSeconds}")
                        .stdoutText());
        ProcessResult forced = ok("delete", "pod", "p", "-n", ns, "--force", "--grace-period=0");
        assertTrue(forced.stdoutText().contains("pod \"p\" force deleted"), forced.describe());
        ProcessResult gone = SERVER.kubectl().run("get", "pod", "p", "-n", ns);
        assertEquals(1, gone.exitCode(), gone.describe());
    }

    @Test
    void aServerDryRunDeletesNothing() {
        String ns = namespace("del-dry");
        ok("create", "configmap", "keep", "-n", ns, "--from-literal=a=b");
        ProcessResult dry = ok("delete", "cm", "keep", "-n", ns, "--dry-run=server");
        assertEquals(
                "configmap \"keep\" deleted from " + ns + " namespace (server dry run)",
                dry.stdoutText());
        ok("get", "cm", "keep", "-n", ns);
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static String namespace(String name) {
        return SERVER.namespace(name);
    }
}
