package io.kubepekko.api.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's attemptToDeleteItem decisions, one case per branch. */
class GarbageCollectionTest {

    static ObjectNode dependent(List<String> ownerUids, String... finalizers) {
        ObjectNode obj = Json.MAPPER.createObjectNode();
        ObjectNode meta =
                obj.putObject("metadata")
                        .put("name", "d")
                        .put("uid", "d-uid")
                        .put("resourceVersion", "7");
        ArrayNode refs = meta.putArray("ownerReferences");
        for (String uid : ownerUids) {
            refs.addObject()
                    .put("apiVersion", "v1")
                    .put("kind", "ConfigMap")
                    .put("name", "o-" + uid)
                    .put("uid", uid)
                    .put("blockOwnerDeletion", uid.startsWith("b"));
        }
        ArrayNode fs = meta.putArray("finalizers");
        for (String f : finalizers) {
            fs.add(f);
        }
        return obj;
    }

    static Stream<Arguments> cases() {
        OwnerState solid = OwnerState.SOLID;
        OwnerState gone = OwnerState.DANGLING;
        OwnerState waiting = OwnerState.WAITING_FOR_DEPENDENTS;
        return Stream.of(
                Arguments.of(
                        "an existing owner keeps it",
                        dependent(List.of("a")),
                        Map.of("a", solid),
                        false,
                        new DependentAction.Keep("has an existing owner")),
                Arguments.of(
                        "its only owner is gone: background delete",
                        dependent(List.of("a")),
                        Map.of("a", gone),
                        false,
                        new DependentAction.Delete(PropagationPolicy.BACKGROUND)),
                Arguments.of(
                        "another owner exists: only the dangling reference goes",
                        dependent(List.of("a", "b")),
                        Map.of("a", gone, "b", solid),
                        false,
                        new DependentAction.RemoveOwnerReferences(List.of("a"))),
                Arguments.of(
                        "another owner exists: the reference to a waiting owner goes",
                        dependent(List.of("a", "b")),
                        Map.of("a", waiting, "b", solid),
                        false,
                        new DependentAction.RemoveOwnerReferences(List.of("a"))),
                Arguments.of(
                        "a waiting owner and own dependents: foreground, so the wait propagates",
                        dependent(List.of("a")),
                        Map.of("a", waiting),
                        true,
                        new DependentAction.Delete(PropagationPolicy.FOREGROUND)),
                Arguments.of(
                        "a waiting owner and no dependents: background",
                        dependent(List.of("a")),
                        Map.of("a", waiting),
                        false,
                        new DependentAction.Delete(PropagationPolicy.BACKGROUND)),
                Arguments.of(
                        "an orphan finalizer on the dependent is honoured",
                        dependent(List.of("a"), "orphan"),
                        Map.of("a", gone),
                        false,
                        new DependentAction.Delete(PropagationPolicy.ORPHAN)),
                Arguments.of(
                        "a foreground finalizer on the dependent is honoured",
                        dependent(List.of("a"), "foregroundDeletion"),
                        Map.of("a", gone),
                        false,
                        new DependentAction.Delete(PropagationPolicy.FOREGROUND)),
                Arguments.of(
                        "an unresolvable reference stops the decision",
                        dependent(List.of("a", "b")),
                        Map.of("a", gone),
                        false,
                        new DependentAction.Keep("owner ConfigMap o-b cannot be resolved")),
                Arguments.of(
                        "no owners",
                        dependent(List.of()),
                        Map.of(),
                        false,
                        new DependentAction.Keep("no owners")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decidesLikeKubesAttemptToDeleteItem(
            String name,
            ObjectNode latest,
            Map<String, OwnerState> owners,
            boolean hasDependents,
            DependentAction expected) {
        assertEquals(expected, GarbageCollection.forDependent(latest, owners, hasDependents));
    }

    @Test
    void aDependentBeingDeletedIsLeftAlone() {
        ObjectNode d = dependent(List.of("a"), "example.com/x");
        ((ObjectNode) d.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
        assertEquals(
                new DependentAction.Keep("being deleted"),
                GarbageCollection.forDependent(d, Map.of("a", OwnerState.DANGLING), false));
    }

    @Test
    void onlyBlockOwnerDeletionReferencesBlock() {
        ObjectNode d = dependent(List.of("a", "b1"));
        assertFalse(GarbageCollection.blocks(d, "a"));
        assertTrue(GarbageCollection.blocks(d, "b1"));
        assertFalse(GarbageCollection.blocks(d, "other"));
    }

    @Test
    void ownerStatesFollowUidAndForegroundFinalizer() {
        OwnerReference ref = new OwnerReference("v1", "ConfigMap", "o", "u1", false, false);
        ObjectNode owner = Json.MAPPER.createObjectNode();
        ObjectNode meta = owner.putObject("metadata").put("name", "o").put("uid", "u1");
        assertEquals(OwnerState.SOLID, OwnerState.classify(ref, owner));
        assertEquals(OwnerState.DANGLING, OwnerState.classify(ref, null));
        assertEquals(
                OwnerState.DANGLING,
                OwnerState.classify(
                        new OwnerReference("v1", "ConfigMap", "o", "u2", false, false), owner));
        meta.put("deletionTimestamp", "2026-01-01T00:00:00Z");
        assertEquals(
                OwnerState.SOLID,
                OwnerState.classify(ref, owner),
                "terminating without the finalizer is solid");
        meta.putArray("finalizers").add("foregroundDeletion");
        assertEquals(OwnerState.WAITING_FOR_DEPENDENTS, OwnerState.classify(ref, owner));
    }
}
