package io.kubepekko.api.admission.priority;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Priority plugin against the cases of kube's {@code priority/admission_test.go}. */
class PriorityAdmissionTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of());

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static ObjectNode priorityClass(String name, long value, boolean global, String policy) {
        ObjectNode pc =
                obj(
                        "{'apiVersion':'scheduling.k8s.io/v1','kind':'PriorityClass','metadata':{'name':'"
                                + name
                                + "'},'value':"
                                + value
                                + ",'globalDefault':"
                                + global
                                + "}");
        if (policy != null) {
            pc.put("preemptionPolicy", policy);
        }
        return pc;
    }

    static ObjectNode pod(String spec) {
        return obj(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'ns'},'spec':"
                        + spec
                        + "}");
    }

    private static PriorityAdmission plugin(ObjectNode... classes) {
        List<JsonNode> all = new ArrayList<>(SystemPriorityClasses.objects());
        all.addAll(List.of(classes));
        return new PriorityAdmission(InformedObjects.of("priority classes", all));
    }

    private static AdmissionRequest request(
            Operation op, GroupResource resource, String sub, ObjectNode object, ObjectNode old) {
        String ns = resource.equals(PriorityAdmission.PODS) ? "ns" : "";
        return new AdmissionRequest(
                op,
                EVE,
                resource,
                sub,
                ns,
                object.path("metadata").path("name").asText(),
                object,
                old,
                false);
    }

    private static ObjectNode created(PriorityAdmission plugin, ObjectNode pod) {
        Mutation m = plugin.admit(request(Operation.CREATE, PriorityAdmission.PODS, "", pod, null));
        return assertInstanceOf(Mutation.Admitted.class, m).object();
    }

    private static String refused(PriorityAdmission plugin, ObjectNode pod) {
        Mutation m = plugin.admit(request(Operation.CREATE, PriorityAdmission.PODS, "", pod, null));
        ApiStatus status = assertInstanceOf(Mutation.Refused.class, m).status();
        assertEquals(403, status.code());
        return status.message();
    }

    private static final ObjectNode DEFAULT_1000 =
            priorityClass("default1", 1000, true, "PreemptLowerPriority");
    private static final ObjectNode NON_DEFAULT =
            priorityClass("nondefault1", 2000, false, "PreemptLowerPriority");
    private static final ObjectNode NEVER = priorityClass("nopreemption", 500, false, "Never");

    @Test
    void podWithNoClassAndNoDefaultGetsPriorityZeroAndPreemptLowerPriority() {
        ObjectNode out = created(plugin(NON_DEFAULT), pod("{'containers':[{'name':'c'}]}"));
        assertEquals(0, out.path("spec").path("priority").asInt(-1));
        assertEquals("PreemptLowerPriority", out.path("spec").path("preemptionPolicy").asText());
        assertFalse(out.path("spec").has("priorityClassName"));
    }

    @Test
    void podWithNoClassGetsTheGlobalDefaultAndItsName() {
        ObjectNode out =
                created(plugin(DEFAULT_1000, NON_DEFAULT), pod("{'containers':[{'name':'c'}]}"));
        assertEquals(1000, out.path("spec").path("priority").asInt());
        assertEquals("default1", out.path("spec").path("priorityClassName").asText());
    }

    @Test
    void ofSeveralGlobalDefaultsTheLowestValueWins() {
        ObjectNode out =
                created(
                        plugin(DEFAULT_1000, priorityClass("default2", 999, true, "Never")),
                        pod("{'containers':[{'name':'c'}]}"));
        assertEquals(999, out.path("spec").path("priority").asInt());
        assertEquals("default2", out.path("spec").path("priorityClassName").asText());
        assertEquals("Never", out.path("spec").path("preemptionPolicy").asText());
    }

    @Test
    void namedClassGivesItsValueAndPolicy() {
        ObjectNode out =
                created(
                        plugin(DEFAULT_1000, NEVER),
                        pod("{'priorityClassName':'nopreemption','containers':[{'name':'c'}]}"));
        assertEquals(500, out.path("spec").path("priority").asInt());
        assertEquals("Never", out.path("spec").path("preemptionPolicy").asText());
    }

    @Test
    void systemClassesResolveInAnyNamespace() {
        ObjectNode out =
                created(
                        plugin(),
                        pod(
                                "{'priorityClassName':'system-node-critical','containers':[{'name':'c'}]}"));
        assertEquals(2_000_001_000, out.path("spec").path("priority").asInt());
        out =
                created(
                        plugin(),
                        pod(
                                "{'priorityClassName':'system-cluster-critical','containers':[{'name':'c'}]}"));
        assertEquals(2_000_000_000, out.path("spec").path("priority").asInt());
    }

    @Test
    void unknownClassIsForbidden() {
        assertEquals(
                "pods \"p\" is forbidden: no PriorityClass with name foo was found",
                refused(plugin(), pod("{'priorityClassName':'foo','containers':[{'name':'c'}]}")));
    }

    @Test
    void aGivenPriorityMustMatchTheClass() {
        assertEquals(
                "pods \"p\" is forbidden: the integer value of priority (10) must not be provided"
                        + " in pod spec; priority admission controller computed 2000 from the"
                        + " given PriorityClass name",
                refused(
                        plugin(NON_DEFAULT),
                        pod(
                                "{'priorityClassName':'nondefault1','priority':10,'containers':[{'name':'c'}]}")));
        ObjectNode same =
                created(
                        plugin(NON_DEFAULT),
                        pod(
                                "{'priorityClassName':'nondefault1','priority':2000,'containers':[{'name':'c'}]}"));
        assertEquals(2000, same.path("spec").path("priority").asInt());
        // no class, no default: only 0 is accepted
        assertTrue(
                refused(plugin(), pod("{'priority':5,'containers':[{'name':'c'}]}"))
                        .contains("computed 0 from"));
    }

    @Test
    void aGivenPolicyMustMatchTheClass() {
        assertEquals(
                "pods \"p\" is forbidden: the string value of PreemptionPolicy"
                        + " (PreemptLowerPriority) must not be provided in pod spec; priority"
                        + " admission controller computed Never from the given PriorityClass name",
                refused(
                        plugin(NEVER),
                        pod(
                                "{'priorityClassName':'nopreemption','preemptionPolicy':'PreemptLowerPriority','containers':[{'name':'c'}]}")));
    }

    @Test
    void anUpdateKeepsTheStoredPriorityAndPolicy() {
        ObjectNode old =
                pod(
                        "{'priorityClassName':'nopreemption','priority':500,'preemptionPolicy':'Never','containers':[{'name':'c'}]}");
        ObjectNode updated =
                pod("{'priorityClassName':'nopreemption','containers':[{'name':'c'}]}");
        Mutation m =
                plugin(NEVER)
                        .admit(request(Operation.UPDATE, PriorityAdmission.PODS, "", updated, old));
        ObjectNode out = assertInstanceOf(Mutation.Admitted.class, m).object();
        assertEquals(500, out.path("spec").path("priority").asInt());
        assertEquals("Never", out.path("spec").path("preemptionPolicy").asText());
        assertFalse(updated.path("spec").has("priority"), "the request's object is not changed");
    }

    @Test
    void subresourcesAreNotJudged() {
        ObjectNode pod = pod("{'priorityClassName':'foo','containers':[{'name':'c'}]}");
        Mutation m =
                plugin().admit(
                                request(
                                        Operation.CREATE,
                                        PriorityAdmission.PODS,
                                        "binding",
                                        pod,
                                        null));
        assertSame(pod, assertInstanceOf(Mutation.Admitted.class, m).object());
    }

    @Test
    void onlyOneGlobalDefaultMayExist() {
        PriorityAdmission plugin = plugin(DEFAULT_1000, NON_DEFAULT);
        ObjectNode second = priorityClass("default2", 5, true, null);
        Optional<ApiStatus> refused =
                plugin.refusal(
                        request(
                                Operation.CREATE,
                                PriorityAdmission.PRIORITY_CLASSES,
                                "",
                                second,
                                null));
        assertEquals(
                "priorityclasses.scheduling.k8s.io \"default2\" is forbidden: PriorityClass"
                        + " default1 is already marked as default. Only one default can exist",
                refused.orElseThrow().message());
        assertEquals(403, refused.get().code());
        // marking another class default on update: refused
        ObjectNode nonDefaultNowDefault = priorityClass("nondefault1", 2000, true, null);
        assertTrue(
                plugin.refusal(
                                request(
                                        Operation.UPDATE,
                                        PriorityAdmission.PRIORITY_CLASSES,
                                        "",
                                        nonDefaultNowDefault,
                                        NON_DEFAULT))
                        .isPresent());
        // the default itself updated: fine; a non-default created: fine
        assertTrue(
                plugin.refusal(
                                request(
                                        Operation.UPDATE,
                                        PriorityAdmission.PRIORITY_CLASSES,
                                        "",
                                        DEFAULT_1000,
                                        DEFAULT_1000))
                        .isEmpty());
        assertTrue(
                plugin.refusal(
                                request(
                                        Operation.CREATE,
                                        PriorityAdmission.PRIORITY_CLASSES,
                                        "",
                                        priorityClass("other", 1, false, null),
                                        null))
                        .isEmpty());
        // no default yet: the first is fine
        assertTrue(
                plugin(NON_DEFAULT)
                        .refusal(
                                request(
                                        Operation.CREATE,
                                        PriorityAdmission.PRIORITY_CLASSES,
                                        "",
                                        second,
                                        null))
                        .isEmpty());
    }
}
