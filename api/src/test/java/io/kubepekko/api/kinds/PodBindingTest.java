package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pods/binding}: Kubernetes' ValidatePodBinding and setPodNodeAndMetadata on object trees.
 */
class PodBindingTest {

    private static final SubresourceCreate BINDING =
            BuiltinDefinitions.strategy("", "Pod").subresourceCreate("binding");
    private static final String NOW = "2026-03-04T05:06:07Z";

    private static ObjectNode obj(String json) {
        return (ObjectNode) json(json);
    }

    private static JsonNode json(String json) {
        try {
            return Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ObjectNode pod(String extraSpec, String status) {
        return obj(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'web','namespace':'default','uid':'u1',"
                        + "'labels':{'app':'web'},'annotations':{'a':'1'}},'spec':{'containers':[{'name':'c','image':'nginx'}]"
                        + extraSpec
                        + "},'status':"
                        + status
                        + "}");
    }

    private static ObjectNode binding(String node) {
        return obj("{'metadata':{'name':'web'},'target':{'kind':'Node','name':'" + node + "'}}");
    }

    @Test
    void onlyPodsBindingTakesACreate() {
        assertSame(BINDING, BuiltinDefinitions.strategy("", "Pod").subresourceCreate("binding"));
        assertNull(BuiltinDefinitions.strategy("", "Pod").subresourceCreate("status"));
        assertNull(BuiltinDefinitions.strategy("", "ConfigMap").subresourceCreate("binding"));
        assertEquals("Binding", BINDING.bodyKind().kind());
        assertTrue(BINDING.takesPreconditionsFromBody());
    }

    // ---- ValidatePodBinding

    static Stream<Arguments> validation() {
        return Stream.of(
                Arguments.of("a node target", "{'kind':'Node','name':'n1'}", List.of()),
                Arguments.of("an empty kind counts as Node", "{'name':'n1'}", List.of()),
                Arguments.of("no name", "{'kind':'Node'}", List.of("target.name: Required value")),
                Arguments.of("no target at all", "{}", List.of("target.name: Required value")),
                Arguments.of(
                        "another kind",
                        "{'kind':'Pod','name':'n1'}",
                        List.of(
                                "target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"")),
                Arguments.of(
                        "both wrong",
                        "{'kind':'Pod'}",
                        List.of(
                                "target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"",
                                "target.name: Required value")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("validation")
    void validatesTheTargetAsKubernetes(String name, String target, List<String> expected) {
        ObjectNode body = obj("{'metadata':{'name':'web'}}");
        body.set("target", obj(target));
        assertEquals(expected, BINDING.validate(body).stream().map(FieldError::toString).toList());
        assertEquals(
                expected,
                BuiltinDefinitions.strategy("", "Binding").validateCreate(body).stream()
                        .map(FieldError::toString)
                        .toList());
    }

    // ---- setPodNodeAndMetadata

    @Test
    void bindingSetsTheNodeAndAddsPodScheduled() {
        ObjectNode after =
                BINDING.apply(
                        pod("", "{'phase':'Pending','qosClass':'BestEffort'}"), binding("n1"), NOW);
        assertEquals("n1", after.path("spec").path("nodeName").asText());
        assertEquals(
                json(
                        "[{'type':'PodScheduled','status':'True','lastProbeTime':null,"
                                + "'lastTransitionTime':'"
                                + NOW
                                + "'}]"),
                after.path("status").path("conditions"));
        assertEquals("Pending", after.path("status").path("phase").asText());
        assertEquals(obj("{'a':'1'}"), after.path("metadata").path("annotations"));
        assertEquals(obj("{'app':'web'}"), after.path("metadata").path("labels"));
    }

    @Test
    void bindingMergesItsAnnotationsAndLabelsOverThePods() {
        ObjectNode b =
                obj(
                        "{'metadata':{'name':'web','annotations':{'a':'2','b':'3'},"
                                + "'labels':{'app':'other','topology.kubernetes.io/zone':'z1'}},'target':{'name':'n1'}}");
        ObjectNode after = BINDING.apply(pod("", "{}"), b, NOW);
        assertEquals(obj("{'a':'2','b':'3'}"), after.path("metadata").path("annotations"));
        assertEquals(
                obj("{'app':'other','topology.kubernetes.io/zone':'z1'}"),
                after.path("metadata").path("labels"));
    }

    @Test
    void bindingClearsTheNominatedNode() {
        ObjectNode after =
                BINDING.apply(
                        pod("", "{'phase':'Pending','nominatedNodeName':'n2'}"),
                        binding("n1"),
                        NOW);
        assertFalse(after.path("status").has("nominatedNodeName"));
    }

    @Test
    void anUnschedulableConditionIsReplacedWholeWithANewTransitionTime() {
        ObjectNode before =
                pod(
                        "",
                        "{'conditions':[{'type':'Ready','status':'False'},"
                                + "{'type':'PodScheduled','status':'False','reason':'Unschedulable','message':'0/3 nodes',"
                                + "'lastProbeTime':null,'lastTransitionTime':'2026-01-01T00:00:00Z'}]}");
        ObjectNode after = BINDING.apply(before, binding("n1"), NOW);
        assertEquals(
                json(
                        "[{'type':'Ready','status':'False'},{'type':'PodScheduled','status':'True',"
                                + "'lastProbeTime':null,'lastTransitionTime':'"
                                + NOW
                                + "'}]"),
                after.path("status").path("conditions"));
    }

    @Test
    void aConditionAlreadyTrueKeepsItsTransitionTime() {
        ObjectNode before =
                pod(
                        "",
                        "{'conditions':[{'type':'PodScheduled','status':'True','reason':'Old',"
                                + "'lastTransitionTime':'2026-01-01T00:00:00Z'}]}");
        ObjectNode after = BINDING.apply(before, binding("n1"), NOW);
        assertEquals(
                json(
                        "[{'type':'PodScheduled','status':'True','lastProbeTime':null,"
                                + "'lastTransitionTime':'2026-01-01T00:00:00Z'}]"),
                after.path("status").path("conditions"));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        "already assigned",
                        pod(",'nodeName':'n0'", "{}"),
                        "Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to node \"n0\""),
                Arguments.of(
                        "being deleted",
                        withDeletion(pod("", "{}")),
                        "Operation cannot be fulfilled on pods/binding \"web\": pod web is being deleted, cannot be "
                                + "assigned to a host"),
                Arguments.of(
                        "scheduling gates left",
                        pod(",'schedulingGates':[{'name':'wait'}]", "{}"),
                        "Operation cannot be fulfilled on pods/binding \"web\": pod web has non-empty "
                                + ".spec.schedulingGates"));
    }

    private static ObjectNode withDeletion(ObjectNode pod) {
        ((ObjectNode) pod.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
        return pod;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesAPodItCannotBind(String name, ObjectNode pod, String message) {
        ApiStatus status =
                assertThrows(ApiException.class, () -> BINDING.apply(pod, binding("n1"), NOW))
                        .status();
        assertEquals(409, status.code());
        assertEquals("Conflict", status.reason());
        assertEquals(message, status.message());
        assertEquals("pods/binding", status.details().kind());
        assertEquals("web", status.details().name());
    }
}
