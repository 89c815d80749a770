package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kubernetes' deletion semantics in the write pipeline: SPEC's two-phase deletion table,
 * DeleteOptions (preconditions, grace periods, propagation, 202), graceful deletion of pods, the
 * garbage-collection finalizers, and the namespace lifecycle. One in-memory collection per kind, a
 * fixed clock, objects stored at resourceVersion 5 and then 6, 7… as each write is committed.
 */
class DeletionTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.891234Z");
    private static final String NOW_TEXT = "2026-03-04T05:06:07Z";

    private static final String CONTAINERS = "'containers':[{'name':'app','image':'nginx:1.27'}]";

    private final Map<String, Map<String, ObjectNode>> stores = new HashMap<>();
    private int uids;
    private int version = 5;
    private Instant now = NOW;
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);

    // ---- fixture
    // ----------------------------------------------------------------------------------

    private static ResourceType type(String resource) {
        return REGISTRY.all().stream()
                .filter(t -> t.resource().equals(resource))
                .findFirst()
                .orElseThrow();
    }

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private Map<String, ObjectNode> store(String resource) {
        return stores.computeIfAbsent(resource, r -> new HashMap<>());
    }

    private WriteOutcome run(String resource, WriteOp op) {
        ResourceType t = type(resource);
        ObjectWrites.Env env = new ObjectWrites.Env(now, () -> "uid-" + (++uids), () -> "00001");
        return writes.execute(t, t.namespaced() ? "default" : null, store(resource)::get, op, env)
                .orThrow();
    }

    /**
     * Runs {@code op} and, as the collection's writer would, stores its result at the next version.
     */
    private WriteOutcome commit(String resource, WriteOp op) {
        WriteOutcome out = run(resource, op);
        if (out.changed() && !op.options().dryRun()) {
            String name = out.after().path("metadata").path("name").asText();
            if (out.removes()) {
                store(resource).remove(name);
            } else {
                ObjectNode stored = out.after().deepCopy();
                ObjectMeta.of(stored).put("resourceVersion", Integer.toString(version++));
                store(resource).put(name, stored);
            }
        }
        return out;
    }

    private ObjectNode seed(String resource, String json) {
        commit(resource, new WriteOp.Create(obj(json), WriteOptions.DEFAULT));
        return stored(resource, obj(json).path("metadata").path("name").asText());
    }

    private ObjectNode stored(String resource, String name) {
        return store(resource).get(name);
    }

    private static WriteOp.Delete delete(
            String name, Long grace, PropagationPolicy policy, Boolean orphan) {
        return new WriteOp.Delete(
                name, Preconditions.NONE, WriteOptions.DEFAULT, grace, policy, orphan);
    }

    private WriteOutcome delete(String resource, String name) {
        return commit(resource, delete(name, null, null, null));
    }

    private WriteOutcome mergePatch(String resource, String name, String patch) {
        return commit(
                resource,
                new WriteOp.Patch(
                        name,
                        PatchType.MERGE_PATCH,
                        patch.replace('\'', '"').getBytes(StandardCharsets.UTF_8),
                        null,
                        new WriteOptions(false, null, FieldValidation.WARN)));
    }

    private static JsonNode meta(ObjectNode obj, String field) {
        return obj.path("metadata").get(field);
    }

    private static List<String> finalizers(ObjectNode obj) {
        return Deletion.finalizers(obj);
    }

    private static ApiStatus refused(Executable write) {
        return assertThrows(ApiException.class, write).status();
    }

    private static ObjectNode configMap(String name, String finalizers) {
        return obj(
                "{'metadata':{'name':'"
                        + name
                        + "','finalizers':"
                        + finalizers
                        + "},'data':{'k':'v'}}");
    }

    // ---- SPEC: States and transitions → Two-phase deletion
    // ----------------------------------------------

    @Nested
    class TwoPhaseDeletion {

        @Test
        void deleteOfALiveObjectWithFinalizersMakesItTerminating() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            WriteOutcome out = delete("configmaps", "cm");
            assertFalse(out.removes());
            assertTrue(out.changed(), "a MODIFIED event");
            assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
            assertEquals(WriteOutcome.Answer.UPDATED, out.answer());
            assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
            assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertEquals(List.of("example.com/a"), finalizers(stored("configmaps", "cm")));
        }

        @Test
        void removingOneOfSeveralFinalizersKeepsItTerminating() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a','example.com/b']")));
            delete("configmaps", "cm");
            WriteOutcome out =
                    mergePatch("configmaps", "cm", "{'metadata':{'finalizers':['example.com/b']}}");
            assertFalse(out.removes());
            assertTrue(out.changed());
            assertEquals(NOW_TEXT, meta(stored("configmaps", "cm"), "deletionTimestamp").asText());
        }

        @Test
        void removingTheLastFinalizerRemovesTheObject() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            delete("configmaps", "cm");
            WriteOutcome out = mergePatch("configmaps", "cm", "{'metadata':{'finalizers':null}}");
            assertTrue(out.removes(), "a DELETED event");
            assertNull(stored("configmaps", "cm"));
            assertEquals(
                    NOW_TEXT,
                    meta(out.after(), "deletionTimestamp").asText(),
                    "the final state is terminating");
        }

        @Test
        void finalizersMayBeRemovedInAnyOrder() {
            seed(
                    "configmaps",
                    Json.string(
                            configMap("cm", "['example.com/a','example.com/b','example.com/c']")));
            delete("configmaps", "cm");
            assertFalse(
                    mergePatch(
                                    "configmaps",
                                    "cm",
                                    "{'metadata':{'finalizers':['example.com/a','example.com/c']}}")
                            .removes());
            assertFalse(
                    mergePatch("configmaps", "cm", "{'metadata':{'finalizers':['example.com/a']}}")
                            .removes());
            assertTrue(mergePatch("configmaps", "cm", "{'metadata':{'finalizers':[]}}").removes());
        }

        @Test
        void noFinalizerMayBeAddedOnceTerminating() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            delete("configmaps", "cm");
            ApiStatus s =
                    refused(
                            () ->
                                    mergePatch(
                                            "configmaps",
                                            "cm",
                                            "{'metadata':{'finalizers':['example.com/a','example.com/b']}}"));
            assertEquals(422, s.code());
            assertTrue(
                    s.message()
                            .contains(
                                    "no new finalizers can be added if the object is being deleted"),
                    s.message());
        }

        @Test
        void otherFieldsStayUpdatableWhileTerminating() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            delete("configmaps", "cm");
            WriteOutcome out =
                    mergePatch(
                            "configmaps",
                            "cm",
                            "{'metadata':{'labels':{'x':'y'}},'data':{'k':'w'}}");
            assertTrue(out.changed());
            assertFalse(out.removes());
            assertEquals("w", stored("configmaps", "cm").path("data").path("k").asText());
            assertEquals(NOW_TEXT, meta(stored("configmaps", "cm"), "deletionTimestamp").asText());
        }

        @Test
        void aRepeatedDeleteChangesNothing() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            delete("configmaps", "cm");
            ObjectNode terminating = stored("configmaps", "cm");
            now = NOW.plusSeconds(60);
            WriteOutcome again = delete("configmaps", "cm");
            assertFalse(again.changed(), "no write, no event, no resourceVersion");
            assertFalse(again.removes());
            assertEquals(WriteOutcome.Answer.UNCHANGED, again.answer());
            assertSame(terminating, again.after());
        }

        @Test
        void anObjectWithoutFinalizersIsRemovedAtOnce() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            WriteOutcome out = delete("configmaps", "cm");
            assertTrue(out.removes());
            assertEquals(
                    WriteOutcome.ResponseView.DELETED,
                    out.view(),
                    "a Status, as the configmap store answers");
            assertEquals(WriteOutcome.Answer.DELETED, out.answer());
        }
    }

    // ---- DeleteOptions
    // ------------------------------------------------------------------------------------

    @Nested
    class Options {

        static Stream<Arguments> failedPreconditions() {
            return Stream.of(
                    Arguments.of(
                            "uid",
                            new Preconditions("other", null),
                            "the UID in the precondition (other) does not "
                                    + "match the UID in record (uid-1). The object might have been deleted and then recreated"),
                    Arguments.of(
                            "resourceVersion",
                            new Preconditions(null, "4"),
                            "the ResourceVersion in the "
                                    + "precondition (4) does not match the ResourceVersion in record (5). The object might "
                                    + "have been modified"));
        }

        @ParameterizedTest(name = "{0}")
        @MethodSource("failedPreconditions")
        void aFailedPreconditionConflictsNamingTheKind(String name, Preconditions pre, String why) {
            seed(
                    "deployments",
                    "{'metadata':{'name':'web'},'spec':{'selector':{'matchLabels':{'a':'b'}},"
                            + "'template':{'metadata':{'labels':{'a':'b'}},'spec':{"
                            + CONTAINERS
                            + "}}}}");
            ApiStatus s =
                    refused(
                            () ->
                                    run(
                                            "deployments",
                                            new WriteOp.Delete("web", pre, WriteOptions.DEFAULT)));
            assertEquals(409, s.code());
            assertEquals("Conflict", s.reason());
            assertEquals(
                    "Operation cannot be fulfilled on Deployment.apps \"web\": " + why,
                    s.message());
            assertEquals("Deployment", s.details().kind());
            assertEquals("apps", s.details().group());
        }

        @Test
        void matchingPreconditionsDelete() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            assertTrue(
                    run(
                                    "configmaps",
                                    new WriteOp.Delete(
                                            "cm",
                                            new Preconditions("uid-1", "5"),
                                            WriteOptions.DEFAULT))
                            .removes());
        }

        @Test
        void orphanDependentsFalseAnswers202WhenTheObjectStays() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            WriteOutcome out = commit("configmaps", delete("cm", null, null, false));
            assertFalse(out.removes());
            assertEquals(WriteOutcome.Answer.ACCEPTED, out.answer());
        }

        @Test
        void orphanDependentsFalseAnswers200WhenTheObjectGoes() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            WriteOutcome out = commit("configmaps", delete("cm", null, null, false));
            assertTrue(out.removes());
            assertEquals(WriteOutcome.Answer.DELETED, out.answer());
        }

        @Test
        void aDryRunDeleteHasTheRealOutcome() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            WriteOp.Delete dry =
                    new WriteOp.Delete(
                            "cm",
                            Preconditions.NONE,
                            new WriteOptions(true, null, FieldValidation.IGNORE),
                            null,
                            PropagationPolicy.FOREGROUND,
                            null);
            WriteOutcome dryOut = run("configmaps", dry);
            WriteOutcome real =
                    run("configmaps", delete("cm", null, PropagationPolicy.FOREGROUND, null));
            assertEquals(real.after(), dryOut.after());
            assertEquals(real.answer(), dryOut.answer());
            assertEquals(real.view(), dryOut.view());
        }
    }

    // ---- graceful deletion of pods
    // ------------------------------------------------------------------------

    @Nested
    class GracefulPods {

        private ObjectNode pod(String name, String specExtra) {
            return seed(
                    "pods",
                    "{'metadata':{'name':'" + name + "'},'spec':{" + CONTAINERS + specExtra + "}}");
        }

        @Test
        void aBoundPodStaysForItsTerminationGracePeriod() {
            pod("p", ",'nodeName':'n1','terminationGracePeriodSeconds':45");
            WriteOutcome out = delete("pods", "p");
            assertFalse(out.removes());
            assertTrue(out.changed());
            assertEquals(
                    "2026-03-04T05:06:52Z",
                    meta(out.after(), "deletionTimestamp").asText(),
                    "now + 45s");
            assertEquals(45, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertEquals(2, meta(out.after(), "generation").asInt());
            assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
        }

        @Test
        void theDefaultGracePeriodIsThirtySeconds() {
            pod("p", ",'nodeName':'n1'");
            WriteOutcome out = delete("pods", "p");
            assertEquals(30, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertEquals("2026-03-04T05:06:37Z", meta(out.after(), "deletionTimestamp").asText());
        }

        @Test
        void anUnboundPodIsRemovedAtOnceAndAnsweredWithItself() {
            pod("p", "");
            WriteOutcome out = delete("pods", "p");
            assertTrue(out.removes());
            assertEquals(
                    WriteOutcome.ResponseView.OBJECT,
                    out.view(),
                    "the pod store returns the deleted object");
            assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"Succeeded", "Failed"})
        void aFinishedPodIsRemovedAtOnce(String phase) {
            pod("p", ",'nodeName':'n1'");
            ObjectNode finished = stored("pods", "p");
            ((ObjectNode) finished.path("status")).put("phase", phase);
            assertTrue(delete("pods", "p").removes());
        }

        @Test
        void gracePeriodZeroForcesRemoval() {
            pod("p", ",'nodeName':'n1'");
            WriteOutcome out = commit("pods", delete("p", 0L, null, null));
            assertTrue(out.removes());
        }

        @Test
        void aNegativeGracePeriodCountsAsOneSecond() {
            pod("p", ",'nodeName':'n1'");
            WriteOutcome out = commit("pods", delete("p", -5L, null, null));
            assertFalse(out.removes());
            assertEquals(1, meta(out.after(), "deletionGracePeriodSeconds").asInt());
        }

        @Test
        void aLaterDeleteMayShortenTheGracePeriod() {
            pod("p", ",'nodeName':'n1'");
            delete("pods", "p");
            now = NOW.plusSeconds(5);
            WriteOutcome out = commit("pods", delete("p", 10L, null, null));
            assertTrue(out.changed());
            assertFalse(out.removes());
            assertEquals(10, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertEquals(
                    "2026-03-04T05:06:17Z",
                    meta(out.after(), "deletionTimestamp").asText(),
                    "the first deadline moved 20s earlier");
            assertEquals(
                    2, meta(out.after(), "generation").asInt(), "only the first request bumps it");
        }

        @ParameterizedTest(name = "grace {0}")
        @ValueSource(longs = {30, 60})
        void aLaterDeleteNeverLengthensIt(long grace) {
            pod("p", ",'nodeName':'n1'");
            delete("pods", "p");
            ObjectNode terminating = stored("pods", "p");
            WriteOutcome out = commit("pods", delete("p", grace, null, null));
            assertFalse(out.changed());
            assertFalse(out.removes());
            assertSame(terminating, out.after());
        }

        @Test
        void aLaterDeleteWithoutAPeriodChangesNothing() {
            pod("p", ",'nodeName':'n1'");
            delete("pods", "p");
            assertFalse(delete("pods", "p").changed());
        }

        @Test
        void theNodeAgentsGraceZeroDeleteRemovesIt() {
            pod("p", ",'nodeName':'n1'");
            delete("pods", "p");
            WriteOutcome out = commit("pods", delete("p", 0L, null, null));
            assertTrue(out.removes());
            assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
        }

        @Test
        void aGraceZeroDeleteOfAPodWithFinalizersKeepsIt() {
            seed(
                    "pods",
                    "{'metadata':{'name':'p','finalizers':['example.com/a']},'spec':{"
                            + CONTAINERS
                            + ",'nodeName':'n1'}}");
            WriteOutcome out = commit("pods", delete("p", 0L, null, null));
            assertFalse(out.removes());
            assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
            assertTrue(mergePatch("pods", "p", "{'metadata':{'finalizers':null}}").removes());
        }

        @Test
        void removingTheLastFinalizerDuringTheGracePeriodDoesNotRemoveThePod() {
            seed(
                    "pods",
                    "{'metadata':{'name':'p','finalizers':['example.com/a']},'spec':{"
                            + CONTAINERS
                            + ",'nodeName':'n1'}}");
            delete("pods", "p");
            WriteOutcome out = mergePatch("pods", "p", "{'metadata':{'finalizers':null}}");
            assertFalse(out.removes(), "the node agent's grace-0 delete still has to come");
            assertTrue(commit("pods", delete("p", 0L, null, null)).removes());
        }
    }

    // ---- propagation
    // --------------------------------------------------------------------------------------

    @Nested
    class Propagation {

        @Test
        void foregroundAddsItsFinalizerAndKeepsTheObject() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            WriteOutcome out =
                    commit("configmaps", delete("cm", null, PropagationPolicy.FOREGROUND, null));
            assertFalse(out.removes());
            assertEquals(List.of("foregroundDeletion"), finalizers(out.after()));
            assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
            assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
        }

        @Test
        void orphanAddsItsFinalizer() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            WriteOutcome out =
                    commit("configmaps", delete("cm", null, PropagationPolicy.ORPHAN, null));
            assertEquals(List.of("example.com/a", "orphan"), finalizers(out.after()));
        }

        @Test
        void orphanDependentsTrueAddsTheOrphanFinalizer() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            assertEquals(
                    List.of("orphan"),
                    finalizers(commit("configmaps", delete("cm", null, null, true)).after()));
        }

        @Test
        void backgroundAddsNoFinalizer() {
            seed("configmaps", Json.string(configMap("cm", "[]")));
            assertTrue(
                    commit("configmaps", delete("cm", null, PropagationPolicy.BACKGROUND, null))
                            .removes());
        }

        @Test
        void anExplicitPolicyReplacesTheOtherGcFinalizer() {
            seed("configmaps", Json.string(configMap("cm", "['orphan']")));
            WriteOutcome out =
                    commit("configmaps", delete("cm", null, PropagationPolicy.FOREGROUND, null));
            assertEquals(List.of("foregroundDeletion"), finalizers(out.after()));
        }

        @Test
        void theObjectsOwnGcFinalizerOverridesTheKindsDefault() {
            seed(
                    "jobs",
                    "{'metadata':{'name':'j','finalizers':['foregroundDeletion']},'spec':{'template':{'spec':{"
                            + CONTAINERS
                            + ",'restartPolicy':'Never'}}}}");
            WriteOutcome out = delete("jobs", "j");
            assertEquals(List.of("foregroundDeletion"), finalizers(out.after()));
        }

        @Test
        void backgroundOnAnObjectWithOnlyTheOrphanFinalizerRemovesIt() {
            seed("configmaps", Json.string(configMap("cm", "['orphan']")));
            assertTrue(
                    commit("configmaps", delete("cm", null, PropagationPolicy.BACKGROUND, null))
                            .removes());
        }

        @Test
        void aTerminatingObjectStillTakesAnotherGcFinalizer() {
            seed("configmaps", Json.string(configMap("cm", "['example.com/a']")));
            delete("configmaps", "cm");
            WriteOutcome out =
                    commit("configmaps", delete("cm", null, PropagationPolicy.FOREGROUND, null));
            assertTrue(out.changed());
            assertEquals(List.of("example.com/a", "foregroundDeletion"), finalizers(out.after()));
            assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
        }

        @Test
        void aPodInItsGracePeriodTakesNoGcFinalizer() {
            seed("pods", "{'metadata':{'name':'p'},'spec':{" + CONTAINERS + ",'nodeName':'n1'}}");
            delete("pods", "p");
            WriteOutcome out =
                    commit("pods", delete("p", null, PropagationPolicy.FOREGROUND, null));
            assertFalse(out.changed());
        }

        private static final String JOB =
                "{'metadata':{'name':'j'},'spec':{'template':{'spec':{"
                        + CONTAINERS
                        + ",'restartPolicy':'Never'}}}}";

        @Test
        void batchV1JobsOrphanByDefaultAndWarn() {
            seed("jobs", JOB);
            WriteOutcome out = delete("jobs", "j");
            assertFalse(out.removes());
            assertEquals(List.of("orphan"), finalizers(out.after()));
            assertEquals(
                    List.of(
                            "child pods are preserved by default when jobs are deleted; set "
                                    + "propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this "
                                    + "warning"),
                    out.warnings());
        }

        @Test
        void aJobDeletedInTheBackgroundGoesWithoutWarning() {
            seed("jobs", JOB);
            WriteOutcome out =
                    commit("jobs", delete("j", null, PropagationPolicy.BACKGROUND, null));
            assertTrue(out.removes());
            assertEquals(List.of(), out.warnings());
        }

        @Test
        void appsV1KindsDeleteDependentsInTheBackgroundByDefault() {
            seed(
                    "deployments",
                    "{'metadata':{'name':'web'},'spec':{'selector':{'matchLabels':{'a':'b'}},"
                            + "'template':{'metadata':{'labels':{'a':'b'}},'spec':{"
                            + CONTAINERS
                            + "}}}}");
            assertTrue(delete("deployments", "web").removes());
        }

        @Test
        void eventsTakeNoGcFinalizer() {
            seed(
                    "events",
                    "{'metadata':{'name':'e'},'involvedObject':{'kind':'Pod','name':'p','namespace':'default'}}");
            assertTrue(
                    commit("events", delete("e", null, PropagationPolicy.ORPHAN, null)).removes());
            seed(
                    "events",
                    "{'metadata':{'name':'f'},'involvedObject':{'kind':'Pod','name':'p','namespace':'default'}}");
            assertTrue(
                    commit("events", delete("f", null, PropagationPolicy.FOREGROUND, null))
                            .removes());
        }
    }

    // ---- namespaces
    // ---------------------------------------------------------------------------------------

    @Nested
    class Namespaces {

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"default", "kube-system", "kube-public", "kube-node-lease"})
        void theSystemNamespacesMayNotBeDeleted(String name) {
            ApiStatus s = refused(() -> run("namespaces", delete(name, null, null, null)));
            assertEquals(403, s.code());
            assertEquals("Forbidden", s.reason());
            assertEquals(
                    "namespaces \"" + name + "\" is forbidden: this namespace may not be deleted",
                    s.message());
        }

        @Test
        void theFirstDeleteMarksItTerminatingAndAnswersWithIt() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            WriteOutcome out = delete("namespaces", "team");
            assertFalse(out.removes());
            assertTrue(out.changed());
            assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
            assertEquals(WriteOutcome.Answer.UPDATED, out.answer());
            assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
            assertEquals("Terminating", out.after().path("status").path("phase").asText());
            assertEquals(
                    List.of("kubernetes"),
                    List.of(out.after().path("spec").path("finalizers").get(0).asText()));
            assertNull(meta(out.after(), "deletionGracePeriodSeconds"));
        }

        @Test
        void theFirstDeleteMarksItTerminatingEvenWithoutAnyFinalizer() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            ObjectNode bare = stored("namespaces", "team");
            ((ObjectNode) bare.path("spec")).putArray("finalizers");
            assertFalse(delete("namespaces", "team").removes());
            assertTrue(
                    delete("namespaces", "team").removes(),
                    "the second delete finds nothing holding it");
        }

        @Test
        void aRepeatedDeleteWhileSpecFinalizersRemainChangesNothing() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            delete("namespaces", "team");
            WriteOutcome again = delete("namespaces", "team");
            assertFalse(again.changed());
            assertFalse(again.removes());
            assertEquals(WriteOutcome.ResponseView.OBJECT, again.view());
        }

        @Test
        void explicitPropagationSetsTheGcFinalizer() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            WriteOutcome out =
                    commit("namespaces", delete("team", null, PropagationPolicy.FOREGROUND, null));
            assertEquals(List.of("foregroundDeletion"), finalizers(out.after()));
        }

        @Test
        void aFailedPreconditionUsesTheNamespaceStoragesWording() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            ApiStatus s =
                    refused(
                            () ->
                                    run(
                                            "namespaces",
                                            new WriteOp.Delete(
                                                    "team",
                                                    new Preconditions(null, "4"),
                                                    WriteOptions.DEFAULT)));
            assertEquals(409, s.code());
            assertEquals(
                    "Operation cannot be fulfilled on namespaces \"team\": Precondition failed: ResourceVersion "
                            + "in precondition: 4, ResourceVersion in object meta: 5",
                    s.message());
            ApiStatus u =
                    refused(
                            () ->
                                    run(
                                            "namespaces",
                                            new WriteOp.Delete(
                                                    "team",
                                                    new Preconditions("x", null),
                                                    WriteOptions.DEFAULT)));
            assertEquals(
                    "Operation cannot be fulfilled on namespaces \"team\": Precondition failed: UID in "
                            + "precondition: x, UID in object meta: uid-1",
                    u.message());
        }

        private WriteOutcome finalize(String name, String finalizers) {
            ObjectNode body = stored("namespaces", name).deepCopy();
            ObjectNode spec = (ObjectNode) body.path("spec");
            spec.set("finalizers", obj("{'f':" + finalizers + "}").get("f"));
            return commit(
                    "namespaces", new WriteOp.Update(name, body, "finalize", WriteOptions.DEFAULT));
        }

        @Test
        void finalizeEmptyingSpecFinalizersOfATerminatingNamespaceRemovesIt() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            delete("namespaces", "team");
            WriteOutcome out = finalize("team", "[]");
            assertTrue(out.removes());
            assertNull(stored("namespaces", "team"));
        }

        @Test
        void finalizeLeavesATerminatingNamespaceWithMetadataFinalizers() {
            seed("namespaces", "{'metadata':{'name':'team','finalizers':['example.com/a']}}");
            delete("namespaces", "team");
            WriteOutcome out = finalize("team", "[]");
            assertFalse(out.removes());
            assertEquals(0, stored("namespaces", "team").path("spec").path("finalizers").size());
            assertTrue(
                    mergePatch("namespaces", "team", "{'metadata':{'finalizers':null}}").removes());
        }

        @Test
        void finalizeOfALiveNamespaceOnlyChangesItsFinalizers() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            ObjectNode body = stored("namespaces", "team").deepCopy();
            ((ObjectNode) body.path("status")).put("phase", "Terminating");
            ((ObjectNode) body.path("spec")).putArray("finalizers").add("example.com/x");
            WriteOutcome out =
                    commit(
                            "namespaces",
                            new WriteOp.Update("team", body, "finalize", WriteOptions.DEFAULT));
            assertFalse(out.removes());
            assertEquals(
                    "example.com/x",
                    stored("namespaces", "team").path("spec").path("finalizers").get(0).asText());
            assertEquals(
                    "Active", stored("namespaces", "team").path("status").path("phase").asText());
        }

        @Test
        void finalizeRefusesAnUnqualifiedFinalizerName() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            ApiStatus s = refused(() -> finalize("team", "['bogus']"));
            assertEquals(422, s.code());
        }

        @Test
        void aMainResourceUpdateKeepsSpecFinalizers() {
            seed("namespaces", "{'metadata':{'name':'team'}}");
            delete("namespaces", "team");
            WriteOutcome out =
                    mergePatch(
                            "namespaces",
                            "team",
                            "{'spec':{'finalizers':[]},'metadata':{'labels':{'a':'b'}}}");
            assertFalse(out.removes());
            assertEquals(
                    "kubernetes",
                    stored("namespaces", "team").path("spec").path("finalizers").get(0).asText());
            assertEquals(
                    "b",
                    stored("namespaces", "team")
                            .path("metadata")
                            .path("labels")
                            .path("a")
                            .asText());
        }
    }
}
