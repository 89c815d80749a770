package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RunningProcess;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real kubectl's human-readable output, which comes from the server's Tables: the column
 * headers users know for each kind, {@code -o wide}, {@code -A}, {@code --show-labels}, cells
 * derived from status (a pending pod, a deployment's readiness) and {@code get -w} rows.
 */
class KubectlTableE2E {
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String NS = "tables";

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    private static boolean objectsCreated;

    /** The objects every test prints, created once with the real kubectl. */
    @BeforeEach
    void requireKubectlAndObjects() {
        if (objectsCreated) {
            return;
        }
        objectsCreated = true;
        apply("ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + NS + "\n");
        apply(
                "objects.yaml",
                """
                apiVersion: v1
                kind: Pod
                metadata: {name: web-0, namespace: tables, labels: {app: web}}
                spec:
                  containers: [{name: app, image: nginx:1.27}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: tables}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: app, image: nginx:1.27}]
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: web, namespace: tables}
                spec:
                  selector: {app: web}
                  ports: [{port: 80, protocol: TCP}]
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings, namespace: tables, labels: {tier: config}}
                data: {a: "1", b: "2"}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: token, namespace: tables}
                type: Opaque
                stringData: {password: s3cret}
                ---
                apiVersion: v1
                kind: Event
                metadata: {name: web-0.started, namespace: tables}
                involvedObject: {kind: Pod, name: web-0, namespace: tables}
                reason: Started
                message: Started container app
                type: Normal
                count: 1
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: worker-1, labels: {node-role.kubernetes.io/worker: ""}}
                """);
        // kubectl creates the autoscaler through autoscaling/v2, reading the deployment first.
        ok("autoscale", "deployment", "web", "-n", NS, "--max=5", "--cpu-percent=60");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "pods         | NAME READY STATUS RESTARTS AGE",
                "deployments  | NAME READY UP-TO-DATE AVAILABLE AGE",
                "services     | NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE",
                "configmaps   | NAME DATA AGE",
                "secrets      | NAME TYPE DATA AGE",
                "events       | LAST SEEN TYPE REASON OBJECT MESSAGE",
                // The same events through events.k8s.io/v1, printed with the same columns.
                "events.v1.events.k8s.io | LAST SEEN TYPE REASON OBJECT MESSAGE",
                "hpa          | NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE",
                // The same autoscaler through autoscaling/v1, printed with the same columns.
                "horizontalpodautoscalers.v1.autoscaling | NAME REFERENCE TARGETS MINPODS MAXPODS"
                        + " REPLICAS AGE"
            })
    void namespacedKindsPrintTheirColumns(String resource, String header) {
        ProcessResult result = ok("get", resource, "-n", NS);
        assertEquals(
                header, words(result.stdout().lines().findFirst().orElse("")), result.describe());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "nodes        | NAME STATUS ROLES AGE VERSION",
                "namespaces   | NAME STATUS AGE"
            })
    void clusterKindsPrintTheirColumns(String resource, String header) {
        ProcessResult result = ok("get", resource);
        assertEquals(
                header, words(result.stdout().lines().findFirst().orElse("")), result.describe());
    }

    @Test
    void aCoreEventReadsThroughEventsV1UnderItsNewNames() {
        ProcessResult result =
                ok(
                        "get",
                        "events.v1.events.k8s.io",
                        "web-0.started",
                        "-n",
                        NS,
                        "-o",
                        "jsonpath={.apiVersion} {.note} {.regarding.name} {.deprecatedCount}");
        assertEquals("events.k8s.io/v1 Started container app web-0 1", result.stdout().trim());
    }

    /** {@code kubectl events} lists the event {@code get events.v1.events.k8s.io} reads above. */
    @Test
    void kubectlEventsListsTheSameEvent() {
        ProcessResult result = ok("events", "-n", NS);
        String row =
                result.stdout()
                        .lines()
                        .filter(line -> line.contains("Pod/web-0"))
                        .findFirst()
                        .orElse("");
        assertTrue(
                row.contains("Normal")
                        && row.contains("Started")
                        && row.contains("Started container app"),
                result.describe());
    }

    @Test
    void anAutoscalerMadeThroughV2ReadsThroughV1() {
        assertEquals(
                "web Deployment/web cpu: <unknown>/60% 1 5 0",
                firstCells(ok("get", "hpa", "web", "-n", NS), 7));
        assertEquals(
                firstCells(ok("get", "hpa", "web", "-n", NS), 7),
                firstCells(
                        ok("get", "horizontalpodautoscalers.v1.autoscaling", "web", "-n", NS), 7));
        ProcessResult result =
                ok(
                        "get",
                        "horizontalpodautoscalers.v1.autoscaling",
                        "web",
                        "-n",
                        NS,
                        "-o",
                        "jsonpath={.apiVersion} {.spec.targetCPUUtilizationPercentage}"
                                + " {.spec.scaleTargetRef.name}");
        assertEquals("autoscaling/v1 60 web", result.stdout().trim());
    }

    @Test
    void cellsAreDerivedFromTheObjects() {
        assertEquals("web-0 0/1 Pending 0", firstCells(ok("get", "pod", "web-0", "-n", NS), 4));
        assertEquals("web 0/2 0 0", firstCells(ok("get", "deployment", "web", "-n", NS), 4));
        assertEquals("settings 2", firstCells(ok("get", "cm", "settings", "-n", NS), 2));
        assertEquals("token Opaque 1", firstCells(ok("get", "secret", "token", "-n", NS), 3));
        assertEquals("worker-1 Unknown worker", firstCells(ok("get", "node", "worker-1"), 3));
        String svc = firstCells(ok("get", "svc", "web", "-n", NS), 5);
        assertTrue(svc.matches("web ClusterIP \\S+ <none> 80/TCP"), svc);
    }

    @Test
    void wideOutputAddsThePriorityColumns() {
        ProcessResult pods = ok("get", "pods", "-n", NS, "-o", "wide");
        assertEquals(
                "NAME READY STATUS RESTARTS AGE IP NODE NOMINATED NODE READINESS GATES",
                words(pods.stdout().lines().findFirst().orElse("")),
                pods.describe());
        ProcessResult deployments = ok("get", "deployments", "-n", NS, "-o", "wide");
        assertEquals(
                "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR",
                words(deployments.stdout().lines().findFirst().orElse("")),
                deployments.describe());
        assertTrue(
                deployments.stdout().contains("nginx:1.27")
                        && deployments.stdout().contains("app=web"),
                deployments.describe());
    }

    @Test
    void allNamespacesAddsTheNamespaceColumnFromTheRowObjects() {
        ProcessResult result = ok("get", "pods", "-A");
        assertTrue(
                words(result.stdout().lines().findFirst().orElse(""))
                        .startsWith("NAMESPACE NAME READY"),
                result.describe());
        assertTrue(
                result.stdout()
                        .lines()
                        .anyMatch(l -> l.matches("tables\\s+web-0\\s+0/1\\s+Pending.*")),
                result.describe());
    }

    @Test
    void showLabelsAddsTheLabelsFromTheRowObjects() {
        ProcessResult result = ok("get", "cm", "settings", "-n", NS, "--show-labels");
        assertTrue(
                words(result.stdout().lines().findFirst().orElse("")).endsWith("AGE LABELS"),
                result.describe());
        assertTrue(
                result.stdout()
                        .lines()
                        .anyMatch(l -> l.startsWith("settings") && l.endsWith("tier=config")),
                result.describe());
    }

    @Test
    void watchPrintsARowPerEventUnderOneHeader() {
        write(
                "cm-watched.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: watched\n  namespace: "
                        + NS
                        + "\ndata:\n  k: v\n");
        try (RunningProcess watch =
                kubectl().start("get", "cm", "-n", NS, "-w", "--output-watch-events", "-v=6")) {
            watch.awaitErrorLine(l -> l.contains("watch=true") && l.contains("200 OK"), WITHIN);
            ok("create", "-f", "cm-watched.yaml");
            watch.awaitLine(l -> l.matches("ADDED\\s+watched\\s+1\\s+\\d+s"), WITHIN);
            ok("label", "cm", "watched", "-n", NS, "x=y");
            watch.awaitLine(l -> l.matches("MODIFIED\\s+watched\\s+1\\s+\\d+s"), WITHIN);
            ok("delete", "cm", "watched", "-n", NS);
            watch.awaitLine(l -> l.matches("DELETED\\s+watched\\s+1\\s+\\d+s"), WITHIN);
            assertEquals(
                    1,
                    watch.lines().stream().filter(l -> l.startsWith("EVENT")).count(),
                    watch.lines().toString());
        }
    }

    // ---------------------------------------------------------------- helpers

    /** A line's words, single-spaced (kubectl pads columns with runs of spaces). */
    private static String words(String line) {
        return line.trim().replaceAll("\\s+", " ");
    }

    /** The first {@code n} cells of the first row. */
    private static String firstCells(ProcessResult result, int n) {
        String row = result.stdout().lines().skip(1).findFirst().orElse("");
        return String.join(
                " ",
                Arrays.asList(row.trim().split("\\s+"))
                        .subList(0, Math.min(n, row.trim().split("\\s+").length)));
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static void apply(String file, String content) {
        write(file, content);
        ok("create", "-f", file);
    }

    private static void write(String file, String content) {
        SERVER.write(file, content);
    }
}
