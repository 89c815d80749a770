package io.kubepekko.agent.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kubepekko.agent.pod.PodPhase;
import io.kubepekko.agent.worker.PodConditions.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's pod conditions (pkg/kubelet/status/generate.go), reasons and messages to the
 * letter.
 */
class PodConditionsTest {

    private static final JsonMapper MAPPER =
            JsonMapper.builder()
                    .enable(
                            JsonReadFeature.ALLOW_SINGLE_QUOTES,
                            JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
                    .build();

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final JsonNode TWO =
            json(
                    "{metadata: {name: 'p', uid: 'u'}, spec: {containers: [{name: 'a'}, {name: 'b'}]}}");
    private static final JsonNode WITH_INIT =
            json(
                    "{metadata: {name: 'p', uid: 'u'}, spec: {"
                            + "initContainers: [{name: 'setup'}], containers: [{name: 'app'}]}}");

    private static JsonNode running(String name, boolean ready) {
        return json(
                "{name: '"
                        + name
                        + "', ready: "
                        + ready
                        + ", started: true, state: {running: {startedAt: 'x'}}}");
    }

    private static JsonNode waiting(String name) {
        return json(
                "{name: '"
                        + name
                        + "', ready: false, started: false, state: {waiting: {reason: 'PodInitializing'}}}");
    }

    private static JsonNode terminated(String name, int code) {
        return json(
                "{name: '"
                        + name
                        + "', ready: "
                        + (code == 0)
                        + ", started: false, state: {terminated: {exitCode: "
                        + code
                        + "}}}");
    }

    private static Condition get(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElseThrow();
    }

    @Test
    void allContainersRunningAndReadyMakeEveryConditionTrueInTheKubeletsOrder() {
        List<Condition> conditions =
                PodConditions.generate(
                        TWO,
                        List.of(running("a", true), running("b", true)),
                        PodPhase.RUNNING,
                        true);
        assertEquals(
                List.of(
                        "PodReadyToStartContainers",
                        "Initialized",
                        "Ready",
                        "ContainersReady",
                        "PodScheduled"),
                conditions.stream().map(Condition::type).toList());
        conditions.forEach(c -> assertEquals(new Condition(c.type(), "True", "", ""), c));
    }

    @Test
    void unreadyContainersAreNamedAsGoPrintsAList() {
        List<Condition> conditions =
                PodConditions.generate(
                        TWO,
                        List.of(running("a", false), running("b", false)),
                        PodPhase.RUNNING,
                        true);
        Condition expected =
                new Condition(
                        "ContainersReady",
                        "False",
                        "ContainersNotReady",
                        "containers with unready status: [a b]");
        assertEquals(expected, get(conditions, "ContainersReady"));
        assertEquals(
                new Condition(
                        "Ready",
                        "False",
                        "ContainersNotReady",
                        "containers with unready status: [a b]"),
                get(conditions, "Ready"));
    }

    @Test
    void containersWithoutStatusAreUnknownBeforeTheUnreadyOnes() {
        List<Condition> conditions =
                PodConditions.generate(TWO, List.of(running("a", false)), PodPhase.PENDING, true);
        assertEquals(
                new Condition(
                        "ContainersReady",
                        "False",
                        "ContainersNotReady",
                        "containers with unknown status: [b], containers with unready status: [a]"),
                get(conditions, "ContainersReady"));
    }

    @Test
    void anInitContainerNotCompletedLeavesThePodNotInitialized() {
        List<Condition> conditions =
                PodConditions.generate(
                        WITH_INIT,
                        List.of(running("setup", false), waiting("app")),
                        PodPhase.PENDING,
                        true);
        assertEquals(
                new Condition(
                        "Initialized",
                        "False",
                        "ContainersNotInitialized",
                        "containers with incomplete status: [setup]"),
                get(conditions, "Initialized"));
        assertEquals(
                new Condition(
                        "Ready",
                        "False",
                        "ContainersNotReady",
                        "containers with unready status: [app]"),
                get(conditions, "Ready"));
    }

    @Test
    void aCompletedInitContainerInitializesThePod() {
        List<Condition> conditions =
                PodConditions.generate(
                        WITH_INIT,
                        List.of(terminated("setup", 0), waiting("app")),
                        PodPhase.PENDING,
                        true);
        assertEquals(new Condition("Initialized", "True", "", ""), get(conditions, "Initialized"));
    }

    @Test
    void aSucceededPodIsCompletedAndNotReady() {
        List<Condition> conditions =
                PodConditions.generate(
                        WITH_INIT,
                        List.of(terminated("setup", 0), terminated("app", 0)),
                        PodPhase.SUCCEEDED,
                        true);
        assertEquals(
                new Condition("Initialized", "True", "PodCompleted", ""),
                get(conditions, "Initialized"));
        assertEquals(
                new Condition("ContainersReady", "False", "PodCompleted", ""),
                get(conditions, "ContainersReady"));
        assertEquals(new Condition("Ready", "False", "PodCompleted", ""), get(conditions, "Ready"));
    }

    @Test
    void aFailedPodIsNotReadyWithPodFailed() {
        List<Condition> conditions =
                PodConditions.generate(
                        TWO,
                        List.of(terminated("a", 1), terminated("b", 0)),
                        PodPhase.FAILED,
                        true);
        assertEquals(
                new Condition("ContainersReady", "False", "PodFailed", ""),
                get(conditions, "ContainersReady"));
        assertEquals(new Condition("Ready", "False", "PodFailed", ""), get(conditions, "Ready"));
        assertEquals(new Condition("Initialized", "True", "", ""), get(conditions, "Initialized"));
    }

    @Test
    void withoutAReadySandboxThePodIsNotReadyToStartContainers() {
        List<Condition> conditions =
                PodConditions.generate(
                        TWO, List.of(waiting("a"), waiting("b")), PodPhase.PENDING, false);
        assertEquals(
                new Condition("PodReadyToStartContainers", "False", "", ""),
                get(conditions, "PodReadyToStartContainers"));
        assertEquals(
                new Condition("PodScheduled", "True", "", ""), get(conditions, "PodScheduled"));
    }

    @Test
    void aSidecarCountsForContainersReadyAndInitializesOnceStarted() {
        JsonNode pod =
                json(
                        "{spec: {initContainers: [{name: 'side', restartPolicy: 'Always'}], containers: [{name: 'app'}]}}");
        List<Condition> conditions =
                PodConditions.generate(
                        pod,
                        List.of(running("side", false), waiting("app")),
                        PodPhase.PENDING,
                        true);
        assertEquals(new Condition("Initialized", "True", "", ""), get(conditions, "Initialized"));
        assertEquals(
                "containers with unready status: [side app]",
                get(conditions, "ContainersReady").message());
    }

    @Test
    void readinessGatesHoldReadyBackWithTheKubeletsMessages() {
        JsonNode pod =
                json(
                        "{spec: {readinessGates: [{conditionType: 'example.com/lb'}, {conditionType: 'example.com/db'}],"
                                + " containers: [{name: 'a'}]}, status: {conditions: [{type: 'example.com/db', status: 'False'}]}}");
        Condition ready =
                get(
                        PodConditions.generate(
                                pod, List.of(running("a", true)), PodPhase.RUNNING, true),
                        "Ready");
        assertEquals(
                new Condition(
                        "Ready",
                        "False",
                        "ReadinessGatesNotReady",
                        "corresponding condition of pod readiness gate \"example.com/lb\" does not exist., "
                                + "the status of pod readiness gate \"example.com/db\" is not \"True\", but False"),
                ready);
    }

    @Test
    void renderKeepsTheTransitionTimeOfAnUnchangedConditionAndCarriesOtherOwnersConditions() {
        JsonNode pod =
                json(
                        "{metadata: {generation: 3}, spec: {containers: [{name: 'a'}]}, status: {conditions: ["
                                + "{type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z'},"
                                + "{type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI'}]}}");
        JsonNode previous =
                json(
                        "[{type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:05Z'},"
                                + "{type: 'ContainersReady', status: 'True', lastTransitionTime: '2026-01-01T00:00:06Z'}]");
        List<Condition> generated =
                PodConditions.generate(pod, List.of(running("a", true)), PodPhase.RUNNING, true);
        ArrayNode out =
                PodConditions.render(
                        pod, generated, previous, Instant.parse("2026-01-02T03:04:05.900Z"));

        List<String> types = new ArrayList<>();
        out.forEach(c -> types.add(c.path("type").asText()));
        assertEquals(
                List.of(
                        "DisruptionTarget",
                        "PodReadyToStartContainers",
                        "Initialized",
                        "Ready",
                        "ContainersReady",
                        "PodScheduled"),
                types);
        assertEquals(
                "{\"type\":\"Ready\",\"observedGeneration\":3,\"status\":\"True\",\"lastProbeTime\":null,"
                        + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\"}",
                out.get(3).toString(),
                "changed: now");
        assertEquals(
                "2026-01-01T00:00:06Z",
                out.get(4).path("lastTransitionTime").asText(),
                "unchanged: kept");
        JsonNode scheduled = json("{}");
        for (JsonNode c : out) {
            if (c.path("type").asText().equals("PodScheduled")) {
                scheduled = c;
            }
        }
        assertEquals(
                "2026-01-02T03:04:05Z",
                scheduled.path("lastTransitionTime").asText(),
                "previous conditions are the worker's own once it published");
        ArrayNode first =
                PodConditions.render(
                        pod,
                        generated,
                        pod.path("status").path("conditions"),
                        Instant.parse("2026-01-02T03:04:05Z"));
        assertEquals(
                "2026-01-01T00:00:00Z",
                first.get(5).path("lastTransitionTime").asText(),
                "before its first status the scheduler's PodScheduled time is kept");
    }
}
