package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.bytes;
import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pipeline answers every write with a value: a {@link WriteOutcome} whose answer names the
 * {@link WriteResult} the client gets, or the {@link WriteResult.Refused} itself. Nothing is thrown
 * for a refusal, server-side apply's conflicts included.
 */
class WriteDecisionTest {

    private static final ResourceType CONFIG_MAPS = type("configmaps");
    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);

    private WriteDecision run(WriteOp op) {
        ObjectWrites.Env env =
                new ObjectWrites.Env(
                        Instant.parse("2026-03-04T05:06:07Z"), () -> "uid-" + (++uids), () -> "x");
        WriteDecision d = writes.execute(CONFIG_MAPS, "default", store::get, op, env);
        if (d instanceof WriteOutcome out && out.changed()) {
            ObjectMeta.of(out.after()).put("resourceVersion", String.valueOf(uids));
            store.put(ObjectMeta.name(out.after()), out.after());
        }
        return d;
    }

    private static WriteOp apply(String manager, String config, boolean force) {
        return new WriteOp.Patch(
                "cm",
                PatchType.APPLY_PATCH,
                bytes(config),
                null,
                new WriteOptions(false, manager, FieldValidation.STRICT),
                force);
    }

    private static ApiStatus refusal(WriteDecision d) {
        return assertInstanceOf(WriteResult.Refused.class, d, () -> "a refusal, not " + d).status();
    }

    @Test
    void anApplyThatConflictsIsRefusedWithItsConflictsAsAValue() {
        String mine =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'},'data':{'k':'a'}}";
        String theirs =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'cm'},'data':{'k':'b'}}";
        assertEquals(
                WriteOutcome.Answer.CREATED,
                assertInstanceOf(WriteOutcome.class, run(apply("alice", mine, false))).answer());

        ApiStatus s = refusal(run(apply("bob", theirs, false)));

        assertEquals(409, s.code());
        assertEquals("Conflict", s.reason());
        assertEquals("Apply failed with 1 conflict: conflict with \"alice\": .data.k", s.message());
        assertEquals(
                List.of(
                        new StatusCause(
                                "FieldManagerConflict", "conflict with \"alice\"", ".data.k")),
                s.details().causes());
        assertEquals(
                "b",
                assertInstanceOf(WriteOutcome.class, run(apply("bob", theirs, true)))
                        .after()
                        .path("data")
                        .path("k")
                        .asText(),
                "forced, the same apply goes through");
    }

    @Test
    void refusalsOfTheStoreAreValues() {
        assertEquals(
                404,
                refusal(run(new WriteOp.Delete("cm", Preconditions.NONE, WriteOptions.DEFAULT)))
                        .code());
        run(new WriteOp.Create(obj("{'metadata':{'name':'cm'}}"), WriteOptions.DEFAULT));
        assertEquals(
                "AlreadyExists",
                refusal(
                                run(
                                        new WriteOp.Create(
                                                obj("{'metadata':{'name':'cm'}}"),
                                                WriteOptions.DEFAULT)))
                        .reason());
        assertEquals(
                "Invalid",
                refusal(
                                run(
                                        new WriteOp.Create(
                                                obj("{'metadata':{'name':'Not_A_Name'}}"),
                                                WriteOptions.DEFAULT)))
                        .reason());
        assertEquals(
                409,
                refusal(
                                run(
                                        new WriteOp.Delete(
                                                "cm",
                                                new Preconditions("other-uid", null),
                                                WriteOptions.DEFAULT)))
                        .code());
        assertEquals(
                404,
                refusal(
                                run(
                                        new WriteOp.Patch(
                                                "gone",
                                                PatchType.MERGE_PATCH,
                                                bytes("{}"),
                                                null,
                                                WriteOptions.DEFAULT)))
                        .code());
    }

    @Test
    void aBodyOfTheWrongFormIsRefusedAsAValueToo() {
        ApiStatus s =
                refusal(
                        run(
                                new WriteOp.Update(
                                        "cm",
                                        obj("{'metadata':{'name':'other'}}"),
                                        null,
                                        WriteOptions.DEFAULT)));
        assertEquals(400, s.code());
        assertEquals(
                "the name of the object (other) does not match the name on the URL (cm)",
                s.message());
    }

    @Test
    void orThrowGivesTheOutcomeOrThrowsTheRefusalsStatus() {
        WriteResult.Refused refused =
                new WriteResult.Refused(ApiStatus.notFound(CONFIG_MAPS.groupResource(), "cm"));
        assertSame(refused.status(), assertThrows(ApiException.class, refused::orThrow).status());
        WriteOutcome out =
                new WriteOutcome(
                        null,
                        obj("{}"),
                        WriteOutcome.Answer.CREATED,
                        true,
                        WriteOutcome.ResponseView.OBJECT,
                        List.of());
        assertSame(out, out.orThrow());
    }

    @Test
    void eachAnswerBecomesItsResult() {
        byte[] body = bytes("{}");
        Map<WriteOutcome.Answer, Class<? extends WriteResult.Success>> expected =
                Map.of(
                        WriteOutcome.Answer.CREATED, WriteResult.Created.class,
                        WriteOutcome.Answer.UPDATED, WriteResult.Updated.class,
                        WriteOutcome.Answer.UNCHANGED, WriteResult.Unchanged.class,
                        WriteOutcome.Answer.DELETED, WriteResult.Deleted.class,
                        WriteOutcome.Answer.ACCEPTED, WriteResult.Accepted.class);
        for (WriteOutcome.Answer answer : WriteOutcome.Answer.values()) {
            WriteOutcome out =
                    new WriteOutcome(
                            obj("{}"),
                            obj("{}"),
                            answer,
                            answer != WriteOutcome.Answer.UNCHANGED,
                            WriteOutcome.ResponseView.OBJECT,
                            List.of("w"));
            WriteResult.Success result = out.result(body, 7);
            assertEquals(expected.get(answer), result.getClass());
            assertSame(body, result.body());
            assertEquals(List.of("w"), result.warnings());
            assertEquals(7, result.resourceVersion());
        }
    }

    @Test
    void anAnswerThatContradictsTheChangeIsABug() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new WriteOutcome(
                                null,
                                obj("{}"),
                                WriteOutcome.Answer.CREATED,
                                false,
                                WriteOutcome.ResponseView.OBJECT,
                                List.of()));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new WriteOutcome(
                                obj("{}"),
                                obj("{}"),
                                WriteOutcome.Answer.UNCHANGED,
                                true,
                                WriteOutcome.ResponseView.OBJECT,
                                List.of()));
    }
}
