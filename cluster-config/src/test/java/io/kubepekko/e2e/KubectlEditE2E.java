package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.e2e.support.InProcessServer;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.LoggedRequests;
import io.kubepekko.e2e.support.ProcessResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real kubectl's {@code edit}, with a scripted editor (a shell script given as {@code
 * KUBE_EDITOR} that edits the file with sed): the change is saved with a strategic merge patch by
 * the field manager {@code kubectl-edit}, which then owns the edited field through an Update entry
 * of managedFields, next to the applier that owns the rest.
 */
class KubectlEditE2E {
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final InProcessServer SERVER = new InProcessServer();

    private static Kubectl kubectl() {
        return SERVER.kubectl();
    }

    @Test
    void editSavesTheChangeAsKubectlEdit() {
        write(
                SERVER.manifests().resolve("cm.yaml"),
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: settings
                data:
                  mode: fast
                  size: small
                """);
        ok(kubectl(), "apply", "--server-side", "-f", "cm.yaml");
        Path editor = script("edit-mode.sh", "sed -i 's/^  mode: fast$/  mode: edited/' \"$1\"\n");

        ProcessResult edited =
                ok(
                        kubectl().withEnvironment("KUBE_EDITOR", editor.toString()),
                        "edit",
                        "configmap",
                        "settings",
                        "-v=6");
        assertEquals("configmap/settings edited", edited.stdoutText(), edited.describe());
        List<LoggedRequests.Exchange> patches = LoggedRequests.of(edited, "PATCH");
        assertEquals(1, patches.size(), edited.describe());
        assertEquals("kubectl-edit", patches.get(0).query("fieldManager"));
        assertEquals(200, patches.get(0).status());

        JsonNode cm = get("configmap/settings");
        assertEquals("edited", cm.at("/data/mode").asText());
        assertEquals("small", cm.at("/data/size").asText());
        JsonNode fields = cm.at("/metadata/managedFields");
        assertEquals(2, fields.size(), fields.toString());
        // kubectl keeps what it applied and still has; the edit took the field it changed.
        assertEquals("kubectl", fields.get(0).path("manager").asText(), fields.toString());
        assertEquals("Apply", fields.get(0).path("operation").asText());
        assertEquals(json("{'f:data':{'f:size':{}}}"), fields.get(0).path("fieldsV1"));
        assertEquals("kubectl-edit", fields.get(1).path("manager").asText(), fields.toString());
        assertEquals("Update", fields.get(1).path("operation").asText());
        assertEquals("v1", fields.get(1).path("apiVersion").asText());
        assertEquals(json("{'f:data':{'f:mode':{}}}"), fields.get(1).path("fieldsV1"));
    }

    @Test
    void anEditThatChangesNothingIsCancelled() {
        write(
                SERVER.manifests().resolve("other.yaml"),
                """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: untouched
                data:
                  mode: fast
                """);
        ok(kubectl(), "apply", "--server-side", "-f", "other.yaml");
        String before = get("configmap/untouched").at("/metadata/resourceVersion").asText();
        Path editor = script("no-change.sh", "exit 0\n");

        ProcessResult result =
                ok(
                        kubectl().withEnvironment("KUBE_EDITOR", editor.toString()),
                        "edit",
                        "configmap",
                        "untouched",
                        "-v=6");
        assertTrue(result.stderr().contains("Edit cancelled, no changes made."), result.describe());
        assertEquals(List.of(), LoggedRequests.of(result, "PATCH"));
        assertEquals(before, get("configmap/untouched").at("/metadata/resourceVersion").asText());
    }

    // ---------------------------------------------------------------- helpers

    /** An editor: a shell script kubectl runs with the temporary file's path as its argument. */
    private static Path script(String name, String body) {
        Path file = SERVER.scratch().resolve(name);
        write(file, "#!/bin/sh\n" + body);
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    private static JsonNode get(String object) {
        try {
            return JSON.readTree(
                    ok(kubectl(), "get", object, "-o", "json", "--show-managed-fields").stdout());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(String singleQuoted) {
        try {
            return JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ProcessResult ok(Kubectl client, String... args) {
        ProcessResult result = client.run(args);
        assertEquals(0, result.exitCode(), result.describe());
        return result;
    }

    private static void write(Path file, String content) {
        try {
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
