package io.kubepekko.api.admission.tolerations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * DefaultTolerationSeconds against the cases of kube's {@code
 * defaulttolerationseconds/admission_test.go}.
 */
class DefaultTolerationSecondsTest {

    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final DefaultTolerationSeconds PLUGIN = new DefaultTolerationSeconds(300, 300);

    static ObjectNode obj(String json) {
        return (ObjectNode) json(json);
    }

    static JsonNode json(String json) {
        try {
            return Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ObjectNode pod(String tolerations) {
        return obj(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','namespace':'ns'},"
                        + "'spec':{'containers':[{'name':'c'}]"
                        + (tolerations == null ? "" : ",'tolerations':" + tolerations)
                        + "}}");
    }

    private static Mutation admit(
            DefaultTolerationSeconds plugin, Operation op, String sub, ObjectNode pod) {
        return plugin.admit(
                new AdmissionRequest(
                        op,
                        UserInfo.of("eve", List.of()),
                        PODS,
                        sub,
                        "ns",
                        "p",
                        pod,
                        op == Operation.UPDATE ? pod : null,
                        false));
    }

    private static JsonNode tolerations(Mutation m) {
        return assertInstanceOf(Mutation.Admitted.class, m)
                .object()
                .path("spec")
                .path("tolerations");
    }

    private static final String BOTH =
            "[{'key':'node.kubernetes.io/not-ready','operator':'Exists','effect':'NoExecute','tolerationSeconds':300},"
                    + "{'key':'node.kubernetes.io/unreachable','operator':'Exists','effect':'NoExecute','tolerationSeconds':300}]";

    @Test
    void aPodWithoutTolerationsGetsBoth() {
        assertEquals(
                json(BOTH).toString(),
                tolerations(admit(PLUGIN, Operation.CREATE, "", pod(null))).toString());
    }

    @Test
    void otherTolerationsAreKeptAndBothAdded() {
        String other = "{'key':'foo','operator':'Equal','value':'bar','effect':'NoSchedule'}";
        JsonNode out = tolerations(admit(PLUGIN, Operation.CREATE, "", pod("[" + other + "]")));
        assertEquals(3, out.size());
        assertEquals(obj(other), out.get(0));
        assertEquals(json(BOTH).get(0).toString(), out.get(1).toString());
        assertEquals(json(BOTH).get(1).toString(), out.get(2).toString());
    }

    @Test
    void anExistingNotReadyTolerationIsKeptAndOnlyUnreachableAdded() {
        String own =
                "{'key':'node.kubernetes.io/not-ready','operator':'Exists','effect':'NoExecute','tolerationSeconds':60}";
        JsonNode out = tolerations(admit(PLUGIN, Operation.CREATE, "", pod("[" + own + "]")));
        assertEquals(2, out.size());
        assertEquals(60, out.get(0).path("tolerationSeconds").asInt());
        assertEquals("node.kubernetes.io/unreachable", out.get(1).path("key").asText());
    }

    @Test
    void anExistingUnreachableTolerationIsKeptAndOnlyNotReadyAdded() {
        String own =
                "{'key':'node.kubernetes.io/unreachable','operator':'Exists','effect':'NoExecute','tolerationSeconds':700}";
        JsonNode out = tolerations(admit(PLUGIN, Operation.CREATE, "", pod("[" + own + "]")));
        assertEquals(2, out.size());
        assertEquals("node.kubernetes.io/not-ready", out.get(1).path("key").asText());
    }

    @Test
    void aTolerationOfEveryTaintOrEveryEffectCounts() {
        ObjectNode everything = pod("[{'operator':'Exists'}]");
        assertSame(
                everything,
                assertInstanceOf(
                                Mutation.Admitted.class,
                                admit(PLUGIN, Operation.CREATE, "", everything))
                        .object());
        ObjectNode anyEffect =
                pod(
                        "[{'key':'node.kubernetes.io/not-ready','operator':'Exists'},"
                                + "{'key':'node.kubernetes.io/unreachable','operator':'Exists'}]");
        assertEquals(2, tolerations(admit(PLUGIN, Operation.CREATE, "", anyEffect)).size());
        // NoSchedule does not tolerate NoExecute: both added
        ObjectNode noSchedule = pod("[{'operator':'Exists','effect':'NoSchedule'}]");
        assertEquals(3, tolerations(admit(PLUGIN, Operation.CREATE, "", noSchedule)).size());
    }

    @Test
    void theFlagsSetTheSeconds() {
        JsonNode out =
                tolerations(
                        admit(
                                new DefaultTolerationSeconds(60, 120),
                                Operation.CREATE,
                                "",
                                pod(null)));
        assertEquals(60, out.get(0).path("tolerationSeconds").asInt());
        assertEquals(120, out.get(1).path("tolerationSeconds").asInt());
    }

    @Test
    void updatesAreDefaultedAndSubresourcesLeft() {
        assertEquals(2, tolerations(admit(PLUGIN, Operation.UPDATE, "", pod(null))).size());
        ObjectNode pod = pod(null);
        assertSame(
                pod,
                assertInstanceOf(
                                Mutation.Admitted.class,
                                admit(PLUGIN, Operation.CREATE, "status", pod))
                        .object());
    }
}
