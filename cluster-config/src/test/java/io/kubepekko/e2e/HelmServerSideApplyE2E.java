package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.Helm;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real helm 4 with its default apply method, server-side apply: a chart of a ConfigMap, a
 * Secret, a ServiceAccount, a Role, a RoleBinding, a Service and a Deployment goes through install,
 * list, status, upgrade with changed values, rollback to the first revision and uninstall, and
 * every chart object is owned by the manager {@code helm} through an Apply entry. No {@code
 * --wait}: no controllers run here, so a Deployment never becomes ready.
 */
class HelmServerSideApplyE2E {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> OBJECTS =
            List.of(
                    "configmap/r1-config",
                    "secret/r1-secret",
                    "serviceaccount/r1-sa",
                    "role.rbac.authorization.k8s.io/r1-role",
                    "rolebinding.rbac.authorization.k8s.io/r1-rb",
                    "service/r1-svc",
                    "deployment.apps/r1-web");

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    @Test
    void releaseLifecycleAppliesTheChartServerSide() {
        ClientBinaries clients = ClientBinaries.require();
        Helm helm = new Helm(clients.helm(), SERVER.kubeconfig(), SERVER.scratch());
        Kubectl kubectl =
                new Kubectl(
                        clients.kubectl(), SERVER.kubeconfig(), SERVER.scratch(), SERVER.scratch());
        String chart = writeChart().toString();

        ProcessResult install = ok(helm.run(SERVER.scratch(), "install", "r1", chart));
        assertTrue(install.stdout().contains("STATUS: deployed"), install.describe());
        assertValues(kubectl, "fast", 1, "nginx:1.27");
        for (String object : OBJECTS) {
            JsonNode managers = get(kubectl, object).at("/metadata/managedFields");
            assertEquals(1, managers.size(), object + ": " + managers);
            assertEquals(
                    "helm", managers.get(0).path("manager").asText(), object + ": " + managers);
            assertEquals(
                    "Apply", managers.get(0).path("operation").asText(), object + ": " + managers);
        }
        JsonNode web = get(kubectl, "deployment.apps/r1-web");
        assertEquals("Helm", web.at("/metadata/labels/app.kubernetes.io~1managed-by").asText());
        assertEquals("r1", web.at("/metadata/annotations/meta.helm.sh~1release-name").asText());

        ProcessResult list = ok(helm.run(SERVER.scratch(), "list"));
        assertTrue(
                list.stdout()
                        .lines()
                        .anyMatch(
                                l -> l.matches("r1\\s+default\\s+1\\s+.*deployed\\s+demo-0.1.0.*")),
                list.describe());
        ProcessResult status = ok(helm.run(SERVER.scratch(), "status", "r1"));
        assertTrue(status.stdout().contains("STATUS: deployed"), status.describe());
        for (String name :
                List.of(
                        "r1-config",
                        "r1-secret",
                        "r1-sa",
                        "r1-role",
                        "r1-rb",
                        "r1-svc",
                        "r1-web")) {
            assertTrue(
                    status.stdout().lines().anyMatch(l -> l.startsWith(name + " ")),
                    name + " in\n" + status.describe());
        }

        ok(
                helm.run(
                        SERVER.scratch(),
                        "upgrade",
                        "r1",
                        chart,
                        "--set",
                        "mode=slow",
                        "--set",
                        "replicas=2",
                        "--set",
                        "image=nginx:1.28"));
        assertValues(kubectl, "slow", 2, "nginx:1.28");
        JsonNode upgraded = get(kubectl, "deployment.apps/r1-web").at("/metadata/managedFields");
        assertEquals(1, upgraded.size(), "the upgrade applied as helm again: " + upgraded);
        assertEquals("Apply", upgraded.get(0).path("operation").asText());

        ok(helm.run(SERVER.scratch(), "rollback", "r1", "1"));
        assertValues(kubectl, "fast", 1, "nginx:1.27");
        ProcessResult history =
                ok(
                        kubectl.run(
                                "get",
                                "secrets",
                                "-l",
                                "owner=helm,name=r1",
                                "-o",
                                "jsonpath={range .items[*]}{.metadata.labels.version} {.metadata.labels.status}{\"\\n\"}{end}"));
        assertEquals(
                List.of("1 superseded", "2 superseded", "3 deployed"),
                history.stdout().lines().sorted().toList(),
                history.describe());

        ok(helm.run(SERVER.scratch(), "uninstall", "r1"));
        for (String object : OBJECTS) {
            ProcessResult gone = kubectl.run("get", object);
            assertEquals(1, gone.exitCode(), object + " is deleted\n" + gone.describe());
        }
        assertEquals(
                "",
                ok(kubectl.run("get", "secrets", "-l", "owner=helm", "-o", "name")).stdoutText(),
                "the release secrets are deleted");
        assertEquals("", ok(helm.run(SERVER.scratch(), "list", "-q")).stdoutText());
    }

    // ---------------------------------------------------------------- helpers

    /** What the chart's values reach: the ConfigMap, the Secret and the Deployment. */
    private static void assertValues(Kubectl kubectl, String mode, int replicas, String image) {
        assertEquals(mode, get(kubectl, "configmap/r1-config").at("/data/mode").asText());
        String token = get(kubectl, "secret/r1-secret").at("/data/token").asText();
        assertEquals(
                "token-" + mode,
                new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8));
        JsonNode web = get(kubectl, "deployment.apps/r1-web");
        assertEquals(replicas, web.at("/spec/replicas").asInt());
        assertEquals(image, web.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(
                1,
                web.at("/spec/template/spec/containers/0/ports").size(),
                "a re-applied port without a protocol is the live one (keyed with TCP), not a second");
    }

    private static Path writeChart() {
        Path chart = SERVER.scratch().resolve("chart");
        write(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: demo\nversion: 0.1.0\n");
        write(chart.resolve("values.yaml"), "mode: fast\nreplicas: 1\nimage: nginx:1.27\n");
        write(
                chart.resolve("templates/config.yaml"),
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: {{ .Release.Name }}-config
                data:
                  mode: {{ .Values.mode | quote }}
                ---
                apiVersion: v1
                kind: Secret
                metadata:
                  name: {{ .Release.Name }}-secret
                type: Opaque
                stringData:
                  token: {{ printf "token-%s" .Values.mode | quote }}
                """);
        write(
                chart.resolve("templates/rbac.yaml"),
                """
                apiVersion: v1
                kind: ServiceAccount
                metadata:
                  name: {{ .Release.Name }}-sa
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                metadata:
                  name: {{ .Release.Name }}-role
                rules:
                - apiGroups: [""]
                  resources: ["configmaps"]
                  verbs: ["get", "list", "watch"]
                ---
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata:
                  name: {{ .Release.Name }}-rb
                roleRef:
                  apiGroup: rbac.authorization.k8s.io
                  kind: Role
                  name: {{ .Release.Name }}-role
                subjects:
                - kind: ServiceAccount
                  name: {{ .Release.Name }}-sa
                  namespace: {{ .Release.Namespace }}
                """);
        write(
                chart.resolve("templates/web.yaml"),
                """
                apiVersion: v1
                kind: Service
                metadata:
                  name: {{ .Release.Name }}-svc
                spec:
                  selector:
                    app: {{ .Release.Name }}-web
                  ports:
                  - port: 80
                    targetPort: 8080
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: {{ .Release.Name }}-web
                spec:
                  replicas: {{ .Values.replicas }}
                  selector:
                    matchLabels:
                      app: {{ .Release.Name }}-web
                  template:
                    metadata:
                      labels:
                        app: {{ .Release.Name }}-web
                    spec:
                      serviceAccountName: {{ .Release.Name }}-sa
                      containers:
                      - name: web
                        image: {{ .Values.image }}
                        ports:
                        - containerPort: 8080
                        env:
                        - name: MODE
                          valueFrom:
                            configMapKeyRef:
                              name: {{ .Release.Name }}-config
                              key: mode
                """);
        return chart;
    }

    private static JsonNode get(Kubectl kubectl, String object) {
        try {
            return JSON.readTree(
                    ok(kubectl.run("get", object, "-o", "json", "--show-managed-fields")).stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProcessResult ok(ProcessResult result) {
        assertEquals(0, result.exitCode(), result.describe());
        return result;
    }

    private static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
