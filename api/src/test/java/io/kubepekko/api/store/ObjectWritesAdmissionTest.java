package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.bytes;
import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The pipeline asks a user's write's admission once, inside the write, with what kube's admission
 * sees: the operation, the user, the addressed resource and subresource, the namespace and name,
 * the stored object and the object the write leaves (a patch's actual result), and dry run. A
 * refusal is the write's answer.
 */
class ObjectWritesAdmissionTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of("system:authenticated"));
    private static final String POD =
            "{'metadata':{'name':'p','labels':{'app':'a'}},"
                    + "'spec':{'containers':[{'name':'c','image':'nginx'}]}}";

    private final List<AdmissionRequest> asked = new ArrayList<>();

    /** Records every request; refuses an object labelled {@code refuse}. */
    private final WriteAdmission recording =
            request -> {
                asked.add(request);
                ObjectNode obj = request.object();
                return obj != null && ObjectMeta.labels(obj).containsKey("refuse")
                        ? Optional.of(request.forbidden("labelled refuse"))
                        : Optional.empty();
            };

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private final ObjectWrites.Env env =
            new ObjectWrites.Env(
                    Instant.parse("2026-01-02T03:04:05Z"), () -> "uid-" + (++uids), () -> "xxxxx");
    private final ObjectWrites writes =
            new ObjectWrites(
                    ObjectWrites.SCHEMA_PRUNER, ObjectWrites.DEFAULT_MAX_OBJECT_BYTES, recording);

    private WriteDecision asEve(String resource, WriteOp op) {
        return writes.execute(type(resource), "ns", store::get, op, env, EVE);
    }

    private ObjectNode seed() {
        ObjectNode stored =
                writes.execute(
                                type("pods"),
                                "ns",
                                store::get,
                                new WriteOp.Create(obj(POD), WriteOptions.DEFAULT),
                                env)
                        .orThrow()
                        .after();
        ObjectMeta.of(stored).put("resourceVersion", "5");
        store.put("p", stored);
        return stored;
    }

    private AdmissionRequest onlyRequest() {
        assertEquals(1, asked.size(), asked.toString());
        return asked.get(0);
    }

    @Test
    void aCreateIsAskedWithTheCompleteNewObjectAndNoOldOne() {
        WriteOutcome created =
                asEve("pods", new WriteOp.Create(obj(POD), WriteOptions.DEFAULT)).orThrow();
        AdmissionRequest r = onlyRequest();
        assertEquals(Operation.CREATE, r.operation());
        assertSame(EVE, r.user());
        assertEquals(new GroupResource("", "pods"), r.resource());
        assertEquals("", r.subresource());
        assertEquals("ns", r.namespace());
        assertEquals("p", r.name());
        assertNull(r.oldObject());
        assertEquals("uid-1", ObjectMeta.uid(r.object()));
        assertEquals(created.after(), r.object());
        assertEquals(false, r.dryRun());
    }

    @Test
    void theServersOwnWritesAreNotAsked() {
        seed();
        assertTrue(asked.isEmpty());
    }

    @Test
    void aRefusalAnswersTheWriteBeforeValidationAndUniqueness() {
        seed();
        // invalid (no containers) and already there: kube's admission answers first
        WriteDecision d =
                asEve(
                        "pods",
                        new WriteOp.Create(
                                obj("{'metadata':{'name':'p','labels':{'refuse':'1'}},'spec':{}}"),
                                WriteOptions.DEFAULT));
        ApiStatus status = assertInstanceOf(WriteResult.Refused.class, d).status();
        assertEquals(403, status.code());
        assertEquals("pods \"p\" is forbidden: labelled refuse", status.message());
    }

    @Test
    void anUpdateIsAskedWithTheStoredObjectAndTheOneItLeaves() {
        ObjectNode stored = seed();
        ObjectNode body = stored.deepCopy();
        ObjectMeta.of(body).putObject("labels").put("app", "b");
        WriteOutcome out =
                asEve("pods", new WriteOp.Update("p", body, null, WriteOptions.DEFAULT)).orThrow();
        AdmissionRequest r = onlyRequest();
        assertEquals(Operation.UPDATE, r.operation());
        assertEquals(stored, r.oldObject());
        assertEquals(out.after(), r.object());
        assertEquals("p", r.name());
    }

    @Test
    void aPatchIsJudgedByItsActualResultAgainstTheStoredObject() {
        ObjectNode stored = seed();
        WriteDecision d =
                asEve(
                        "pods",
                        new WriteOp.Patch(
                                "p",
                                PatchType.MERGE_PATCH,
                                bytes("{'metadata':{'labels':{'refuse':'yes'}}}"),
                                null,
                                WriteOptions.DEFAULT));
        assertInstanceOf(WriteResult.Refused.class, d);
        AdmissionRequest r = onlyRequest();
        assertEquals(Operation.UPDATE, r.operation());
        assertEquals(stored, r.oldObject());
        assertEquals("yes", ObjectMeta.labels(r.object()).get("refuse"));
        assertEquals("a", ObjectMeta.labels(r.object()).get("app"));
        assertEquals(stored, store.get("p"), "the store is untouched");
    }

    @Test
    void anApplyThatCreatesIsACreate() {
        WriteDecision d =
                asEve(
                        "configmaps",
                        new WriteOp.Patch(
                                "cm",
                                PatchType.APPLY_PATCH,
                                bytes(
                                        "{'apiVersion':'v1','kind':'ConfigMap',"
                                                + "'metadata':{'name':'cm'},'data':{'k':'v'}}"),
                                null,
                                new WriteOptions(true, "kubectl", FieldValidation.STRICT)));
        assertInstanceOf(WriteOutcome.class, d);
        AdmissionRequest r = onlyRequest();
        assertEquals(Operation.CREATE, r.operation());
        assertEquals(new GroupResource("", "configmaps"), r.resource());
        assertEquals("cm", r.name());
        assertTrue(r.dryRun());
    }

    @Test
    void aStatusWriteNamesItsSubresource() {
        ObjectNode stored = seed();
        asEve(
                "pods",
                new WriteOp.Patch(
                        "p",
                        PatchType.MERGE_PATCH,
                        bytes("{'status':{'phase':'Running'}}"),
                        "status",
                        WriteOptions.DEFAULT));
        AdmissionRequest r = onlyRequest();
        assertEquals("status", r.subresource());
        assertEquals(stored, r.oldObject());
        assertEquals("Running", r.object().at("/status/phase").asText());
    }

    @Test
    void aDeleteIsAskedWithTheStoredObjectOnceItsPreconditionsHold() {
        ObjectNode stored = seed();
        WriteDecision stale =
                asEve(
                        "pods",
                        new WriteOp.Delete(
                                "p", new Preconditions("other-uid", null), WriteOptions.DEFAULT));
        assertEquals(409, assertInstanceOf(WriteResult.Refused.class, stale).status().code());
        assertTrue(asked.isEmpty());
        asEve("pods", new WriteOp.Delete("p", Preconditions.NONE, WriteOptions.DEFAULT)).orThrow();
        AdmissionRequest r = onlyRequest();
        assertEquals(Operation.DELETE, r.operation());
        assertEquals(stored, r.oldObject());
        assertNull(r.object());
    }

    @Test
    void aBindingIsACreateOfPodsBindingWithItsBodyAndAForwardedOneNamesBindings() {
        seed();
        String binding =
                "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'p'},"
                        + "'target':{'kind':'Node','name':'n1'}}";
        asEve(
                "pods",
                new WriteOp.CreateSubresource(
                        "p", "binding", obj(binding), null, WriteOptions.DEFAULT));
        AdmissionRequest direct = onlyRequest();
        assertEquals(Operation.CREATE, direct.operation());
        assertEquals(new GroupResource("", "pods"), direct.resource());
        assertEquals("binding", direct.subresource());
        assertEquals("Binding", direct.object().path("kind").asText());
        assertNull(direct.oldObject());
        asked.clear();
        asEve(
                "pods",
                new WriteOp.CreateSubresource(
                        "p", "binding", obj(binding), "bindings", WriteOptions.DEFAULT));
        AdmissionRequest forwarded = onlyRequest();
        assertEquals(new GroupResource("", "bindings"), forwarded.resource());
        assertEquals("", forwarded.subresource());
    }
}
