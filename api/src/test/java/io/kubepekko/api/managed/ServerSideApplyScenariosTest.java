package io.kubepekko.api.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Server-side apply scenarios written as operation scripts: each file under {@code
 * io/kubepekko/api/managed/ssa} lists writes by named managers (applies, and non-apply writes as
 * merge patches, creates or updates), the conflicts some of them must meet, and the object and
 * managedFields expected at the end. They run through the whole write pipeline ({@link
 * ObjectWrites}) against one in-memory collection, so defaulting, validation and the managedFields
 * of non-apply writes take part as they do on the server.
 *
 * <p>Script keys: {@code resource}; {@code steps}, each with {@code manager} and one of {@code
 * apply} (with optional {@code force} and {@code subresource}), {@code mergePatch}, {@code
 * jsonPatch}, {@code create} or {@code update}, and optionally {@code conflicts} (the expected
 * cause fields), {@code message} (the expected Status message) or {@code status} (another expected
 * failure code); {@code expect.object} (each field given must equal the object's: top-level names,
 * dotted paths such as {@code spec.ports}, and for {@code metadata} each field given; {@code null}
 * means absent) and {@code expect.managedFields} (manager, operation, optional subresource,
 * fieldsV1; compared in order).
 */
class ServerSideApplyScenariosTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final Instant NOW = Instant.parse("2026-05-06T07:08:09Z");

    @TestFactory
    Stream<DynamicTest> scenarios() throws IOException, URISyntaxException {
        Path dir = Path.of(getClass().getResource("/io/kubepekko/api/managed/ssa").toURI());
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        return files.stream()
                .map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> run(read(f))));
    }

    private static JsonNode read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Json.YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void run(JsonNode script) {
        ResourceType type =
                REGISTRY.all().stream()
                        .filter(t -> t.resource().equals(script.path("resource").asText()))
                        .findFirst()
                        .orElseThrow();
        String namespace = type.namespaced() ? "default" : null;
        Map<String, ObjectNode> store = new HashMap<>();
        int[] counters = new int[2];
        ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);
        ObjectWrites.Env env = new ObjectWrites.Env(NOW, () -> "uid-" + (++counters[0]), () -> "x");
        int step = 0;
        for (JsonNode s : script.path("steps")) {
            step++;
            WriteOp op = op(s, type);
            String where = "step " + step + " (" + s.path("manager").asText() + ")";
            if (s.has("conflicts") || s.has("message") || s.has("status")) {
                WriteResult.Refused e =
                        assertInstanceOf(
                                WriteResult.Refused.class,
                                writes.execute(type, namespace, store::get, op, env),
                                where + " must fail");
                if (s.has("conflicts")) {
                    assertEquals(409, e.status().code(), where + ": " + e.status().message());
                    List<String> fields = new ArrayList<>();
                    e.status()
                            .details()
                            .causes()
                            .forEach(
                                    c -> {
                                        assertEquals("FieldManagerConflict", c.reason(), where);
                                        fields.add(c.field());
                                    });
                    List<String> want = new ArrayList<>();
                    s.path("conflicts").forEach(c -> want.add(c.asText()));
                    assertEquals(want, fields, where + ": " + e.status().message());
                }
                if (s.has("status")) {
                    assertEquals(
                            s.path("status").asInt(),
                            e.status().code(),
                            where + ": " + e.status().message());
                }
                if (s.has("message")) {
                    assertEquals(s.path("message").asText(), e.status().message(), where);
                }
                continue;
            }
            WriteOutcome out;
            try {
                out = writes.execute(type, namespace, store::get, op, env).orThrow();
            } catch (ApiException e) {
                throw new AssertionError(
                        where + " failed: " + e.status().code() + " " + e.status().message(), e);
            }
            if (out.removes()) {
                store.remove(out.after().path("metadata").path("name").asText());
            } else if (out.changed()) {
                ObjectNode stored = out.after().deepCopy();
                ((ObjectNode) stored.get("metadata"))
                        .put("resourceVersion", String.valueOf(++counters[1]));
                store.put(stored.path("metadata").path("name").asText(), stored);
            }
        }
        ObjectNode live =
                store.values().stream()
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no object"));
        JsonNode expect = script.path("expect");
        Iterator<Map.Entry<String, JsonNode>> fields =
                expect.path("object").properties().iterator();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equals("metadata")) {
                f.getValue()
                        .properties()
                        .iterator()
                        .forEachRemaining(
                                m ->
                                        assertField(
                                                m.getValue(),
                                                live.path("metadata").path(m.getKey()),
                                                "metadata." + m.getKey() + " in " + live));
            } else {
                JsonNode at = live;
                for (String part : f.getKey().split("\\.")) {
                    at = at.path(part);
                }
                assertField(f.getValue(), at, f.getKey() + " in " + live);
            }
        }
        if (expect.has("managedFields")) {
            ArrayNode got = Json.MAPPER.createArrayNode();
            for (JsonNode e : live.path("metadata").path("managedFields")) {
                ObjectNode entry = got.addObject();
                entry.set("manager", e.get("manager"));
                entry.set("operation", e.get("operation"));
                if (e.has("subresource")) {
                    entry.set("subresource", e.get("subresource"));
                }
                entry.set("fieldsV1", e.get("fieldsV1"));
            }
            assertEquals(expect.path("managedFields"), got, "managedFields");
        }
        for (JsonNode e : live.path("metadata").path("managedFields")) {
            assertEquals("FieldsV1", e.path("fieldsType").asText());
            assertEquals(type.apiVersion(), e.path("apiVersion").asText());
            assertEquals("2026-05-06T07:08:09Z", e.path("time").asText());
        }
    }

    /** An expected {@code null} means the field is absent. */
    private static void assertField(JsonNode expected, JsonNode actual, String what) {
        if (expected.isNull()) {
            assertTrue(actual.isMissingNode(), what + " is absent");
        } else {
            assertEquals(expected, actual, what);
        }
    }

    private static WriteOp op(JsonNode s, ResourceType type) {
        String manager = s.path("manager").asText();
        WriteOptions options = new WriteOptions(false, manager, FieldValidation.STRICT);
        String sub = s.has("subresource") ? s.path("subresource").asText() : null;
        if (s.has("apply")) {
            ObjectNode body = withTypeMeta(s.get("apply"), type);
            return new WriteOp.Patch(
                    name(body, s),
                    PatchType.APPLY_PATCH,
                    Json.bytes(body),
                    sub,
                    options,
                    s.path("force").asBoolean(false));
        }
        if (s.has("mergePatch")) {
            return new WriteOp.Patch(
                    s.path("name").asText("obj"),
                    PatchType.MERGE_PATCH,
                    Json.bytes(s.get("mergePatch")),
                    sub,
                    options);
        }
        if (s.has("jsonPatch")) {
            return new WriteOp.Patch(
                    s.path("name").asText("obj"),
                    PatchType.JSON_PATCH,
                    Json.bytes(s.get("jsonPatch")),
                    sub,
                    options);
        }
        if (s.has("create")) {
            return new WriteOp.Create(withTypeMeta(s.get("create"), type), options);
        }
        if (s.has("update")) {
            ObjectNode body = withTypeMeta(s.get("update"), type);
            return new WriteOp.Update(name(body, s), body, sub, options);
        }
        throw new AssertionError(
                "a step needs apply, mergePatch, jsonPatch, create or update: " + s);
    }

    private static String name(ObjectNode body, JsonNode step) {
        return step.path("name").asText(body.path("metadata").path("name").asText("obj"));
    }

    /**
     * Scripts leave out apiVersion, kind and metadata.name (default {@code obj}) unless they test
     * them.
     */
    private static ObjectNode withTypeMeta(JsonNode body, ResourceType type) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("apiVersion", type.apiVersion());
        out.put("kind", type.kind());
        ObjectNode meta = out.putObject("metadata");
        meta.put("name", "obj");
        body.properties()
                .iterator()
                .forEachRemaining(
                        e -> {
                            if (e.getKey().equals("metadata")) {
                                meta.setAll((ObjectNode) e.getValue());
                            } else {
                                out.set(e.getKey(), e.getValue());
                            }
                        });
        return out;
    }
}
