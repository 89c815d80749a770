package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
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
 * The mutating phase of a user's write: its plugins run before the kind prepares the object (a
 * pod's qosClass counts what they set) and before every refusing plugin, which judges what they
 * left; the write stores what they left; a refusal of theirs answers the write.
 */
class ObjectWritesMutationTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of("system:authenticated"));
    private static final String POD =
            "{'metadata':{'name':'p','labels':{'app':'a'}},"
                    + "'spec':{'containers':[{'name':'c','image':'nginx'}]}}";

    private final List<String> calls = new ArrayList<>();

    /**
     * Labels the object, on a copy; on a create also gives every container 1 cpu and 1Gi as request
     * and limit (a pod's containers cannot change later).
     */
    private final MutatingAdmission resources =
            request -> {
                calls.add("resources " + request.operation());
                if (request.object() == null) {
                    return new Mutation.Admitted(null);
                }
                ObjectNode changed = request.object().deepCopy();
                JsonNode containers =
                        request.operation() == Operation.CREATE
                                ? changed.path("spec").path("containers")
                                : MissingNode.getInstance();
                for (JsonNode c : containers) {
                    ObjectNode r = ((ObjectNode) c).putObject("resources");
                    r.putObject("requests").put("cpu", "1").put("memory", "1Gi");
                    r.putObject("limits").put("cpu", "1").put("memory", "1Gi");
                }
                ObjectMeta.of(changed).withObjectProperty("labels").put("mutated", "yes");
                return new Mutation.Admitted(changed);
            };

    /** Refuses a delete, and an object labelled {@code stop}. */
    private final MutatingAdmission stopper =
            request -> {
                calls.add("stopper " + request.operation());
                if (request.operation() == Operation.DELETE
                        || (request.object() != null
                                && ObjectMeta.labels(request.object()).containsKey("stop"))) {
                    return new Mutation.Refused(request.forbidden("stopped"));
                }
                return new Mutation.Admitted(request.object());
            };

    /** Records what the refusing phase saw; refuses an object the mutation did not label. */
    private final List<AdmissionRequest> judged = new ArrayList<>();

    private final WriteAdmission judge =
            request -> {
                judged.add(request);
                ObjectNode obj = request.object();
                return obj != null && !ObjectMeta.labels(obj).containsKey("mutated")
                        ? Optional.of(request.forbidden("not mutated"))
                        : Optional.empty();
            };

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private final ObjectWrites.Env env =
            new ObjectWrites.Env(
                    Instant.parse("2026-01-02T03:04:05Z"), () -> "uid-" + (++uids), () -> "xxxxx");
    private final ObjectWrites writes =
            new ObjectWrites(
                    ObjectWrites.SCHEMA_PRUNER,
                    ObjectWrites.DEFAULT_MAX_OBJECT_BYTES,
                    WriteAdmission.chain(List.of(stopper, resources), List.of(judge)));

    private WriteDecision asEve(WriteOp op) {
        return writes.execute(type("pods"), "ns", store::get, op, env, EVE);
    }

    @Test
    void aCreateStoresWhatTheMutatingPluginsLeftAndTheKindPreparesIt() {
        ObjectNode body = obj(POD);
        WriteOutcome out = asEve(new WriteOp.Create(body, WriteOptions.DEFAULT)).orThrow();
        assertEquals("yes", ObjectMeta.labels(out.after()).get("mutated"));
        assertEquals("1Gi", out.after().at("/spec/containers/0/resources/limits/memory").asText());
        // the initial status is derived after the mutation, as kube's PrepareForCreate is
        assertEquals("Guaranteed", out.after().at("/status/qosClass").asText());
        assertEquals(List.of("stopper CREATE", "resources CREATE"), calls);
        assertEquals(out.after(), judged.get(0).object(), "the refusing phase judged the result");
        assertEquals(obj(POD), body, "the request's body is not changed");
    }

    @Test
    void aMutatingRefusalAnswersTheWriteBeforeTheLaterPluginsAndTheRefusingPhase() {
        ObjectNode body = obj(POD);
        ObjectMeta.of(body).withObjectProperty("labels").put("stop", "1");
        ApiStatus status =
                assertInstanceOf(
                                WriteResult.Refused.class,
                                asEve(new WriteOp.Create(body, WriteOptions.DEFAULT)))
                        .status();
        assertEquals(403, status.code());
        assertEquals("pods \"p\" is forbidden: stopped", status.message());
        assertEquals(List.of("stopper CREATE"), calls);
        assertTrue(judged.isEmpty());
    }

    @Test
    void anUpdateIsMutatedBeforeItIsJudgedAndStored() {
        store.put(
                "p",
                writes.execute(
                                type("pods"),
                                "ns",
                                store::get,
                                new WriteOp.Create(obj(POD), WriteOptions.DEFAULT),
                                env)
                        .orThrow()
                        .after());
        ObjectNode body = store.get("p").deepCopy();
        ObjectMeta.of(body).withObjectProperty("labels").put("app", "b");
        WriteOutcome out =
                asEve(new WriteOp.Update("p", body, null, WriteOptions.DEFAULT)).orThrow();
        assertEquals("yes", ObjectMeta.labels(out.after()).get("mutated"));
        assertEquals("b", ObjectMeta.labels(out.after()).get("app"));
        assertEquals(List.of("stopper UPDATE", "resources UPDATE"), calls);
    }

    @Test
    void aDeleteMayBeRefusedByAMutatingPlugin() {
        store.put(
                "p",
                writes.execute(
                                type("pods"),
                                "ns",
                                store::get,
                                new WriteOp.Create(obj(POD), WriteOptions.DEFAULT),
                                env)
                        .orThrow()
                        .after());
        WriteDecision d = asEve(new WriteOp.Delete("p", Preconditions.NONE, WriteOptions.DEFAULT));
        assertEquals(
                "pods \"p\" is forbidden: stopped",
                assertInstanceOf(WriteResult.Refused.class, d).status().message());
        assertTrue(judged.isEmpty());
    }

    @Test
    void theServersOwnWritesAreNotMutated() {
        WriteOutcome out =
                writes.execute(
                                type("pods"),
                                "ns",
                                store::get,
                                new WriteOp.Create(obj(POD), WriteOptions.DEFAULT),
                                env)
                        .orThrow();
        assertTrue(calls.isEmpty());
        assertEquals("BestEffort", out.after().at("/status/qosClass").asText());
    }
}
