package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.LocalServerCluster;
import io.kubepekko.e2e.support.LoggedRequests;
import io.kubepekko.e2e.support.Manifests;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RunningProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's {@code --dry-run=server} on create, apply (client-side and server-side),
 * patch, delete, delete --all and scale: kubectl prints what it prints against kube-apiserver
 * ({@code ... (server dry run)}), and nothing changes — every object keeps its resourceVersion and
 * content, a watch opened before sees no event until a later real write, and that write gets the
 * very next resourceVersion.
 */
class KubectlDryRunE2E {
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final ObjectMapper YAML = new YAMLMapper();

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    private static String configMap(String ns, String name, String value) {
        return Manifests.configMap(ns, name, value);
    }

    @Test
    void createPrintsTheWouldBeObjectAndStoresNothing() {
        String ns = namespace("dry-create");
        SERVER.write("dry-create.yaml", configMap(ns, "made", "one"));
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            JsonNode printed =
                    yaml(ok("create", "-f", "dry-create.yaml", "--dry-run=server", "-o", "yaml"));
            assertEquals("made", printed.at("/metadata/name").asText());
            assertEquals(ns, printed.at("/metadata/namespace").asText());
            assertEquals("one", printed.at("/data/key").asText());
            assertFalse(
                    printed.at("/metadata/uid").asText().isEmpty(),
                    "the server filled in the system fields");
            assertTrue(
                    printed.at("/metadata/resourceVersion").isMissingNode(),
                    "a dry-run create has no resourceVersion, as none was consumed: " + printed);

            assertEquals(
                    "configmap/made created (server dry run)",
                    ok("create", "-f", "dry-create.yaml", "--dry-run=server").stdoutText());
            quiet.assertNothingHappened();
        }
        assertNotFound(ns, "configmap/made");
    }

    @Test
    void applyClientSideAndServerSideChangeNothing() {
        String ns = namespace("dry-apply");
        SERVER.write("dry-apply.yaml", configMap(ns, "applied", "one"));
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            // The object is absent: a dry-run create, or a dry-run apply that would create.
            assertEquals(
                    "configmap/applied created (server dry run)",
                    ok("apply", "-f", "dry-apply.yaml", "--dry-run=server").stdoutText());
            assertEquals(
                    "configmap/applied serverside-applied (server dry run)",
                    ok("apply", "--server-side", "-f", "dry-apply.yaml", "--dry-run=server")
                            .stdoutText());
            quiet.assertNothingHappened();
        }
        assertNotFound(ns, "configmap/applied");

        ok("apply", "-f", "dry-apply.yaml");
        String version = resourceVersion(ns, "configmap/applied");
        SERVER.write("dry-apply.yaml", configMap(ns, "applied", "two"));
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            ProcessResult clientSide =
                    ok("apply", "-f", "dry-apply.yaml", "--dry-run=server", "-v=6");
            assertTrue(
                    clientSide
                            .stdoutText()
                            .endsWith("configmap/applied configured (server dry run)"),
                    clientSide.describe());
            assertEquals(
                    List.of("All"),
                    LoggedRequests.of(clientSide, "PATCH").stream()
                            .map(e -> e.query("dryRun"))
                            .toList(),
                    clientSide.describe());
            assertEquals(
                    "configmap/applied serverside-applied (server dry run)",
                    ok(
                                    "apply",
                                    "--server-side",
                                    "--force-conflicts",
                                    "-f",
                                    "dry-apply.yaml",
                                    "--dry-run=server")
                            .stdoutText());
            quiet.assertNothingHappened();
        }
        assertEquals(version, resourceVersion(ns, "configmap/applied"));
        assertEquals("one", value(ns, "configmap/applied"));
    }

    @Test
    void patchShowsThePatchedObjectAndStoresNothing() {
        String ns = namespace("dry-patch");
        SERVER.write("dry-patch.yaml", configMap(ns, "patched", "one"));
        ok("create", "-f", "dry-patch.yaml");
        String version = resourceVersion(ns, "configmap/patched");
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            // kubectl patch, unlike create, apply and delete, adds no "(server dry run)" to its
            // message.
            ProcessResult patched =
                    ok(
                            "patch",
                            "-n",
                            ns,
                            "configmap/patched",
                            "-p",
                            "{\"data\":{\"key\":\"two\"}}",
                            "--dry-run=server",
                            "-v=6");
            assertEquals("configmap/patched patched", patched.stdoutText());
            List<LoggedRequests.Exchange> writes = LoggedRequests.of(patched, "PATCH");
            assertEquals(1, writes.size(), patched.describe());
            assertEquals("All", writes.get(0).query("dryRun"), writes.get(0).url());
            assertEquals(
                    "two",
                    ok(
                                    "patch",
                                    "-n",
                                    ns,
                                    "configmap/patched",
                                    "--type=merge",
                                    "-p",
                                    "{\"data\":{\"key\":\"two\"}}",
                                    "--dry-run=server",
                                    "-o",
                                    "jsonpath={.data.key}")
                            .stdoutText(),
                    "the answer is the object as it would be");
            quiet.assertNothingHappened();
        }
        assertEquals(version, resourceVersion(ns, "configmap/patched"));
        assertEquals("one", value(ns, "configmap/patched"));
    }

    @Test
    void deleteLeavesTheObject() {
        String ns = namespace("dry-delete");
        SERVER.write("dry-delete.yaml", configMap(ns, "kept", "one"));
        ok("create", "-f", "dry-delete.yaml");
        String version = resourceVersion(ns, "configmap/kept");
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            ProcessResult deleted = ok("delete", "-n", ns, "configmap/kept", "--dry-run=server");
            assertEquals(
                    "configmap \"kept\" deleted from " + ns + " namespace (server dry run)",
                    deleted.stdoutText());
            quiet.assertNothingHappened();
        }
        assertEquals(version, resourceVersion(ns, "configmap/kept"));
    }

    @Test
    void deleteAllLeavesEveryObject() {
        String ns = namespace("dry-delete-all");
        SERVER.write(
                "dry-delete-all.yaml",
                configMap(ns, "first", "one") + "---\n" + configMap(ns, "second", "two"));
        ok("create", "-f", "dry-delete-all.yaml");
        String first = resourceVersion(ns, "configmap/first");
        String second = resourceVersion(ns, "configmap/second");
        try (Quiet quiet = Quiet.watchingConfigMaps(ns)) {
            ProcessResult deleted =
                    ok("delete", "configmaps", "--all", "-n", ns, "--dry-run=server");
            assertTrue(
                    deleted.stdout()
                            .lines()
                            .toList()
                            .containsAll(
                                    List.of(
                                            "configmap \"first\" deleted from "
                                                    + ns
                                                    + " namespace (server dry run)",
                                            "configmap \"second\" deleted from "
                                                    + ns
                                                    + " namespace (server dry run)",
                                            "configmap \"marker\" deleted from "
                                                    + ns
                                                    + " namespace (server dry run)")),
                    deleted.describe());
            quiet.assertNothingHappened();
        }
        assertEquals(first, resourceVersion(ns, "configmap/first"));
        assertEquals(second, resourceVersion(ns, "configmap/second"));
    }

    @Test
    void scaleLeavesTheReplicas() {
        String ns = namespace("dry-scale");
        SERVER.write(
                "dry-scale.yaml",
                """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: %s
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - {name: app, image: nginx:1.27}
                """
                        .formatted(ns));
        ok("create", "-f", "dry-scale.yaml");
        String version = resourceVersion(ns, "deployment/web");
        try (Quiet quiet = Quiet.watching(ns, "deployments", "web")) {
            ProcessResult scaled =
                    ok(
                            "scale",
                            "-n",
                            ns,
                            "deployment/web",
                            "--replicas=5",
                            "--dry-run=server",
                            "-v=6");
            assertEquals("deployment.apps/web scaled (server dry run)", scaled.stdoutText());
            List<LoggedRequests.Exchange> writes = LoggedRequests.of(scaled, "PATCH");
            assertEquals(1, writes.size(), scaled.describe());
            assertTrue(
                    writes.get(0).url().contains("/deployments/web/scale?"), writes.get(0).url());
            assertEquals("All", writes.get(0).query("dryRun"), writes.get(0).url());
            // Before the fence, which labels this very deployment.
            assertEquals(version, resourceVersion(ns, "deployment/web"));
            quiet.assertNothingHappened();
        }
        assertEquals(
                "2",
                ok("get", "-n", ns, "deployment/web", "-o", "jsonpath={.spec.replicas}")
                        .stdoutText());
    }

    // ---------------------------------------------------------------- helpers

    /**
     * A kubectl watch of one kind in a namespace, live (it printed every object there) before the
     * dry runs start, and the kind's latest resourceVersion at that moment. {@link
     * #assertNothingHappened} then makes one real write — a label on {@code fence} — and proves
     * that it got the next version and that the watch printed nothing before it.
     */
    private static final class Quiet implements AutoCloseable {
        private final String ns;
        private final String resource;
        private final String fence;
        private final RunningProcess watch;
        private final long latest;
        private final int initialLines;

        private Quiet(
                String ns,
                String resource,
                String fence,
                RunningProcess watch,
                long latest,
                int initialLines) {
            this.ns = ns;
            this.resource = resource;
            this.fence = fence;
            this.watch = watch;
            this.latest = latest;
            this.initialLines = initialLines;
        }

        /**
         * Watches {@code resource} in {@code ns}, which must hold the object {@code fence} of it.
         */
        static Quiet watching(String ns, String resource, String fence) {
            List<String> names =
                    ok("get", resource, "-n", ns, "-o", "name")
                            .stdout()
                            .lines()
                            .map(l -> l.substring(l.indexOf('/') + 1))
                            .toList();
            assertTrue(names.contains(fence), fence + " in " + names);
            RunningProcess watch =
                    SERVER.kubectl()
                            .start("get", resource, "-n", ns, "-w", "--output-watch-events");
            for (String name : names) {
                watch.awaitLine(l -> l.matches("ADDED\\s+" + name + "\\s.*"), WITHIN);
            }
            return new Quiet(
                    ns, resource, fence, watch, latestVersion(ns, resource), watch.lines().size());
        }

        /** A watched namespace's ConfigMaps, with a marker ConfigMap as the fence. */
        static Quiet watchingConfigMaps(String ns) {
            if (SERVER.kubectl().run("get", "-n", ns, "configmap/marker").exitCode() != 0) {
                ok("create", "configmap", "marker", "-n", ns);
            }
            return watching(ns, "configmaps", "marker");
        }

        void assertNothingHappened() {
            ok("label", resource + "/" + fence, "-n", ns, "--overwrite", "fence=" + latest);
            long written = Long.parseLong(resourceVersion(ns, resource + "/" + fence));
            // On a cluster, sharding may move the kind's sequencer while the test runs (rebalancing
            // after the
            // shared cluster formed); its successor starts at the next block of 1,000 versions,
            // never within the
            // block the dry runs would have used.
            boolean movedToTheNextBlock =
                    LocalServerCluster.requested() && (written - 1) / 1000 > latest / 1000;
            if (!movedToTheNextBlock) {
                assertEquals(
                        latest + 1,
                        written,
                        "the first real write after the dry runs gets the next resourceVersion");
            }
            watch.awaitLine(l -> l.matches("MODIFIED\\s+" + fence + "\\s.*"), WITHIN);
            List<String> seen = watch.lines();
            List<String> between =
                    seen.subList(initialLines, seen.size()).stream()
                            .takeWhile(l -> !l.matches("MODIFIED\\s+" + fence + "\\s.*"))
                            .toList();
            assertEquals(List.of(), between, "no watch event before the fence's: " + seen);
        }

        @Override
        public void close() {
            watch.close();
        }
    }

    /**
     * The latest committed resourceVersion of a kind, as the server's list reports it (read raw:
     * kubectl's own {@code get} of a list prints a List of its making, without that version).
     */
    private static long latestVersion(String ns, String resource) {
        String path =
                switch (resource) {
                    case "configmaps" -> "/api/v1/namespaces/" + ns + "/configmaps";
                    case "deployments" -> "/apis/apps/v1/namespaces/" + ns + "/deployments";
                    default -> throw new IllegalArgumentException(resource);
                };
        return yaml(ok("get", "--raw", path)).at("/metadata/resourceVersion").asLong();
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static String namespace(String name) {
        return SERVER.namespace(name);
    }

    private static String resourceVersion(String ns, String object) {
        return ok("get", "-n", ns, object, "-o", "jsonpath={.metadata.resourceVersion}")
                .stdoutText();
    }

    private static String value(String ns, String object) {
        return ok("get", "-n", ns, object, "-o", "jsonpath={.data.key}").stdoutText();
    }

    private static void assertNotFound(String ns, String object) {
        ProcessResult get = SERVER.kubectl().run("get", "-n", ns, object);
        assertEquals(1, get.exitCode(), get.describe());
        assertTrue(get.stderrText().contains("NotFound"), get.describe());
    }

    private static JsonNode yaml(ProcessResult result) {
        try {
            return YAML.readTree(result.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
