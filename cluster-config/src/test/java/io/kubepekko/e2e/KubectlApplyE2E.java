package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's client-side apply, which sends strategic merge patches computed from the
 * last-applied configuration: create, update, update with removed fields, and no-op.
 */
class KubectlApplyE2E {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    private static String deployment(String image, String extraEnv, String extraContainer) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                  labels: {app: web}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers:
                      - name: app
                        image: %s
                        env:
                        - {name: MODE, value: fast}
                %s%s"""
                .formatted(image, extraEnv, extraContainer);
    }

    @Test
    void applyCreatesUpdatesAndRemovesFieldsByStrategicMergePatch() {
        write("web.yaml", deployment("nginx:1.27", "        - {name: DEBUG, value: \"1\"}\n", ""));
        assertEquals("deployment.apps/web created", ok("apply", "-f", "web.yaml").stdoutText());

        // A field another writer added, and the file does not mention, survives the next apply (a
        // three-way
        // merge); a field the file sets is set back to the file's value.
        ok("annotate", "deployment", "web", "team=checkout");
        ok("scale", "deployment", "web", "--replicas=3");
        write(
                "web.yaml",
                deployment("nginx:1.28", "", "      - {name: sidecar, image: envoy:1.30}\n"));
        assertEquals("deployment.apps/web configured", ok("apply", "-f", "web.yaml").stdoutText());
        JsonNode d = get();
        JsonNode containers = d.at("/spec/template/spec/containers");
        assertEquals(2, containers.size(), containers.toString());
        assertEquals("nginx:1.28", containers.path(0).path("image").asText());
        assertEquals("envoy:1.30", containers.path(1).path("image").asText());
        JsonNode env = containers.path(0).path("env");
        assertEquals(1, env.size(), "DEBUG, removed from the file, is removed: " + env);
        assertEquals("MODE", env.path(0).path("name").asText());
        assertTrue(
                d.at("/metadata/annotations")
                        .has("kubectl.kubernetes.io/last-applied-configuration"));
        assertEquals("checkout", d.at("/metadata/annotations/team").asText());
        assertEquals(
                2,
                d.at("/spec/replicas").asInt(),
                "the file's replicas win over the scale, as with kube");

        assertEquals("deployment.apps/web unchanged", ok("apply", "-f", "web.yaml").stdoutText());
        assertFalse(get().at("/spec/template/spec/containers/0").has("ports"));
    }

    // ---------------------------------------------------------------- helpers

    private static JsonNode get() {
        try {
            return JSON.readTree(ok("get", "deployment", "web", "-o", "json").stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProcessResult ok(String... args) {
        return SERVER.ok(args);
    }

    private static void write(String file, String content) {
        SERVER.write(file, content);
    }
}
