package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.bytes;
import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * One limit on the object a write leaves stored, after every write path: what etcd refuses beyond
 * its request limit; the answer is etcd's error as a 413 (kube-apiserver passes it on as a 500).
 */
class ObjectSizeLimitTest {

    private static final long LIMIT = 2048;
    private static final ResourceType CONFIG_MAPS = type("configmaps");
    private static final ResourceType DEPLOYMENTS = type("deployments");
    private static final String CONTAINERS = "'containers':[{'name':'app','image':'nginx:1.27'}]";

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, LIMIT);

    private WriteOutcome run(ResourceType type, WriteOp op) {
        WriteOutcome out =
                writes.execute(
                                type,
                                "default",
                                store::get,
                                op,
                                new ObjectWrites.Env(
                                        Instant.parse("2026-03-04T05:06:07Z"),
                                        () -> "uid-" + (++uids),
                                        () -> "x"))
                        .orThrow();
        if (out.changed() && !op.options().dryRun()) {
            if (out.removes()) {
                store.remove(ObjectMeta.name(out.after()));
            } else {
                ObjectNode stored = out.after().deepCopy();
                ObjectMeta.of(stored).put("resourceVersion", Integer.toString(10 + uids));
                store.put(ObjectMeta.name(stored), stored);
            }
        }
        return out;
    }

    private static WriteOptions options(boolean dryRun) {
        return new WriteOptions(dryRun, "test", FieldValidation.STRICT);
    }

    /** A ConfigMap named {@code name} whose data value is {@code size} characters. */
    private static ObjectNode configMap(String name, int size) {
        ObjectNode cm =
                obj("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "'}}");
        cm.putObject("data").put("k", "x".repeat(size));
        return cm;
    }

    private WriteOutcome create(ObjectNode obj, boolean dryRun) {
        return run(CONFIG_MAPS, new WriteOp.Create(obj, options(dryRun)));
    }

    private static void assertTooLarge(Executable write) {
        ApiStatus s = assertThrows(ApiException.class, write).status();
        assertEquals(
                413,
                s.code(),
                "kube-apiserver passes etcd's error on as a 500: the client's object is too large");
        assertEquals("RequestEntityTooLarge", s.reason());
        assertEquals("etcdserver: request is too large", s.message());
    }

    /**
     * The data size at which {@code cm}, created with that much data, is exactly {@code size}
     * bytes.
     */
    private static int dataSizeFor(ObjectNode cm, long size) {
        ObjectWrites unlimited = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, Long.MAX_VALUE);
        ((ObjectNode) cm.get("data")).put("k", "");
        ObjectNode probe =
                unlimited
                        .execute(
                                CONFIG_MAPS,
                                "default",
                                n -> null,
                                new WriteOp.Create(cm, options(false)),
                                new ObjectWrites.Env(
                                        Instant.parse("2026-03-04T05:06:07Z"),
                                        () -> "uid-1",
                                        () -> "x"))
                        .orThrow()
                        .after();
        return (int) (size - Json.byteSize(probe));
    }

    @Test
    void createOfAnObjectAtTheLimitSucceedsAndOneByteMoreIsTooLarge() {
        int atLimit = dataSizeFor(configMap("a", 0), LIMIT);
        uids = 0;
        WriteOutcome stored = create(configMap("a", atLimit), false);
        assertEquals(LIMIT, Json.byteSize(stored.after()));
        ObjectNode withoutManagers = stored.after().deepCopy();
        ObjectMeta.of(withoutManagers).remove("managedFields");
        long managers = LIMIT - Json.byteSize(withoutManagers);
        store.clear();
        uids = 0;
        assertTooLarge(() -> create(configMap("a", (int) (atLimit + managers + 1)), false));
        assertTrue(store.isEmpty());
    }

    @Test
    void anObjectTooLargeWithItsManagedFieldsIsStoredWithoutThemAsKubernetesRetries() {
        writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, Long.MAX_VALUE);
        long withFields = Json.byteSize(create(configMap("a", 1500), false).after());
        store.clear();
        writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, withFields - 1);
        ObjectNode stored = create(configMap("a", 1500), false).after();
        assertFalse(stored.path("metadata").has("managedFields"));
    }

    @Test
    void applyIsNotRetriedWithoutManagedFields() {
        String config =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'a'},'data':{'k':'"
                        + "x".repeat(1700)
                        + "'}}";
        writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, 1900);
        assertTooLarge(
                () ->
                        run(
                                CONFIG_MAPS,
                                new WriteOp.Patch(
                                        "a",
                                        PatchType.APPLY_PATCH,
                                        bytes(config),
                                        null,
                                        options(false))));
        writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER, Long.MAX_VALUE);
        long applied =
                Json.byteSize(
                        run(
                                        CONFIG_MAPS,
                                        new WriteOp.Patch(
                                                "a",
                                                PatchType.APPLY_PATCH,
                                                bytes(config),
                                                null,
                                                options(true)))
                                .after());
        assertTrue(
                applied > 1900, "the object with its managedFields is over the limit: " + applied);
    }

    @Test
    void everyPatchTypeAndUpdateThatGrowsTheObjectPastTheLimitIsRefusedAndChangesNothing() {
        create(configMap("a", 1000), false);
        ObjectNode before = store.get("a").deepCopy();
        String big = "y".repeat(1200);
        assertTooLarge(
                () ->
                        run(
                                CONFIG_MAPS,
                                new WriteOp.Patch(
                                        "a",
                                        PatchType.MERGE_PATCH,
                                        bytes("{'data':{'more':'" + big + "'}}"),
                                        null,
                                        options(false))));
        assertTooLarge(
                () ->
                        run(
                                CONFIG_MAPS,
                                new WriteOp.Patch(
                                        "a",
                                        PatchType.JSON_PATCH,
                                        bytes(
                                                "[{'op':'add','path':'/data/more','value':'"
                                                        + big
                                                        + "'}]"),
                                        null,
                                        options(false))));
        assertTooLarge(
                () ->
                        run(
                                CONFIG_MAPS,
                                new WriteOp.Patch(
                                        "a",
                                        PatchType.STRATEGIC_MERGE_PATCH,
                                        bytes("{'data':{'more':'" + big + "'}}"),
                                        null,
                                        options(false))));
        ObjectNode update = before.deepCopy();
        ((ObjectNode) update.get("data")).put("more", big);
        assertTooLarge(
                () -> run(CONFIG_MAPS, new WriteOp.Update("a", update, null, options(false))));
        assertEquals(before, store.get("a"));
    }

    @Test
    void patchesGrowAnObjectUpToTheLimitAndNoFurther() {
        create(configMap("a", 10), false);
        int refused = 0;
        for (int i = 0; i < 20; i++) {
            try {
                run(
                        CONFIG_MAPS,
                        new WriteOp.Patch(
                                "a",
                                PatchType.MERGE_PATCH,
                                bytes("{'data':{'k" + i + "':'" + "z".repeat(150) + "'}}"),
                                null,
                                options(false)));
            } catch (ApiException e) {
                refused++;
            }
            assertTrue(
                    Json.byteSize(store.get("a")) <= LIMIT,
                    "stored " + Json.byteSize(store.get("a")));
        }
        assertTrue(refused > 0, "the later patches are refused");
        ObjectNode smaller = configMap("a", 10);
        ObjectMeta.of(smaller).put("resourceVersion", ObjectMeta.resourceVersion(store.get("a")));
        assertEquals(
                WriteOutcome.Answer.UPDATED,
                run(CONFIG_MAPS, new WriteOp.Update("a", smaller, null, options(false))).answer(),
                "an object at the limit can still be replaced");
    }

    @Test
    void statusWritesCountToo() {
        ObjectNode deployment =
                obj(
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{"
                                + "'replicas':1,'selector':{'matchLabels':{'app':'d'}},'template':{'metadata':{'labels':{'app':'d'}},"
                                + "'spec':{"
                                + CONTAINERS
                                + "}}}}");
        run(DEPLOYMENTS, new WriteOp.Create(deployment, options(false)));
        String condition =
                "{'type':'Progressing','status':'True','message':'" + "m".repeat(2000) + "'}";
        assertTooLarge(
                () ->
                        run(
                                DEPLOYMENTS,
                                new WriteOp.Patch(
                                        "d",
                                        PatchType.MERGE_PATCH,
                                        bytes("{'status':{'conditions':[" + condition + "]}}"),
                                        "status",
                                        options(false))));
    }

    @Test
    void aDryRunIsNotRefusedAsItNeverReachesStorage() {
        assertEquals(WriteOutcome.Answer.CREATED, create(configMap("a", 3000), true).answer());
        assertTrue(store.isEmpty());
    }

    @Test
    void aDeleteThatWouldGrowTheObjectPastTheLimitIsRefused() {
        ObjectNode cm = configMap("a", 0);
        ObjectMeta.of(cm).putArray("finalizers").add("x.io/f");
        ((ObjectNode) cm.get("data")).put("k", "x".repeat(dataSizeFor(cm.deepCopy(), LIMIT - 10)));
        uids = 0;
        create(cm, false);
        ObjectNode before = store.get("a").deepCopy();
        assertTooLarge(
                () ->
                        run(
                                CONFIG_MAPS,
                                new WriteOp.Delete("a", Preconditions.NONE, options(false))));
        assertEquals(before, store.get("a"), "still there, not terminating");
    }
}
