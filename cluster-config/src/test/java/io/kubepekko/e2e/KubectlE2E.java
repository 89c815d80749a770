package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real kubectl v1.35 against one in-process API server: every command a user types most, with
 * the exact text kubectl prints, success and error alike. Each test works on objects of its own, so
 * the tests do not depend on one another's order.
 */
class KubectlE2E {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();

    @RegisterExtension static final InProcessServer SERVER = InProcessServer.onSharedCluster();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    /**
     * Where objects without a namespace go: {@code default}, or the class's own on the shared
     * cluster.
     */
    private static String defaultNamespace() {
        return SERVER.defaultNamespace();
    }

    // ---------------------------------------------------------------- discovery

    @Test
    void versionReportsServerVersion() {
        ProcessResult result = ok("version");
        assertTrue(
                result.stdout().lines().anyMatch("Server Version: v1.35.0"::equals),
                result.describe());
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "bindings,               '',     v1,      true,  Binding",
        "configmaps,             cm,     v1,      true,  ConfigMap",
        "pods,                   po,     v1,      true,  Pod",
        "services,               svc,    v1,      true,  Service",
        "namespaces,             ns,     v1,      false, Namespace",
        "nodes,                  no,     v1,      false, Node",
        "serviceaccounts,        sa,     v1,      true,  ServiceAccount",
        "persistentvolumeclaims, pvc,    v1,      true,  PersistentVolumeClaim",
        "deployments,            deploy, apps/v1, true,  Deployment",
        "replicasets,            rs,     apps/v1, true,  ReplicaSet",
        "statefulsets,           sts,    apps/v1, true,  StatefulSet",
        "daemonsets,             ds,     apps/v1, true,  DaemonSet",
        "cronjobs,               cj,     batch/v1, true, CronJob",
    })
    void apiResourcesListsShortNames(
            String resource, String shortName, String apiVersion, String namespaced, String kind) {
        ProcessResult result = ok("api-resources");
        assertTrue(result.stdout().startsWith("NAME"), result.describe());
        Pattern row =
                Pattern.compile(
                        Pattern.quote(resource)
                                + "\\s+"
                                + Pattern.quote(shortName)
                                + "\\s+"
                                + Pattern.quote(apiVersion)
                                + "\\s+"
                                + namespaced
                                + "\\s+"
                                + kind);
        assertTrue(
                result.stdout().lines().anyMatch(line -> row.matcher(line).matches()),
                result.describe());
    }

    @ParameterizedTest(name = "{0} in category all: {1}")
    @CsvSource({"pods, true", "deployments, true", "services, true", "configmaps, false"})
    void apiResourcesShowsCategories(String resource, boolean inAll) {
        ProcessResult result = ok("api-resources", "-o", "wide");
        String line =
                result.stdout()
                        .lines()
                        .filter(l -> l.startsWith(resource + " "))
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "no row for "
                                                        + resource
                                                        + "\n"
                                                        + result.describe()));
        assertEquals(inAll, line.matches(".*\\sall$"), line);
    }

    @Test
    void apiVersionsListsServedGroupVersions() {
        List<String> versions = ok("api-versions").stdout().lines().toList();
        assertTrue(
                versions.containsAll(
                        List.of(
                                "v1",
                                "apps/v1",
                                "autoscaling/v1",
                                "autoscaling/v2",
                                "batch/v1",
                                "coordination.k8s.io/v1",
                                "events.k8s.io/v1",
                                "networking.k8s.io/v1",
                                "policy/v1",
                                "rbac.authorization.k8s.io/v1")),
                versions.toString());
    }

    // ---------------------------------------------------------------- auth

    /**
     * The kubeconfig's user is the admin of the server's client CA, kubeadm's: {@code
     * kubernetes-admin} in {@code system:masters}, and authenticated.
     */
    @Test
    void authWhoamiPrintsTheAdminOfTheKubeconfig() {
        ProcessResult result = ok("auth", "whoami");
        List<String> lines = result.stdout().lines().map(String::strip).toList();
        assertTrue(
                lines.stream().anyMatch(l -> l.matches("Username\\s+kubernetes-admin")),
                result.describe());
        assertTrue(
                lines.stream()
                        .anyMatch(
                                l ->
                                        l.matches(
                                                "Groups\\s+\\[system:masters"
                                                        + " system:authenticated\\]")),
                result.describe());
    }

    /** {@code system:masters} may do anything, and its rules say so as kube's do. */
    @Test
    void authCanIAnswersYesForTheAdmin() {
        ProcessResult result = ok("auth", "can-i", "create", "pods");
        assertEquals("yes", result.stdout().strip(), result.describe());
        ProcessResult list = ok("auth", "can-i", "--list");
        assertTrue(
                list.stdout()
                        .lines()
                        .anyMatch(l -> l.matches("\\*\\.\\*\\s+\\[\\]\\s+\\[\\]\\s+\\[\\*\\]")),
                list.describe());
    }

    // ---------------------------------------------------------------- create and get

    /** One manifest for {@code create -f}, and what must come back from the server afterwards. */
    record Creation(
            String file,
            String yaml,
            String printed,
            List<String> get,
            Map<String, String> fields) {
        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Creation> creations() {
        return Stream.of(
                new Creation(
                        "create-cm.yaml",
                        """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata:
                          name: created-cm
                          labels:
                            app: created
                        data:
                          key: value
                          multi: |
                            line one
                            line two
                        """,
                        "configmap/created-cm created",
                        List.of("configmap", "created-cm"),
                        Map.of(
                                "/data/key",
                                "value",
                                "/data/multi",
                                "line one\nline two\n",
                                "/metadata/labels/app",
                                "created",
                                "/metadata/namespace",
                                defaultNamespace())),
                new Creation(
                        "create-deploy.yaml",
                        """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata:
                          name: created-web
                        spec:
                          replicas: 2
                          selector:
                            matchLabels:
                              app: created-web
                          template:
                            metadata:
                              labels:
                                app: created-web
                            spec:
                              containers:
                              - name: web
                                image: nginx:1.27
                                args: ["-g", "daemon off;"]
                                ports:
                                - name: http
                                  containerPort: 80
                                env:
                                - name: MODE
                                  value: demo
                                resources:
                                  requests:
                                    cpu: 100m
                                    memory: 64Mi
                                readinessProbe:
                                  httpGet:
                                    path: /healthz
                                    port: http
                              restartPolicy: Always
                              terminationGracePeriodSeconds: 5
                        """,
                        "deployment.apps/created-web created",
                        List.of("deployment", "created-web"),
                        Map.of(
                                "/spec/replicas",
                                "2",
                                "/spec/selector/matchLabels/app",
                                "created-web",
                                "/spec/template/spec/containers/0/image",
                                "nginx:1.27",
                                "/spec/template/spec/containers/0/args/1",
                                "daemon off;",
                                "/spec/template/spec/containers/0/ports/0/containerPort",
                                "80",
                                "/spec/template/spec/containers/0/env/0/value",
                                "demo",
                                "/spec/template/spec/containers/0/resources/requests/memory",
                                "64Mi",
                                "/spec/template/spec/containers/0/readinessProbe/httpGet/port",
                                "http",
                                "/spec/template/spec/terminationGracePeriodSeconds",
                                "5")),
                new Creation(
                        "create-svc.yaml",
                        """
                        apiVersion: v1
                        kind: Service
                        metadata:
                          name: created-svc
                        spec:
                          selector:
                            app: created-web
                          ports:
                          - name: http
                            port: 80
                            targetPort: http
                        """,
                        "service/created-svc created",
                        List.of("service", "created-svc"),
                        Map.of(
                                "/spec/ports/0/port",
                                "80",
                                "/spec/ports/0/targetPort",
                                "http",
                                "/spec/selector/app",
                                "created-web")),
                new Creation(
                        "create-ns.yaml",
                        """
                        apiVersion: v1
                        kind: Namespace
                        metadata:
                          name: created-ns
                          labels:
                            team: a
                        """,
                        "namespace/created-ns created",
                        List.of("namespace", "created-ns"),
                        Map.of("/metadata/name", "created-ns", "/metadata/labels/team", "a")),
                new Creation(
                        "create-clusterrole.yaml",
                        """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata:
                          name: created-reader
                        rules:
                        - apiGroups: [""]
                          resources: ["configmaps"]
                          verbs: ["get", "list", "watch"]
                        """,
                        "clusterrole.rbac.authorization.k8s.io/created-reader created",
                        List.of("clusterrole", "created-reader"),
                        Map.of(
                                "/rules/0/resources/0",
                                "configmaps",
                                "/rules/0/verbs/2",
                                "watch",
                                "/rules/0/apiGroups/0",
                                "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("creations")
    void createsFromFileWithDefaultValidation(Creation creation) {
        write(creation.file(), creation.yaml());
        assertEquals(creation.printed(), ok("create", "-f", creation.file()).stdoutText());

        JsonNode stored = json(concat(List.of("get"), creation.get(), List.of("-o", "json")));
        creation.fields()
                .forEach(
                        (pointer, expected) ->
                                assertEquals(
                                        expected,
                                        stored.at(pointer).asText(),
                                        pointer + " in " + stored.toPrettyString()));
        assertTrue(stored.at("/metadata/uid").asText().length() >= 32, stored.toPrettyString());
        assertTrue(
                stored.at("/metadata/resourceVersion").asText().matches("[0-9]+"),
                stored.toPrettyString());
        assertTrue(
                stored.at("/metadata/creationTimestamp")
                        .asText()
                        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"),
                stored.toPrettyString());
    }

    @Test
    void getPrintsYaml() throws IOException {
        createConfigMap("as-yaml", defaultNamespace(), Map.of("app", "fmt"));
        ProcessResult result = ok("get", "configmap", "as-yaml", "-o", "yaml");
        List<String> lines = result.stdout().lines().toList();
        assertTrue(
                lines.containsAll(
                        List.of(
                                "apiVersion: v1",
                                "kind: ConfigMap",
                                "metadata:",
                                "  name: as-yaml",
                                "  namespace: " + defaultNamespace(),
                                "data:",
                                "  key: value",
                                "  labels:",
                                "    app: fmt")),
                result.describe());
        assertTrue(
                lines.stream().anyMatch(l -> l.matches("  resourceVersion: \"[0-9]+\"")),
                result.describe());
        JsonNode parsed = YAML.readTree(result.stdout());
        assertEquals("as-yaml", parsed.at("/metadata/name").asText());
    }

    @Test
    void getPrintsJson() {
        createConfigMap("as-json", defaultNamespace(), Map.of("app", "fmt"));
        JsonNode parsed = json(List.of("get", "cm", "as-json", "-o", "json"));
        assertEquals("v1", parsed.path("apiVersion").asText());
        assertEquals("ConfigMap", parsed.path("kind").asText());
        assertEquals("as-json", parsed.at("/metadata/name").asText());
        assertEquals("fmt", parsed.at("/metadata/labels/app").asText());
        assertEquals("value", parsed.at("/data/key").asText());
    }

    @Test
    void getPrintsName() {
        createConfigMap("as-name", defaultNamespace(), Map.of());
        assertEquals("configmap/as-name", ok("get", "cm", "as-name", "-o", "name").stdoutText());
    }

    @Test
    void getAcrossAllNamespacesPrintsNamespaceColumn() {
        createNamespace("e2e-all-ns");
        createConfigMap("everywhere", defaultNamespace(), Map.of());
        createConfigMap("everywhere", "e2e-all-ns", Map.of());

        ProcessResult result = ok("get", "configmaps", "-A");
        List<String> lines = result.stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAMESPACE\\s+NAME\\s+.*AGE"), result.describe());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> l.matches(defaultNamespace() + "\\s+everywhere\\s+.*")),
                result.describe());
        assertTrue(
                lines.stream().anyMatch(l -> l.matches("e2e-all-ns\\s+everywhere\\s+.*")),
                result.describe());
    }

    @Test
    void getWithLabelSelectorListsOnlyMatchingObjects() {
        createNamespace("e2e-labels");
        createConfigMap("demo-1", "e2e-labels", Map.of("app", "demo"));
        createConfigMap("demo-2", "e2e-labels", Map.of("app", "demo", "tier", "web"));
        createConfigMap("other", "e2e-labels", Map.of("app", "other"));
        createConfigMap("unlabelled", "e2e-labels", Map.of());

        assertEquals(
                "configmap/demo-1\nconfigmap/demo-2",
                ok("get", "cm", "-n", "e2e-labels", "-l", "app=demo", "-o", "name").stdoutText());
        ProcessResult table = ok("get", "cm", "-n", "e2e-labels", "-l", "app=demo");
        assertEquals(
                List.of("NAME", "demo-1", "demo-2"),
                table.stdout().lines().map(l -> l.split("\\s+")[0]).toList(),
                table.describe());
    }

    @Test
    void getWithFieldSelectorListsOnlyMatchingObjects() {
        createNamespace("e2e-fields");
        createConfigMap("cm1", "e2e-fields", Map.of());
        createConfigMap("cm2", "e2e-fields", Map.of());

        assertEquals(
                "configmap/cm1",
                ok(
                                "get",
                                "cm",
                                "-n",
                                "e2e-fields",
                                "--field-selector",
                                "metadata.name=cm1",
                                "-o",
                                "name")
                        .stdoutText());
    }

    // ---------------------------------------------------------------- changing objects

    @Test
    void labelAddsAndRemovesLabel() {
        createConfigMap("labelled", defaultNamespace(), Map.of("app", "demo"));

        assertEquals(
                "configmap/labelled labeled",
                ok("label", "cm", "labelled", "tier=web").stdoutText());
        assertEquals(Map.of("app", "demo", "tier", "web"), labels("labelled"));

        assertEquals(
                "configmap/labelled unlabeled",
                ok("label", "cm", "labelled", "tier-").stdoutText());
        assertEquals(Map.of("app", "demo"), labels("labelled"));
    }

    @Test
    void annotateAddsAnnotation() {
        createConfigMap("annotated", defaultNamespace(), Map.of());

        assertEquals(
                "configmap/annotated annotated",
                ok("annotate", "cm", "annotated", "note=hello world").stdoutText());
        assertEquals(
                "hello world",
                ok("get", "cm", "annotated", "-o", "jsonpath={.metadata.annotations.note}")
                        .stdout());
    }

    @Test
    void mergePatchSetsAndRemovesKeys() {
        createConfigMap("merge-patched", defaultNamespace(), Map.of());

        assertEquals(
                "configmap/merge-patched patched",
                ok(
                                "patch",
                                "cm",
                                "merge-patched",
                                "--type",
                                "merge",
                                "-p",
                                "{\"data\":{\"added\":\"1\",\"key\":null}}")
                        .stdoutText());
        assertEquals("{\"added\":\"1\"}", data("merge-patched").toString());
    }

    @Test
    void jsonPatchAppliesOperationsInOrder() {
        createConfigMap("json-patched", defaultNamespace(), Map.of());

        assertEquals(
                "configmap/json-patched patched",
                ok(
                                "patch",
                                "cm",
                                "json-patched",
                                "--type",
                                "json",
                                "-p",
                                "[{\"op\":\"test\",\"path\":\"/data/key\",\"value\":\"value\"},"
                                        + "{\"op\":\"add\",\"path\":\"/data/j\",\"value\":\"v\"},"
                                        + "{\"op\":\"replace\",\"path\":\"/data/key\",\"value\":\"new\"}]")
                        .stdoutText());
        assertEquals("{\"j\":\"v\",\"key\":\"new\"}", data("json-patched").toString());
    }

    /**
     * A JSON patch that cannot be applied is 422 Invalid with kube-apiserver's generic message and
     * no details (it wraps the patch library's error with NewGenericServerResponse), and changes
     * nothing.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "failing test    | [{\"op\":\"test\",\"path\":\"/data/key\",\"value\":\"wrong\"},"
                        + "{\"op\":\"replace\",\"path\":\"/data/key\",\"value\":\"never\"}]",
                "remove missing  | [{\"op\":\"replace\",\"path\":\"/data/key\",\"value\":\"never\"},"
                        + "{\"op\":\"remove\",\"path\":\"/data/missing\"}]",
            })
    void jsonPatchThatCannotApplyIsInvalidAndChangesNothing(String operation, String patch) {
        String name = "json-" + operation.replace(' ', '-');
        createConfigMap(name, defaultNamespace(), Map.of());

        ProcessResult result = fails("patch", "cm", name, "--type", "json", "-p", patch);
        assertEquals(
                "The request is invalid: the server rejected our request due to an error in our request",
                result.stderrText(),
                result.describe());
        assertEquals("{\"key\":\"value\"}", data(name).toString());
    }

    @Test
    void replaceFromChangedFileStoresTheNewContent() {
        write("replaced.yaml", configMapYaml("replaced", null, Map.of(), "before"));
        ok("create", "-f", "replaced.yaml");
        JsonNode before = json(List.of("get", "cm", "replaced", "-o", "json"));

        write("replaced.yaml", configMapYaml("replaced", null, Map.of("changed", "yes"), "after"));
        assertEquals(
                "configmap/replaced replaced", ok("replace", "-f", "replaced.yaml").stdoutText());

        JsonNode after = json(List.of("get", "cm", "replaced", "-o", "json"));
        assertEquals("after", after.at("/data/key").asText());
        assertEquals("yes", after.at("/metadata/labels/changed").asText());
        assertEquals(before.at("/metadata/uid"), after.at("/metadata/uid"));
        assertNotEquals(
                before.at("/metadata/resourceVersion"), after.at("/metadata/resourceVersion"));
    }

    @Test
    void deleteByNameRemovesTheObject() {
        createConfigMap("doomed", defaultNamespace(), Map.of());

        assertEquals(
                "configmap \"doomed\" deleted from " + defaultNamespace() + " namespace",
                ok("delete", "cm", "doomed").stdoutText());
        assertEquals(
                "Error from server (NotFound): configmaps \"doomed\" not found",
                fails("get", "cm", "doomed").stderrText());
    }

    @Test
    void deleteFromFileRemovesEveryObjectInIt() {
        write(
                "doomed-file.yaml",
                configMapYaml("doomed-file", null, Map.of(), "value")
                        + """
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata:
                  name: doomed-role
                rules: []
                """);
        ok("create", "-f", "doomed-file.yaml");

        ProcessResult result = ok("delete", "-f", "doomed-file.yaml");
        assertEquals(
                List.of(
                        "configmap \"doomed-file\" deleted from "
                                + defaultNamespace()
                                + " namespace",
                        "clusterrole.rbac.authorization.k8s.io \"doomed-role\" deleted"),
                result.stdout().lines().toList(),
                result.describe());
        assertEquals(
                "Error from server (NotFound): clusterroles.rbac.authorization.k8s.io \"doomed-role\" not found",
                fails("get", "clusterrole", "doomed-role").stderrText());
    }

    @Test
    void scaleSetsDeploymentReplicas() {
        write(
                "scaled.yaml",
                """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: scaled
                spec:
                  replicas: 1
                  selector:
                    matchLabels:
                      app: scaled
                  template:
                    metadata:
                      labels:
                        app: scaled
                    spec:
                      containers:
                      - name: app
                        image: busybox:1.36
                """);
        ok("create", "-f", "scaled.yaml");

        assertEquals(
                "deployment.apps/scaled scaled",
                ok("scale", "deploy/scaled", "--replicas=3").stdoutText());
        assertEquals(
                "3", ok("get", "deploy", "scaled", "-o", "jsonpath={.spec.replicas}").stdout());
    }

    // ---------------------------------------------------------------- errors, as kubectl prints
    // them

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "configmap  | Error from server (NotFound): configmaps \"nope\" not found",
                "deployment | Error from server (NotFound): deployments.apps \"nope\" not found",
                "namespace  | Error from server (NotFound): namespaces \"nope\" not found",
            })
    void getMissingObjectIsNotFound(String resource, String printed) {
        assertEquals(printed, fails("get", resource, "nope").stderrText());
    }

    /**
     * Scheduling by hand: a Binding from a file binds the pod it names. kubectl prints the Status
     * that kube-apiserver answers as {@code status/<unknown>}. Its default validation would first
     * fetch {@code /openapi/v2} (a kind without a PATCH operation is checked against it), which is
     * not served.
     */
    @Test
    void createBindingFromFileAssignsThePodAndASecondConflicts() {
        write(
                "bound-pod.yaml",
                """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: bound-by-hand
                spec:
                  containers:
                  - name: c
                    image: nginx:1.27
                """);
        ok("create", "-f", "bound-pod.yaml");
        write(
                "binding.yaml",
                """
                apiVersion: v1
                kind: Binding
                metadata:
                  name: bound-by-hand
                target:
                  apiVersion: v1
                  kind: Node
                  name: node01
                """);
        assertEquals(
                "status/<unknown> created",
                ok("create", "-f", "binding.yaml", "--validate=false").stdoutText());
        assertEquals(
                "node01",
                ok("get", "pod", "bound-by-hand", "-o", "jsonpath={.spec.nodeName}").stdoutText());
        assertEquals(
                "True",
                ok(
                                "get",
                                "pod",
                                "bound-by-hand",
                                "-o",
                                "jsonpath={.status.conditions[?(@.type==\"PodScheduled\")].status}")
                        .stdoutText());
        assertEquals(
                "Error from server (Conflict): error when creating \"binding.yaml\": Operation cannot be fulfilled "
                        + "on pods/binding \"bound-by-hand\": pod bound-by-hand is already assigned to node \"node01\"",
                fails("create", "-f", "binding.yaml", "--validate=false").stderrText());
        assertEquals(
                "Error from server (MethodNotAllowed): the server does not allow this method on the requested "
                        + "resource",
                fails("get", "bindings").stderrText());
    }

    @Test
    void createInMissingNamespaceIsNotFound() {
        write("orphan.yaml", configMapYaml("orphan", null, Map.of(), "value"));

        ProcessResult result = fails("create", "-f", "orphan.yaml", "-n", "missing-ns");
        assertEquals(
                "Error from server (NotFound): error when creating \"orphan.yaml\": namespaces \"missing-ns\" not found",
                result.stderrText(),
                result.describe());
    }

    @Test
    void createExistingIsAlreadyExists() {
        write("twice.yaml", configMapYaml("cm1", null, Map.of(), "value"));
        ok("create", "-f", "twice.yaml");

        ProcessResult result = fails("create", "-f", "twice.yaml");
        assertEquals(
                "Error from server (AlreadyExists): error when creating \"twice.yaml\": configmaps \"cm1\" already exists",
                result.stderrText(),
                result.describe());
    }

    @Test
    void createWithInvalidDataKeyIsInvalid() {
        write(
                "invalid.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: x
                data:
                  bad key: v
                """);

        ProcessResult result = fails("create", "-f", "invalid.yaml");
        assertEquals(
                "The ConfigMap \"x\" is invalid: data[bad key]: Invalid value: \"bad key\": a valid config key"
                        + " must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME', "
                        + " or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
                result.stderrText(),
                result.describe());
        assertEquals(
                "Error from server (NotFound): configmaps \"x\" not found",
                fails("get", "cm", "x").stderrText());
    }

    @Test
    void replaceWithStaleResourceVersionIsConflict() {
        createConfigMap("contended", defaultNamespace(), Map.of());
        String staleVersion =
                ok("get", "cm", "contended", "-o", "jsonpath={.metadata.resourceVersion}").stdout();
        ok("label", "cm", "contended", "bumped=yes");
        write(
                "stale.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: contended
                  resourceVersion: "%s"
                data:
                  key: stale
                """
                        .formatted(staleVersion));

        ProcessResult result = fails("replace", "-f", "stale.yaml");
        assertEquals(
                "Error from server (Conflict): error when replacing \"stale.yaml\": Operation cannot be fulfilled"
                        + " on configmaps \"contended\": the object has been modified; please apply your changes to the"
                        + " latest version and try again",
                result.stderrText(),
                result.describe());
        assertEquals("{\"key\":\"value\"}", data("contended").toString());
    }

    @Test
    void createWithUnknownFieldIsBadRequestUnderStrictValidation() {
        write(
                "bogus.yaml",
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: bogus
                  bogus: x
                data:
                  key: value
                """);

        ProcessResult result = fails("create", "-f", "bogus.yaml");
        // kube-apiserver prefixes decode errors with the kind and version (seen in published
        // kubectl output).
        assertEquals(
                "Error from server (BadRequest): error when creating \"bogus.yaml\": ConfigMap in version \"v1\""
                        + " cannot be handled as a ConfigMap: strict decoding error: unknown field \"metadata.bogus\"",
                result.stderrText(),
                result.describe());
        assertEquals(
                "Error from server (NotFound): configmaps \"bogus\" not found",
                fails("get", "cm", "bogus").stderrText());
    }

    // ---------------------------------------------------------------- eviction

    @Test
    void drainIsHeldBackByAPodDisruptionBudgetWithKubectlsRetryMessage() {
        String ns = SERVER.namespace("kubectl-drain");
        String node = "kubectl-drain-node";
        write("drain-node.yaml", "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + node + "\n");
        ok("create", "-f", "drain-node.yaml");
        for (String pod : List.of("a", "b")) {
            write(
                    "drain-" + pod + ".yaml",
                    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: "
                            + pod
                            + "\n  namespace: "
                            + ns
                            + "\n  labels:\n    app: drained\nspec:\n  nodeName: "
                            + node
                            + "\n  containers:\n  - name: c\n    image: nginx:1.27\n");
            ok("create", "-f", "drain-" + pod + ".yaml");
            ok(
                    "patch",
                    "pod",
                    pod,
                    "-n",
                    ns,
                    "--subresource=status",
                    "--type=merge",
                    "-p",
                    "{\"status\":{\"phase\":\"Running\",\"conditions\":"
                            + "[{\"type\":\"Ready\",\"status\":\"True\"}]}}");
        }
        assertEquals(
                "poddisruptionbudget.policy/drained created",
                ok(
                                "create",
                                "poddisruptionbudget",
                                "drained",
                                "-n",
                                ns,
                                "--selector=app=drained",
                                "--min-available=2")
                        .stdoutText());
        await().atMost(Duration.ofSeconds(20))
                .until(
                        () ->
                                ok(
                                                "get",
                                                "pdb",
                                                "drained",
                                                "-n",
                                                ns,
                                                "-o",
                                                "jsonpath={.status.observedGeneration}/{.status.currentHealthy}")
                                        .stdoutText()
                                        .equals("1/2"));

        ProcessResult held =
                kubectl()
                        .run(
                                "drain",
                                node,
                                "--pod-selector=app=drained",
                                "--force",
                                "--timeout=2s");
        assertEquals(1, held.exitCode(), held.describe());
        assertTrue(
                held.stderr()
                        .contains(
                                "error when evicting pods/\"a\" -n \""
                                        + ns
                                        + "\" (will retry after 5s): Cannot evict pod as it would"
                                        + " violate the pod's disruption budget."),
                held.describe());
        ok("get", "pod", "a", "-n", ns);

        ok("delete", "node", node);
    }

    // ---------------------------------------------------------------- helpers

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static ProcessResult fails(String... args) {
        ProcessResult result = kubectl().run(args);
        assertEquals(1, result.exitCode(), result.describe());
        return result;
    }

    private static JsonNode json(List<String> args) {
        ProcessResult result = ok(args.toArray(String[]::new));
        try {
            return JSON.readTree(result.stdout());
        } catch (IOException e) {
            throw new AssertionError("kubectl printed no JSON\n" + result.describe(), e);
        }
    }

    private static JsonNode data(String configMap) {
        return json(List.of("get", "cm", configMap, "-o", "json")).path("data");
    }

    private static Map<String, String> labels(String configMap) {
        JsonNode labels =
                json(List.of("get", "cm", configMap, "-o", "json")).at("/metadata/labels");
        return JSON.convertValue(
                labels,
                JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class));
    }

    /**
     * Creates a namespace from a manifest file (JSON on the wire, unlike {@code kubectl create
     * namespace}).
     */
    private static void createNamespace(String name) {
        write(
                "ns-" + name + ".yaml",
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n");
        ok("create", "-f", "ns-" + name + ".yaml");
    }

    /** Creates a ConfigMap with {@code data.key: value} from a manifest file, as a user would. */
    private static void createConfigMap(String name, String namespace, Map<String, String> labels) {
        String file = namespace + "-" + name + ".yaml";
        write(file, configMapYaml(name, namespace, labels, "value"));
        ok("create", "-f", file);
    }

    private static String configMapYaml(
            String name, String namespace, Map<String, String> labels, String value) {
        StringBuilder yaml =
                new StringBuilder(
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n");
        if (namespace != null) {
            yaml.append("  namespace: ").append(namespace).append('\n');
        }
        if (!labels.isEmpty()) {
            yaml.append("  labels:\n");
            labels.forEach(
                    (k, v) ->
                            yaml.append("    ").append(k).append(": \"").append(v).append("\"\n"));
        }
        return yaml.append("data:\n  key: ").append(value).append('\n').toString();
    }

    private static void write(String file, String content) {
        SERVER.write(file, content);
    }

    private static List<String> concat(List<String> a, List<String> b, List<String> c) {
        return Stream.of(a, b, c).flatMap(List::stream).toList();
    }
}
