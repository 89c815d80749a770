package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.RepositoryRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kubectl's typed commands, which send protobuf bodies ({@code kubectl create <generator>}): each
 * creates its object, and the stored object has what the command asked for.
 */
class KubectlProtobufE2E {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NS = "typed";

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();
    private static boolean namespaceCreated;

    @BeforeEach
    void createNamespace() {
        if (!namespaceCreated) {
            ok("create", "namespace", NS);
            namespaceCreated = true;
        }
    }

    @Test
    void theBodiesAreProtobuf() {
        ProcessResult result =
                ok("create", "configmap", "traced", "-n", NS, "--from-literal=a=b", "-v=8");
        assertTrue(
                result.stderr().contains("Content-Type: application/vnd.kubernetes.protobuf"),
                result.describe());
    }

    /**
     * The commands whose bodies are kept as fixtures (api test resources,
     * protobuf/kubectl/create-*.hex).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "configmap      | create configmap settings --from-literal=mode=fast --from-literal=level=3",
                "secret         | create secret generic creds --from-literal=password=s3cret",
                "namespace      | create namespace team-a",
                "serviceaccount | create serviceaccount robot",
                "deployment     | create deployment web --image=nginx:1.27 --replicas=0 --port=80",
                "service        | create service clusterip api --tcp=80:8080",
                "job            | create job once --image=busybox:1.36 -- echo hi",
                "cronjob        | create cronjob nightly --image=busybox:1.36 --schedule=0_3_*_*_* -- date",
                "role           | create role reader --verb=get,list --resource=pods",
                "rolebinding    | create rolebinding readers --role=reader --user=alice"
            })
    void theFixturesAreWhatKubectlSends(String kind, String command) throws IOException {
        List<String> args = new ArrayList<>();
        for (String word : command.split(" ")) {
            args.add(word.replace('_', ' '));
        }
        // Flags before the command, since everything after "--" is the container's command.
        args.addAll(1, List.of("--dry-run=server", "-v=9"));
        if (!kind.equals("namespace")) {
            args.addAll(1, List.of("-n", "default"));
        }
        ProcessResult result = ok(args.toArray(String[]::new));
        String fixture =
                Files.readString(
                                RepositoryRoot.find()
                                        .resolve(
                                                "api/src/test/resources/io/kubepekko/api/protobuf/kubectl/create-"
                                                        + kind
                                                        + ".hex"))
                        .trim();
        assertEquals(fixture, requestBodyHex(result.stderr()), result.describe());
    }

    /** The request body kubectl's -v=9 log shows as a hex dump. */
    private static String requestBodyHex(String log) {
        Matcher dump =
                Pattern.compile("\"Request Body\" body=<\n(.*?)\n\\s*>", Pattern.DOTALL)
                        .matcher(log);
        assertTrue(dump.find(), "kubectl logged a request body");
        StringBuilder hex = new StringBuilder();
        Pattern bytes = Pattern.compile("^\\s*[0-9a-f]{8}\\s+((?:[0-9a-f]{2}\\s+)+)");
        for (String line : dump.group(1).split("\n")) {
            Matcher m = bytes.matcher(line);
            if (m.find()) {
                hex.append(m.group(1).replaceAll("\\s+", ""));
            }
        }
        return hex.toString();
    }

    @Test
    void createConfigMapAndSecret() {
        ok(
                "create",
                "configmap",
                "settings",
                "-n",
                NS,
                "--from-literal=mode=fast",
                "--from-literal=level=3");
        JsonNode cm = get("configmap", "settings");
        assertEquals("fast", cm.at("/data/mode").asText());
        assertEquals("3", cm.at("/data/level").asText());
        ok("create", "secret", "generic", "creds", "-n", NS, "--from-literal=password=s3cret");
        JsonNode secret = get("secret", "creds");
        assertEquals("Opaque", secret.at("/type").asText());
        assertEquals("czNjcmV0", secret.at("/data/password").asText());
    }

    @Test
    void createNamespaceAndServiceAccount() {
        ok("create", "namespace", "typed-ns");
        assertEquals(
                "Active",
                parse(ok("get", "namespace", "typed-ns", "-o", "json"))
                        .at("/status/phase")
                        .asText());
        ok("create", "serviceaccount", "robot", "-n", NS);
        assertEquals("robot", get("serviceaccount", "robot").at("/metadata/name").asText());
    }

    @Test
    void createDeploymentWithItsPodTemplate() {
        ok(
                "create",
                "deployment",
                "web",
                "-n",
                NS,
                "--image=nginx:1.27",
                "--replicas=2",
                "--port=80");
        JsonNode d = get("deployment", "web");
        assertEquals(2, d.at("/spec/replicas").asInt());
        assertEquals("nginx:1.27", d.at("/spec/template/spec/containers/0/image").asText());
        assertEquals(80, d.at("/spec/template/spec/containers/0/ports/0/containerPort").asInt());
        assertEquals("web", d.at("/spec/selector/matchLabels/app").asText());
    }

    @Test
    void createDeploymentWithZeroReplicasKeepsTheZero() {
        ok("create", "deployment", "idle", "-n", NS, "--image=nginx:1.27", "--replicas=0");
        assertEquals(
                0,
                get("deployment", "idle").at("/spec/replicas").asInt(-1),
                "a pointer's zero survives protobuf");
    }

    @Test
    void createServiceJobAndCronJob() {
        ok("create", "service", "clusterip", "api", "-n", NS, "--tcp=80:8080");
        JsonNode svc = get("service", "api");
        assertEquals(8080, svc.at("/spec/ports/0/targetPort").asInt());
        assertEquals("ClusterIP", svc.at("/spec/type").asText());
        ok("create", "job", "once", "-n", NS, "--image=busybox:1.36", "--", "echo", "hi");
        assertEquals(
                "echo",
                get("job", "once").at("/spec/template/spec/containers/0/command/0").asText());
        ok(
                "create",
                "cronjob",
                "nightly",
                "-n",
                NS,
                "--image=busybox:1.36",
                "--schedule=0 3 * * *",
                "--",
                "date");
        assertEquals("0 3 * * *", get("cronjob", "nightly").at("/spec/schedule").asText());
    }

    @Test
    void createRoleAndRoleBinding() {
        ok("create", "role", "reader", "-n", NS, "--verb=get,list", "--resource=pods");
        JsonNode role = get("role", "reader");
        assertEquals("pods", role.at("/rules/0/resources/0").asText());
        ok("create", "rolebinding", "readers", "-n", NS, "--role=reader", "--user=alice");
        JsonNode binding = get("rolebinding", "readers");
        assertEquals("reader", binding.at("/roleRef/name").asText());
        assertEquals("alice", binding.at("/subjects/0/name").asText());
    }

    // ---------------------------------------------------------------- helpers

    private static JsonNode get(String kind, String name) {
        return parse(ok("get", kind, name, "-n", NS, "-o", "json"));
    }

    private static JsonNode parse(ProcessResult result) {
        try {
            return JSON.readTree(result.stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }
}
