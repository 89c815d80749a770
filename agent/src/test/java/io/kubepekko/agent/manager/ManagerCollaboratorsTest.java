package io.kubepekko.agent.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.manifest.ManifestOrigin;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure rules of the pod manager's collaborators. */
class ManagerCollaboratorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());
    private static final GroupResource PODS = new GroupResource("", "pods");

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) MAPPER.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    // ---------------------------------------------------------------- sources ready

    @Test
    void sourcesAreReadyOnceEachWasHeardFromAndThatIsToldOnce() {
        SourcesReady ready = new SourcesReady(Set.of("api", ManifestOrigin.Kind.FILE));
        assertFalse(ready.seen("api"));
        assertFalse(ready.seen("api"));
        assertTrue(ready.seen(ManifestOrigin.Kind.FILE));
        assertFalse(ready.seen(ManifestOrigin.Kind.FILE), "ready is told only once");
    }

    @Test
    void withoutSourcesTheFirstCheckIsReady() {
        SourcesReady ready = new SourcesReady(Set.of());
        assertTrue(ready.seen(null));
        assertFalse(ready.seen(null));
    }

    // ---------------------------------------------------------------- static sources

    @Test
    void aStaticSourcesNewSetTellsTheUidsItNoLongerHas() {
        StaticPodSources sources = new StaticPodSources();
        assertEquals(Set.of(), sources.replace(ManifestOrigin.Kind.FILE, Set.of("a", "b")));
        assertEquals(
                Set.of(),
                sources.replace(ManifestOrigin.Kind.HTTP, Set.of("c")),
                "sources are apart");
        assertEquals(Set.of("a"), sources.replace(ManifestOrigin.Kind.FILE, Set.of("b", "d")));
        assertEquals(Set.of("c"), sources.replace(ManifestOrigin.Kind.HTTP, Set.of()));
    }

    // ---------------------------------------------------------------- deletions

    @Test
    void aDeleteEndsWhenDoneOrTheObjectIsGoneOrHasAnotherUid() {
        assertTrue(PodDeletions.gone(Optional.empty()));
        assertTrue(
                PodDeletions.gone(
                        Optional.of(new ApiError.Answered(ApiStatus.notFound(PODS, "p")))));
        assertTrue(
                PodDeletions.gone(
                        Optional.of(
                                new ApiError.Answered(
                                        ApiStatus.conflict(
                                                PODS,
                                                "p",
                                                "Precondition failed: UID in precondition: u1, UID in object meta: u2")))));
    }

    @Test
    void aDeleteThatFailedOtherwiseIsRetried() {
        assertFalse(PodDeletions.gone(Optional.of(new ApiError.Unreachable("connection refused"))));
        assertFalse(
                PodDeletions.gone(Optional.of(new ApiError.Answered(ApiStatus.internal("boom")))));
        assertFalse(
                PodDeletions.gone(
                        Optional.of(
                                new ApiError.Answered(ApiStatus.tooManyRequests("slow down", 1)))));
    }

    // ---------------------------------------------------------------- inputs

    @Test
    void inputsHoldWhatExistsAndLeaveOutWhatDoesNot() {
        PodInputs in =
                PodInputsResolution.inputs(
                        Map.of(
                                "cm",
                                Optional.of(json("{data: {k: v}}")),
                                "cm-missing",
                                Optional.empty()),
                        Map.of(
                                "s",
                                Optional.of(json("{data: {k: dg==}}")),
                                "s-missing",
                                Optional.empty()));
        assertEquals(Map.of("k", "v"), in.configMap("cm").orElseThrow().data());
        assertEquals("v", new String(in.secret("s").orElseThrow().data().get("k")));
        assertTrue(in.configMap("cm-missing").isEmpty());
        assertTrue(in.secret("s-missing").isEmpty());
    }

    // ---------------------------------------------------------------- API source

    @Test
    void onlyPodsBoundHereWithAUidAndNotMirrorsRunHere() {
        assertTrue(ApiPodSource.runsHere(json("{metadata: {uid: u}, spec: {nodeName: n1}}"), "n1"));
        assertFalse(
                ApiPodSource.runsHere(json("{metadata: {uid: u}, spec: {nodeName: n2}}"), "n1"));
        assertFalse(ApiPodSource.runsHere(json("{metadata: {}, spec: {nodeName: n1}}"), "n1"));
        assertFalse(
                ApiPodSource.runsHere(
                        json(
                                "{metadata: {uid: u, annotations: {kubernetes.io/config.mirror: h}},"
                                        + " spec: {nodeName: n1}}"),
                        "n1"));
    }

    // ---------------------------------------------------------------- orphans

    @Test
    void orphansAreTheFoundUidsNoPodHas() {
        OrphanedPods.Found found =
                new OrphanedPods.Found(
                        Set.of("a", "b"), Map.of("c", List.of(Path.of("/x/c"))), Set.of("d"));
        assertEquals(Set.of("b", "c", "d"), OrphanSweep.orphans(found, "a"::equals));
    }

    // ---------------------------------------------------------------- admission

    @Test
    void aPodFitsWhileTheAdmittedPodsLeaveRoomUnderMaxPods() {
        assertTrue(PodAdmission.admit(2, 0).isEmpty());
        assertTrue(PodAdmission.admit(2, 1).isEmpty());
    }

    @Test
    void aPodBeyondMaxPodsIsRejectedOutOfpodsWithTheSchedulersMessage() {
        PodAdmission.Rejection r = PodAdmission.admit(2, 2).orElseThrow();
        assertEquals("OutOfpods", r.reason());
        assertEquals(
                "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2",
                r.message());
        assertEquals(
                "Node didn't have enough resource: pods, requested: 1, used: 0, capacity: 0",
                PodAdmission.admit(0, 0).orElseThrow().message(),
                "max-pods 0 admits nothing");
    }

    @Test
    void aRejectedPodsStatusIsFailedWithThePrefixedMessageItsQosClassAndAStartTime() {
        ObjectNode pod = json("{metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}");
        ObjectNode status =
                PodAdmission.admit(1, 1)
                        .orElseThrow()
                        .status(pod, Instant.parse("2026-01-02T03:04:05.678Z"));
        assertEquals(
                json(
                        "{phase: Failed, reason: OutOfpods,"
                                + " message: \"Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1\","
                                + " qosClass: BestEffort, startTime: '2026-01-02T03:04:05Z'}"),
                status);
        assertTrue(
                PodAdmission.rejectedBefore(
                        json(
                                "{status: {phase: Failed, reason: OutOfpods,"
                                        + " message: 'Pod was rejected: x'}}")));
        assertFalse(
                PodAdmission.rejectedBefore(
                        json("{status: {phase: Failed, reason: Error, message: boom}}")));
    }

    @Test
    void onlyAdmittedPodsNotDoneHoldAPlace() {
        PodEntry running = new PodEntry("a", json("{status: {phase: Running}}"), false);
        assertTrue(running.active(), "admitted, waiting for its inputs or running");
        PodEntry rejected = new PodEntry("b", json("{status: {phase: Failed}}"), false);
        rejected.rejected = true;
        assertFalse(rejected.active());
        PodEntry succeeded = new PodEntry("c", json("{status: {phase: Succeeded}}"), false);
        assertFalse(succeeded.active(), "a terminal pod holds no place");
        PodEntry done = new PodEntry("d", json("{status: {phase: Running}}"), false);
        done.terminating = true;
        assertFalse(
                done.active(), "terminated: its worker is gone, only the object's delete is left");
    }

    @Test
    void inputsReadAgainAreEqualByContentAndOnlyPodsWithReferencesAreReadAgain() {
        var cm =
                PodInputs.ConfigMapData.of(
                        (JsonNode) TestApi.yaml("{data: {a: x}, binaryData: {b: AQI=}}"));
        var sameCm =
                PodInputs.ConfigMapData.of(
                        (JsonNode) TestApi.yaml("{data: {a: x}, binaryData: {b: AQI=}}"));
        var secret = PodInputs.SecretData.ofStrings(Map.of("k", "v"));
        var sameSecret = PodInputs.SecretData.ofStrings(Map.of("k", "v"));
        var in = PodInputs.NONE.withConfigMap("c", cm).withSecret("s", secret);
        assertEquals(in, PodInputs.NONE.withConfigMap("c", sameCm).withSecret("s", sameSecret));
        assertNotEquals(in, in.withSecret("s", PodInputs.SecretData.ofStrings(Map.of("k", "w"))));
        assertNotEquals(in, PodInputs.NONE.withSecret("s", secret), "a ConfigMap deleted");

        assertTrue(
                PodInputsResolution.needsRefresh(
                        TestApi.yaml(
                                "{spec: {volumes: [{name: v, projected: {sources: [{secret: {name: s}}]}}]}}")));
        assertFalse(
                PodInputsResolution.needsRefresh(
                        TestApi.yaml(
                                "{spec: {volumes: [{name: v, downwardAPI: {items: []}}], containers: [{name: a}]}}")));
    }
}
