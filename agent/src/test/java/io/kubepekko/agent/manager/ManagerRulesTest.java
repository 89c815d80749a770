package io.kubepekko.agent.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.api.patch.MergePatch;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pure rules of the pod and status managers. */
class ManagerRulesTest {

    /** Flow-style YAML: JSON without the quotes. */
    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) MAPPER.readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    // ---------------------------------------------------------------- grace period

    @Test
    void theDeletionsGracePeriodWinsOverTheSpecs() {
        assertEquals(
                Duration.ofSeconds(5),
                GracePeriod.of(
                        json(
                                "{metadata: {deletionGracePeriodSeconds: 5}, spec: {terminationGracePeriodSeconds: 60}}")));
    }

    @Test
    void withoutADeletionGracePeriodTheSpecsApplies() {
        assertEquals(
                Duration.ofSeconds(60),
                GracePeriod.of(json("{metadata: {}, spec: {terminationGracePeriodSeconds: 60}}")));
    }

    @Test
    void withNeitherTheGracePeriodIsKubesDefaultOf30Seconds() {
        assertEquals(Duration.ofSeconds(30), GracePeriod.of(json("{metadata: {}, spec: {}}")));
    }

    @Test
    void aZeroOrNegativeGracePeriodIsZero() {
        assertEquals(
                Duration.ZERO,
                GracePeriod.of(json("{metadata: {deletionGracePeriodSeconds: 0}, spec: {}}")));
        assertEquals(
                Duration.ZERO,
                GracePeriod.of(json("{metadata: {}, spec: {terminationGracePeriodSeconds: -1}}")));
    }

    // ---------------------------------------------------------------- references

    @Test
    void referencesComeFromEnvEnvFromVolumesAndProjectedSourcesOfEveryContainerKind() {
        PodReferences r =
                PodReferences.of(
                        json(
                                "{spec: {"
                                        + "initContainers: [{name: i, env: [{name: A, valueFrom: {configMapKeyRef: {name: cm-init, key: k}}}]}],"
                                        + "containers: [{name: c, env: [{name: B, valueFrom: {secretKeyRef: {name: s-env, key: k}}}, {name: C, value: x}],"
                                        + "  envFrom: [{configMapRef: {name: cm-from}}, {secretRef: {name: s-from}}]}],"
                                        + "ephemeralContainers: [{name: e, envFrom: [{configMapRef: {name: cm-eph}}]}],"
                                        + "volumes: [{name: v1, configMap: {name: cm-vol}}, {name: v2, secret: {secretName: s-vol}},"
                                        + "  {name: v3, projected: {sources: [{configMap: {name: cm-proj}}, {secret: {name: s-proj}}, {downwardAPI: {}}]}},"
                                        + "  {name: v4, emptyDir: {}}],"
                                        + "imagePullSecrets: [{name: pull}]}}"));
        assertEquals(Set.of("cm-init", "cm-from", "cm-eph", "cm-vol", "cm-proj"), r.configMaps());
        assertEquals(Set.of("s-env", "s-from", "s-vol", "s-proj"), r.secrets());
    }

    @Test
    void aPodWithoutReferencesNeedsNothingRead() {
        PodReferences r =
                PodReferences.of(json("{spec: {containers: [{name: c, image: busybox}]}}"));
        assertTrue(r.configMaps().isEmpty());
        assertTrue(r.secrets().isEmpty());
    }

    // ---------------------------------------------------------------- changes

    @Test
    void ourOwnStatusWriteIsNotAChangeOfThePod() {
        ObjectNode before =
                json(
                        "{metadata: {name: p, uid: u, resourceVersion: '5', generation: 1}, spec: {nodeName: n},"
                                + " status: {phase: Pending}}");
        ObjectNode after =
                json(
                        "{metadata: {name: p, uid: u, resourceVersion: '6', generation: 1,"
                                + " managedFields: [{manager: kubelet}]}, spec: {nodeName: n}, status: {phase: Running}}");
        assertFalse(PodChange.changed(before, after));
    }

    @Test
    void aLabelOrSpecChangeIsAChange() {
        ObjectNode before = json("{metadata: {name: p, uid: u}, spec: {activeDeadlineSeconds: 5}}");
        assertTrue(
                PodChange.changed(
                        before,
                        json(
                                "{metadata: {name: p, uid: u, labels: {a: b}}, spec: {activeDeadlineSeconds: 5}}")));
        assertTrue(
                PodChange.changed(
                        before,
                        json("{metadata: {name: p, uid: u}, spec: {activeDeadlineSeconds: 6}}")));
    }

    @Test
    void aDeletionTimestampMeansDeleting() {
        assertTrue(
                PodChange.deleting(
                        json("{metadata: {deletionTimestamp: '2026-01-01T00:00:00Z'}}")));
        assertFalse(PodChange.deleting(json("{metadata: {}}")));
    }

    // ---------------------------------------------------------------- status patch

    @Test
    void theNodesFieldsReplaceTheServersAndOthersAreKept() {
        JsonNode server =
                json(
                        "{phase: Pending, conditions: [{type: PodScheduled, status: 'True'}], qosClass: BestEffort,"
                                + " podIP: '10.0.0.9', nominatedNodeName: x}");
        ObjectNode merged =
                StatusPatch.merge(
                        server, json("{phase: Running, qosClass: BestEffort, hostIP: '1.2.3.4'}"));
        assertEquals(
                json(
                        "{phase: Running, conditions: [{type: PodScheduled, status: 'True'}], qosClass: BestEffort,"
                                + " hostIP: '1.2.3.4', nominatedNodeName: x}"),
                merged);
    }

    @Test
    void theDiffIsAMergePatchWithNullsForRemovedMembersAndWholeLists() {
        JsonNode from =
                json(
                        "{phase: Pending, containerStatuses: [{name: a, state: {waiting: {reason: ContainerCreating}}}],"
                                + " startTime: t, nested: {keep: 1, drop: 2, change: {x: 1}}}");
        ObjectNode to =
                json(
                        "{phase: Running, containerStatuses: [{name: a, state: {running: {startedAt: s}}}],"
                                + " startTime: t, nested: {keep: 1, change: {x: 2}}, podIP: '10.0.0.2'}");
        ObjectNode patch = StatusPatch.diff(from, to);
        assertEquals(
                json(
                        "{phase: Running, containerStatuses: [{name: a, state: {running: {startedAt: s}}}],"
                                + " nested: {drop: null, change: {x: 2}}, podIP: '10.0.0.2'}"),
                patch);
        assertEquals(to, MergePatch.apply(from, patch), "applying the diff gives the target");
    }

    @Test
    void equalStatusesHaveAnEmptyDiff() {
        ObjectNode s = json("{phase: Running, containerStatuses: [{name: a}]}");
        assertTrue(StatusPatch.diff(s.deepCopy(), s).isEmpty());
    }

    @Test
    void theBodyCarriesTheUidAsItsGuard() {
        assertEquals(
                json("{metadata: {uid: u1}, status: {phase: Running}}"),
                StatusPatch.body("u1", json("{phase: Running}")));
    }
}
