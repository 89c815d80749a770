package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.LoggedRequests;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's server-side apply ({@code kubectl apply --server-side}): create (201) and
 * configure (200) of a ConfigMap and a Deployment with kubectl recorded as the applier, a second
 * manager's conflict and {@code --force-conflicts}, and the migration of an object made by
 * client-side apply (CLIENT-CONTRACT §4.7), which must happen once. Each test uses a namespace of
 * its own.
 */
class KubectlServerSideApplyE2E {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    private static String configMap(String ns, String key, String other) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                  namespace: %s
                  labels: {app: demo}
                data:
                  key: %s
                  other: %s
                """
                .formatted(ns, key, other);
    }

    /**
     * A container port without a protocol: the server's default (TCP) is part of the port's key.
     */
    private static String deployment(String ns, int replicas, String image) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  namespace: %s
                  labels: {app: web}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - name: app
                        image: %s
                        ports:
                        - containerPort: 8080
                        env:
                        - {name: MODE, value: fast}
                """
                .formatted(ns, replicas, image);
    }

    @Test
    void serverSideApplyCreatesThenConfiguresWithKubectlAsTheApplier() {
        String ns = namespace("ssa-basic");
        write("cm.yaml", configMap(ns, "one", "x"));
        write("web.yaml", deployment(ns, 2, "nginx:1.27"));

        ProcessResult created =
                ok("apply", "--server-side", "-f", "cm.yaml", "-f", "web.yaml", "-v=6");
        assertEquals(
                List.of(
                        "configmap/settings serverside-applied",
                        "deployment.apps/web serverside-applied"),
                created.stdout().lines().toList(),
                created.describe());
        assertEquals(
                List.of(201, 201),
                statuses(LoggedRequests.of(created, "PATCH")),
                created.describe());
        for (LoggedRequests.Exchange e : LoggedRequests.of(created, "PATCH")) {
            assertEquals("kubectl", e.query("fieldManager"), e.url());
            assertEquals("false", e.query("force"), e.url());
        }

        write("cm.yaml", configMap(ns, "two", "x"));
        write("web.yaml", deployment(ns, 3, "nginx:1.28"));
        ProcessResult configured =
                ok("apply", "--server-side", "-f", "cm.yaml", "-f", "web.yaml", "-v=6");
        assertEquals(
                List.of(200, 200),
                statuses(LoggedRequests.of(configured, "PATCH")),
                configured.describe());

        JsonNode cm = get(ns, "configmap/settings");
        assertEquals("two", cm.at("/data/key").asText());
        JsonNode cmManagers = cm.at("/metadata/managedFields");
        assertEquals(1, cmManagers.size(), cmManagers.toString());
        assertManager(cmManagers.get(0), "kubectl", "Apply");
        assertEquals(
                json("{'f:data':{'f:key':{},'f:other':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                cmManagers.get(0).path("fieldsV1"));

        JsonNode web = get(ns, "deployment/web");
        assertEquals(3, web.at("/spec/replicas").asInt());
        JsonNode container = web.at("/spec/template/spec/containers/0");
        assertEquals("nginx:1.28", container.path("image").asText());
        assertEquals(
                json("[{'containerPort':8080,'protocol':'TCP'}]"),
                container.path("ports"),
                "the applied port (no protocol) is the live one, not a second port");
        JsonNode webManagers = web.at("/metadata/managedFields");
        assertEquals(1, webManagers.size(), webManagers.toString());
        assertManager(webManagers.get(0), "kubectl", "Apply");
        JsonNode appliedContainer =
                webManagers
                        .get(0)
                        .at("/fieldsV1/f:spec/f:template/f:spec/f:containers")
                        .path("k:{\"name\":\"app\"}");
        assertEquals(
                json("{'.':{},'f:containerPort':{}}"),
                appliedContainer
                        .at("/f:ports")
                        .path("k:{\"containerPort\":8080,\"protocol\":\"TCP\"}"));
        assertFalse(appliedContainer.has("f:imagePullPolicy"), "a default is not the applier's");

        // The same configuration again changes nothing: no new resourceVersion.
        String rv = web.at("/metadata/resourceVersion").asText();
        ok("apply", "--server-side", "-f", "web.yaml");
        assertEquals(rv, get(ns, "deployment/web").at("/metadata/resourceVersion").asText());
    }

    @Test
    void anotherManagerConflictsUntilItForcesAndThenOwnsTheField() {
        String ns = namespace("ssa-conflict");
        write("cm.yaml", configMap(ns, "one", "x"));
        ok("apply", "--server-side", "-f", "cm.yaml");

        write("other.yaml", configMap(ns, "theirs", "x"));
        ProcessResult refused =
                kubectl()
                        .run("apply", "--server-side", "--field-manager=other", "-f", "other.yaml");
        assertEquals(1, refused.exitCode(), refused.describe());
        List<String> lines = refused.stderr().lines().toList();
        assertEquals(
                "error: Apply failed with 1 conflict: conflict with \"kubectl\": .data.key",
                lines.get(0),
                refused.describe());
        assertEquals(
                "Please review the fields above--they currently have other managers. Here",
                lines.get(1));
        assertTrue(
                refused.stderr()
                        .contains("re-run the apply\n  command with the `--force-conflicts` flag."),
                refused.describe());
        assertTrue(
                refused.stderr()
                        .contains(
                                "See https://kubernetes.io/docs/reference/using-api/server-side-apply/"
                                        + "#conflicts"),
                refused.describe());
        assertEquals(
                "one",
                get(ns, "configmap/settings").at("/data/key").asText(),
                "nothing was written");

        ProcessResult forced =
                ok(
                        "apply",
                        "--server-side",
                        "--field-manager=other",
                        "--force-conflicts",
                        "-f",
                        "other.yaml",
                        "-v=6");
        assertEquals(
                "true",
                LoggedRequests.of(forced, "PATCH").get(0).query("force"),
                forced.describe());
        JsonNode cm = get(ns, "configmap/settings");
        assertEquals("theirs", cm.at("/data/key").asText());
        JsonNode kubectlEntry = entry(cm, "kubectl", "Apply");
        JsonNode otherEntry = entry(cm, "other", "Apply");
        // .data.key moved to "other"; .data.other and the label, applied with equal values, are
        // shared.
        assertEquals(
                json("{'f:data':{'f:other':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                kubectlEntry.path("fieldsV1"));
        assertEquals(
                json("{'f:data':{'f:key':{},'f:other':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                otherEntry.path("fieldsV1"));

        // Now kubectl is the one that conflicts.
        ProcessResult back = kubectl().run("apply", "--server-side", "-f", "cm.yaml");
        assertEquals(1, back.exitCode(), back.describe());
        assertTrue(
                back.stderr()
                        .startsWith(
                                "error: Apply failed with 1 conflict: conflict with \"other\": .data.key"),
                back.describe());
    }

    @Test
    void serverSideApplyTakesOverFromClientSideApplyOnce() {
        String ns = namespace("ssa-migrate");
        write("cm.yaml", configMap(ns, "one", "x"));
        assertEquals("configmap/settings created", ok("apply", "-f", "cm.yaml").stdoutText());
        JsonNode csa = get(ns, "configmap/settings");
        entry(csa, "kubectl-client-side-apply", "Update");

        // A changed manifest: kubectl's server-side apply may change what client-side apply set.
        write("cm.yaml", configMap(ns, "two", "x"));
        ProcessResult migrated = ok("apply", "--server-side", "-f", "cm.yaml", "-v=6");
        assertEquals(
                "configmap/settings serverside-applied",
                migrated.stdoutText(),
                migrated.describe());
        List<String> managers = new ArrayList<>();
        for (LoggedRequests.Exchange e : LoggedRequests.of(migrated, "PATCH")) {
            assertEquals(200, e.status(), e.url());
            managers.add(e.query("fieldManager"));
        }
        // The apply, the annotation saved by its own manager, the managedFields migration, the
        // apply again.
        assertEquals(
                List.of("kubectl", "kubectl-last-applied", "kubectl", "kubectl"),
                managers,
                migrated.describe());

        JsonNode cm = get(ns, "configmap/settings");
        assertEquals(json("{'key':'two','other':'x'}"), cm.path("data"));
        assertEquals(json("{'app':'demo'}"), cm.at("/metadata/labels"));
        JsonNode fields = cm.at("/metadata/managedFields");
        assertEquals(2, fields.size(), fields.toString());
        assertManager(fields.get(0), "kubectl", "Apply");
        assertEquals(
                json("{'f:data':{'f:key':{},'f:other':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                fields.get(0).path("fieldsV1"));
        assertManager(fields.get(1), "kubectl-last-applied", "Apply");
        assertEquals(
                json("{'f:metadata':{'f:annotations':{'f:" + LAST_APPLIED + "':{}}}}"),
                fields.get(1).path("fieldsV1"));
        JsonNode lastApplied = parse(cm.at("/metadata/annotations").path(LAST_APPLIED).asText());
        assertEquals(
                "two",
                lastApplied.at("/data/key").asText(),
                "the server keeps the annotation current");

        // Migrated for good: the next apply is one PATCH, and the annotation follows it.
        write("cm.yaml", configMap(ns, "three", "x"));
        ProcessResult settled = ok("apply", "--server-side", "-f", "cm.yaml", "-v=6");
        assertEquals(1, LoggedRequests.of(settled, "PATCH").size(), settled.describe());
        JsonNode after = get(ns, "configmap/settings");
        assertEquals("three", after.at("/data/key").asText());
        assertEquals(
                "three",
                parse(after.at("/metadata/annotations").path(LAST_APPLIED).asText())
                        .at("/data/key")
                        .asText());
        assertEquals(
                2,
                after.at("/metadata/managedFields").size(),
                after.at("/metadata/managedFields").toString());
    }

    // ---------------------------------------------------------------- helpers

    private static List<Integer> statuses(List<LoggedRequests.Exchange> exchanges) {
        return exchanges.stream().map(LoggedRequests.Exchange::status).toList();
    }

    private static void assertManager(JsonNode entry, String manager, String operation) {
        assertEquals(manager, entry.path("manager").asText(), entry.toString());
        assertEquals(operation, entry.path("operation").asText(), entry.toString());
    }

    /**
     * The one managedFields entry of {@code manager} and {@code operation}; fails if there is none.
     */
    private static JsonNode entry(JsonNode object, String manager, String operation) {
        for (JsonNode e : object.at("/metadata/managedFields")) {
            if (e.path("manager").asText().equals(manager)
                    && e.path("operation").asText().equals(operation)) {
                return e;
            }
        }
        throw new AssertionError(
                "no "
                        + manager
                        + " "
                        + operation
                        + " entry in "
                        + object.at("/metadata/managedFields"));
    }

    private static JsonNode get(String ns, String object) {
        return parse(ok("get", "-n", ns, object, "-o", "json", "--show-managed-fields").stdout());
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(String singleQuoted) {
        return parse(singleQuoted.replace('\'', '"'));
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
