package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.LoggedRequests;
import io.kubepekko.e2e.support.Manifests;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RunningProcess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's {@code diff}, client-side (a dry-run strategic merge patch, or a dry-run
 * create for a new object) and {@code --server-side} (a dry-run apply): exit code 1 and a unified
 * diff when the manifest differs from the live object, 0 and nothing when it matches, and in every
 * case nothing persisted: the resourceVersion stays and watchers see no event.
 */
class KubectlDiffE2E {
    private static final Duration WITHIN = Duration.ofSeconds(30);

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();
    private static Kubectl kubectl;

    @BeforeEach
    void requireKubectl() {
        if (kubectl == null) {
            kubectl = withDiffProgram(SERVER.kubectl());
        }
    }

    private static String configMap(String ns, String name, String key) {
        return Manifests.configMap(ns, name, key);
    }

    @Test
    void diffShowsChangesWithoutWritingAnything() {
        String ns = namespace("diff-cm");
        write("csa.yaml", configMap(ns, "csa", "one"));
        ok("apply", "-f", "csa.yaml");
        write("ssa.yaml", configMap(ns, "ssa", "one"));
        ok("apply", "--server-side", "-f", "ssa.yaml");
        String csaVersion = resourceVersion(ns, "configmap/csa");
        String ssaVersion = resourceVersion(ns, "configmap/ssa");

        // The watch lists first (csa and ssa as ADDED), then watches from the list's version: once
        // both
        // are printed, every later change reaches it, in order.
        try (RunningProcess watch =
                kubectl.start("get", "configmaps", "-n", ns, "-w", "--output-watch-events")) {
            watch.awaitLine(l -> l.matches("ADDED\\s+csa\\s.*"), WITHIN);
            watch.awaitLine(l -> l.matches("ADDED\\s+ssa\\s.*"), WITHIN);

            // Unchanged SERVER.manifests(): exit code 0, no output.
            ProcessResult same = kubectl.run("diff", "-f", "csa.yaml");
            assertEquals(0, same.exitCode(), same.describe());
            assertEquals("", same.stdoutText(), same.describe());
            ProcessResult sameServerSide = kubectl.run("diff", "--server-side", "-f", "ssa.yaml");
            assertEquals(0, sameServerSide.exitCode(), sameServerSide.describe());
            assertEquals("", sameServerSide.stdoutText(), sameServerSide.describe());

            // Changed SERVER.manifests(): exit code 1 and the change, computed by dry-run requests.
            write("csa.yaml", configMap(ns, "csa", "two"));
            ProcessResult changed = kubectl.run("diff", "-f", "csa.yaml", "-v=6");
            assertEquals(1, changed.exitCode(), changed.describe());
            assertChange(changed, "-  key: one", "+  key: two");
            assertDryRun(changed, "PATCH", "kubectl-client-side-apply");

            write("ssa.yaml", configMap(ns, "ssa", "two"));
            ProcessResult changedServerSide =
                    kubectl.run("diff", "--server-side", "-f", "ssa.yaml", "-v=6");
            assertEquals(1, changedServerSide.exitCode(), changedServerSide.describe());
            assertChange(changedServerSide, "-  key: one", "+  key: two");
            assertDryRun(changedServerSide, "PATCH", "kubectl");

            // A new object: a dry-run create.
            write("new.yaml", configMap(ns, "new", "three"));
            ProcessResult created = kubectl.run("diff", "-f", "new.yaml", "-v=6");
            assertEquals(1, created.exitCode(), created.describe());
            assertChange(created, "+  key: three");
            assertDryRun(created, "POST", "kubectl-client-side-apply");

            // A change after the diffs, awaited: by then any event of the dry runs would have
            // arrived.
            fence(ns, watch, "fence");
            List<String> diffed =
                    watch.lines().stream()
                            .filter(l -> l.matches("\\S+\\s+(csa|ssa|new)\\s.*"))
                            .toList();
            assertEquals(
                    2, diffed.size(), "only the initial ADDED of csa and ssa: " + watch.lines());
        }
        assertEquals(csaVersion, resourceVersion(ns, "configmap/csa"));
        assertEquals(ssaVersion, resourceVersion(ns, "configmap/ssa"));
        assertEquals(
                "one",
                ok("get", "-n", ns, "configmap/ssa", "-o", "jsonpath={.data.key}").stdoutText());
        assertEquals(
                1,
                kubectl.run("get", "-n", ns, "configmap/new").exitCode(),
                "the dry-run create made nothing");
    }

    @Test
    void diffOfADeploymentMadeByServerSideApplyShowsOnlyTheChange() {
        String ns = namespace("diff-deploy");
        write("web.yaml", deployment(ns, "nginx:1.27"));
        ok("apply", "--server-side", "-f", "web.yaml");
        String version = resourceVersion(ns, "deployment/web");

        ProcessResult same = kubectl.run("diff", "--server-side", "-f", "web.yaml");
        assertEquals(0, same.exitCode(), same.describe());
        // Client-side diff of an object without the last-applied annotation patches in
        // "annotations": {}, which the stored encoding leaves out: no change either.
        ProcessResult sameClientSide = kubectl.run("diff", "-f", "web.yaml");
        assertEquals(0, sameClientSide.exitCode(), sameClientSide.describe());

        write("web.yaml", deployment(ns, "nginx:1.28"));
        ProcessResult changed = kubectl.run("diff", "--server-side", "-f", "web.yaml");
        assertEquals(1, changed.exitCode(), changed.describe());
        assertChange(changed, "-      - image: nginx:1.27", "+      - image: nginx:1.28");
        // The would-be object is the update's: the generation it would get, everything else as
        // live.
        assertChange(changed, "-  generation: 1", "+  generation: 2");
        assertEquals(
                2,
                changed.stdout()
                        .lines()
                        .filter(l -> l.startsWith("+") && !l.startsWith("+++"))
                        .count(),
                changed.describe());
        assertEquals(version, resourceVersion(ns, "deployment/web"));
    }

    // ---------------------------------------------------------------- helpers

    private static String deployment(String ns, String image) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: %s
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - {name: app, image: %s, ports: [{containerPort: 80}]}
                """
                .formatted(ns, image);
    }

    /** Creates a ConfigMap named {@code name} and waits until the watch reports it. */
    private static void fence(String ns, RunningProcess watch, String name) {
        write(name + ".yaml", configMap(ns, name, "fence"));
        ok("create", "-f", name + ".yaml");
        watch.awaitLine(l -> l.matches("ADDED\\s+" + name + "\\s.*"), WITHIN);
    }

    private static void assertChange(ProcessResult diff, String... lines) {
        List<String> out = diff.stdout().lines().toList();
        for (String line : lines) {
            assertTrue(out.contains(line), "\"" + line + "\" in\n" + diff.describe());
        }
    }

    /** The diff's write was a dry run by kubectl's field manager. */
    private static void assertDryRun(ProcessResult diff, String verb, String manager) {
        List<LoggedRequests.Exchange> writes = LoggedRequests.of(diff, verb);
        assertEquals(1, writes.size(), diff.describe());
        assertEquals("All", writes.get(0).query("dryRun"), writes.get(0).url());
        assertEquals(manager, writes.get(0).query("fieldManager"), writes.get(0).url());
    }

    private static String resourceVersion(String ns, String object) {
        return ok("get", "-n", ns, object, "-o", "jsonpath={.metadata.resourceVersion}")
                .stdoutText();
    }

    /**
     * kubectl diff runs an external {@code diff -u -N <live dir> <merged dir>}. diffutils is
     * normally installed; where it is not, a small script stands in: for each file that differs it
     * prints the lines only the live one has with {@code -} and those only the merged one has with
     * {@code +}, and it exits 1 when anything differs (what the assertions look at).
     */
    private static Kubectl withDiffProgram(Kubectl kubectl) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "diff"))) {
                return kubectl;
            }
        }
        Path script = SERVER.scratch().resolve("fake-diff.sh");
        write(
                script,
                """
                #!/bin/sh
                # usage: fake-diff.sh [flags] LIVE MERGED
                for last; do :; done
                merged="$last"
                live=""
                for a; do [ "$a" = "$merged" ] && break; live="$a"; done
                rc=0
                for f in "$merged"/*; do
                  b=$(basename "$f")
                  [ -f "$live/$b" ] || : > "$live/$b"
                  if [ "$(cat "$live/$b")" != "$(cat "$f")" ]; then
                    grep -vxF -f "$f" "$live/$b" | sed 's/^/-/'
                    grep -vxF -f "$live/$b" "$f" | sed 's/^/+/'
                    rc=1
                  fi
                done
                exit $rc
                """);
        return kubectl.withEnvironment("KUBECTL_EXTERNAL_DIFF", script.toString());
    }

    private static ProcessResult ok(String... args) {
        ProcessResult result = kubectl.run(args);
        assertEquals(0, result.exitCode(), result.describe());
        return result;
    }

    private static String namespace(String name) {
        return SERVER.namespace(name);
    }

    private static void write(String file, String content) {
        write(SERVER.manifests().resolve(file), content);
    }

    private static void write(Path file, String content) {
        try {
            Files.writeString(file, content);
            if (file.getFileName().toString().endsWith(".sh")) {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
