package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.bytes;
import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No write leaves an object with another apiVersion or kind than its collection's: every patch
 * type, PUT, the status and scale subresources, dry runs included, on five kinds.
 */
class TypeMetaWritesTest {

    private static final String SCHEME =
            " in scheme \"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30\"";
    private static final String CONTAINERS = "'containers':[{'name':'app','image':'nginx:1.27'}]";

    /** resource, object name, a valid object of the kind. */
    private static final List<String[]> KINDS =
            List.of(
                    new String[] {
                        "pods", "p", "{'metadata':{'name':'p'},'spec':{" + CONTAINERS + "}}"
                    },
                    new String[] {
                        "deployments",
                        "web",
                        "{'metadata':{'name':'web'},'spec':{'replicas':2,"
                                + "'selector':{'matchLabels':{'app':'web'}},"
                                + "'template':{'metadata':{'labels':{'app':'web'}},'spec':{"
                                + CONTAINERS
                                + "}}}}"
                    },
                    new String[] {
                        "configmaps", "cm", "{'metadata':{'name':'cm'},'data':{'k':'v'}}"
                    },
                    new String[] {"namespaces", "ns", "{'metadata':{'name':'ns'}}"},
                    new String[] {
                        "leases", "l", "{'metadata':{'name':'l'},'spec':{'holderIdentity':'a'}}"
                    });

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);

    private WriteOutcome run(ResourceType type, WriteOp op) {
        return writes.execute(
                        type,
                        type.namespaced() ? "default" : null,
                        store::get,
                        op,
                        new ObjectWrites.Env(
                                Instant.parse("2026-03-04T05:06:07Z"),
                                () -> "uid-" + (++uids),
                                () -> "x"))
                .orThrow();
    }

    private ObjectNode seed(ResourceType type, String json) {
        ObjectNode stored = run(type, new WriteOp.Create(obj(json), WriteOptions.DEFAULT)).after();
        ObjectMeta.of(stored).put("resourceVersion", "5");
        store.put(ObjectMeta.name(stored), stored);
        return stored.deepCopy();
    }

    private static WriteOptions options(boolean dryRun) {
        return new WriteOptions(dryRun, "test", FieldValidation.STRICT);
    }

    static Stream<Arguments> refusedPatches() {
        List<Arguments> out = new ArrayList<>();
        for (String[] k : KINDS) {
            String resource = k[0];
            String apiVersion = type(resource).apiVersion();
            for (boolean dryRun : List.of(false, true)) {
                String dry = dryRun ? " (dry run)" : "";
                out.add(
                        Arguments.of(
                                resource + ": merge patch of kind" + dry,
                                resource,
                                PatchType.MERGE_PATCH,
                                "{'kind':'Garbage'}",
                                null,
                                dryRun,
                                "no kind \"Garbage\" is registered for version \""
                                        + apiVersion
                                        + "\""
                                        + SCHEME));
                out.add(
                        Arguments.of(
                                resource + ": merge patch of apiVersion" + dry,
                                resource,
                                PatchType.MERGE_PATCH,
                                "{'apiVersion':'v9'}",
                                null,
                                dryRun,
                                "no kind \""
                                        + type(resource).kind()
                                        + "\" is registered for version \"v9\""
                                        + SCHEME));
                out.add(
                        Arguments.of(
                                resource + ": JSON patch replacing /kind" + dry,
                                resource,
                                PatchType.JSON_PATCH,
                                "[{'op':'replace','path':'/kind','value':'Garbage'}]",
                                null,
                                dryRun,
                                "no kind \"Garbage\" is registered for version \""
                                        + apiVersion
                                        + "\""
                                        + SCHEME));
            }
            if (type(resource).hasStatus()) {
                out.add(
                        Arguments.of(
                                resource + ": merge patch of kind on /status",
                                resource,
                                PatchType.MERGE_PATCH,
                                "{'kind':'Garbage','status':{}}",
                                "status",
                                false,
                                "no kind \"Garbage\" is registered for version \""
                                        + apiVersion
                                        + "\""
                                        + SCHEME));
            }
            if (type(resource).hasScale()) {
                out.add(
                        Arguments.of(
                                resource + ": JSON patch of kind on /scale",
                                resource,
                                PatchType.JSON_PATCH,
                                "[{'op':'replace','path':'/kind','value':'Garbage'}]",
                                "scale",
                                false,
                                "no kind \"Garbage\" is registered for version \"autoscaling/v1\""
                                        + SCHEME));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPatches")
    void jsonAndMergePatchesToAnotherTypeAreInvalidAndChangeNothing(
            String name,
            String resource,
            PatchType patchType,
            String patch,
            String subresource,
            boolean dryRun,
            String problem) {
        ResourceType type = type(resource);
        String objName = kind(resource)[1];
        ObjectNode before = seed(type, kind(resource)[2]);
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        run(
                                                type,
                                                new WriteOp.Patch(
                                                        objName,
                                                        patchType,
                                                        bytes(patch),
                                                        subresource,
                                                        options(dryRun))))
                        .status();
        assertEquals(422, s.code());
        assertEquals("Invalid", s.reason());
        assertTrue(
                s.message().startsWith(" \"\" is invalid: patch: Invalid value: \""), s.message());
        assertTrue(s.message().endsWith("\": " + problem), s.message());
        assertEquals(before, store.get(objName));
    }

    static Stream<Arguments> allKinds() {
        return KINDS.stream().map(k -> Arguments.of(k[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allKinds")
    void strategicMergePatchOfTypeMetaKeepsTheCollectionsType(String resource) {
        ResourceType type = type(resource);
        ObjectNode before = seed(type, kind(resource)[2]);
        WriteOutcome out =
                run(
                        type,
                        new WriteOp.Patch(
                                kind(resource)[1],
                                PatchType.STRATEGIC_MERGE_PATCH,
                                bytes("{'apiVersion':'apps/v1beta1','kind':'Garbage'}"),
                                null,
                                options(false)));
        assertEquals(type.apiVersion(), out.after().path("apiVersion").asText());
        assertEquals(type.kind(), out.after().path("kind").asText());
        assertEquals(before, out.after(), "nothing else was patched: a no-op");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allKinds")
    void applyOfAnotherKindIsRefused(String resource) {
        ResourceType type = type(resource);
        seed(type, kind(resource)[2]);
        String config =
                "{'apiVersion':'"
                        + type.apiVersion()
                        + "','kind':'Garbage','metadata':{'name':'"
                        + kind(resource)[1]
                        + "'}}";
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        run(
                                                type,
                                                new WriteOp.Patch(
                                                        kind(resource)[1],
                                                        PatchType.APPLY_PATCH,
                                                        bytes(config),
                                                        null,
                                                        options(true))))
                        .status();
        assertEquals(400, s.code());
        assertEquals(
                "invalid object type: " + type.group() + "/" + type.version() + ", Kind=Garbage",
                s.message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allKinds")
    void updateOfAnotherKindIsRefused(String resource) {
        ResourceType type = type(resource);
        ObjectNode body = seed(type, kind(resource)[2]);
        body.put("kind", "Garbage");
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        run(
                                                type,
                                                new WriteOp.Update(
                                                        kind(resource)[1],
                                                        body,
                                                        null,
                                                        options(false))))
                        .status();
        assertEquals(400, s.code());
        assertEquals(
                "Garbage in version \""
                        + type.version()
                        + "\" cannot be handled as a "
                        + type.kind()
                        + ": no kind \"Garbage\" is registered for version \""
                        + type.apiVersion()
                        + "\""
                        + SCHEME,
                s.message());
    }

    static Stream<Arguments> kindsWithStatus() {
        return KINDS.stream().filter(k -> type(k[0]).hasStatus()).map(k -> Arguments.of(k[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kindsWithStatus")
    void statusUpdateOfAnotherVersionIsRefused(String resource) {
        ResourceType type = type(resource);
        ObjectNode body = seed(type, kind(resource)[2]);
        body.put("apiVersion", "v9");
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        run(
                                                type,
                                                new WriteOp.Update(
                                                        kind(resource)[1],
                                                        body,
                                                        "status",
                                                        options(false))))
                        .status();
        assertEquals(400, s.code());
        assertEquals(
                type.kind()
                        + " in version \"v9\" cannot be handled as a "
                        + type.kind()
                        + ": no kind \""
                        + type.kind()
                        + "\" is registered for version \"v9\""
                        + SCHEME,
                s.message());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allKinds")
    void createOfAnotherKindIsRefused(String resource) {
        ResourceType type = type(resource);
        ObjectNode body = obj(kind(resource)[2]);
        body.put("apiVersion", type.apiVersion());
        body.put("kind", "Garbage");
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () -> run(type, new WriteOp.Create(body, options(true))))
                        .status();
        assertEquals(400, s.code());
        assertTrue(s.message().startsWith("Garbage in version "), s.message());
    }

    private static String[] kind(String resource) {
        return KINDS.stream().filter(k -> k[0].equals(resource)).findFirst().orElseThrow();
    }
}
