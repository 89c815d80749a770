package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * autoscaling/v1 HorizontalPodAutoscalers to their stored autoscaling/v2 form and back, as kube's
 * conversion does: the CPU utilization target is v1's percentage, the rest of v2 travels in kube's
 * annotations (in the JSON kube writes), nothing is lost either way on generated objects that fill
 * every field in the shapes kube's own round-trip fuzzer uses, and the annotations never reach the
 * v2 form.
 */
class AutoscalingV1ConversionTest {

    private static final AutoscalingV1Conversion CONVERSION = AutoscalingV1Conversion.INSTANCE;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int RUNS = 400;

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static String annotation(JsonNode obj, String key) {
        return obj.path("metadata").path("annotations").path(key).asText(null);
    }

    private static ObjectNode cpu(int utilization) {
        return obj(
                "{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization',"
                        + "'averageUtilization':"
                        + utilization
                        + "}}}");
    }

    @Test
    void cpuUtilizationIsV1sTargetPercentageWithoutAnnotations() {
        ObjectNode v2 =
                obj(
                        "{'metadata':{'name':'web','namespace':'ns'},"
                                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
                                + "'minReplicas':1,'maxReplicas':5,'metrics':["
                                + cpu(50)
                                + "]},'status':{'desiredReplicas':0}}");
        ObjectNode v1 = CONVERSION.fromStorage(v2);
        assertEquals(
                obj(
                        "{'metadata':{'name':'web','namespace':'ns'},"
                                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
                                + "'minReplicas':1,'maxReplicas':5,'targetCPUUtilizationPercentage':50},"
                                + "'status':{'currentReplicas':0,'desiredReplicas':0}}"),
                v1);
        assertEquals(v2, CONVERSION.toStorage(v1));
    }

    @Test
    void whatV1CannotHoldTravelsInKubesAnnotationsAsKubeWritesThem() {
        ObjectNode v2 =
                obj(
                        "{'metadata':{'name':'web','annotations':{'team':'a'}},"
                                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':5,"
                                + "'metrics':[{'type':'Resource','resource':{'name':'memory',"
                                + "'target':{'type':'Utilization','averageUtilization':60}}},"
                                + "{'type':'Pods','pods':{'metric':{'name':'qps'},"
                                + "'target':{'type':'AverageValue','averageValue':'1k'}}},"
                                + cpu(70)
                                + "],"
                                + "'behavior':{'scaleUp':{'stabilizationWindowSeconds':0,'selectPolicy':'Max',"
                                + "'policies':[{'type':'Pods','value':4,'periodSeconds':15}]}}},"
                                + "'status':{'currentReplicas':2,'desiredReplicas':3,"
                                + "'currentMetrics':[{'type':'Resource','resource':{'name':'cpu',"
                                + "'current':{'averageValue':'100m','averageUtilization':40}}}],"
                                + "'conditions':[{'type':'AbleToScale','status':'True','reason':'Ready'}]}}");
        ObjectNode v1 = CONVERSION.fromStorage(v2);
        assertEquals(70, v1.path("spec").path("targetCPUUtilizationPercentage").asInt());
        assertEquals(40, v1.path("status").path("currentCPUUtilizationPercentage").asInt());
        assertEquals(
                "[{\"type\":\"Resource\",\"resource\":{\"name\":\"memory\",\"targetAverageUtilization\":60}},"
                        + "{\"type\":\"Pods\",\"pods\":{\"metricName\":\"qps\",\"targetAverageValue\":\"1k\"}}]",
                annotation(v1, HpaAnnotations.METRICS));
        assertEquals(
                "[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"currentAverageUtilization\":40,"
                        + "\"currentAverageValue\":\"100m\"}}]",
                annotation(v1, HpaAnnotations.CURRENT_METRICS));
        assertEquals(
                "{\"ScaleUp\":{\"StabilizationWindowSeconds\":0,\"SelectPolicy\":\"Max\","
                        + "\"Policies\":[{\"Type\":\"Pods\",\"Value\":4,\"PeriodSeconds\":15}],"
                        + "\"Tolerance\":null},\"ScaleDown\":null}",
                annotation(v1, HpaAnnotations.BEHAVIOR));
        assertEquals(
                "[{\"type\":\"AbleToScale\",\"status\":\"True\",\"lastTransitionTime\":null,"
                        + "\"reason\":\"Ready\"}]",
                annotation(v1, HpaAnnotations.CONDITIONS));
        assertEquals("a", annotation(v1, "team"));
        // The user's annotation first, kube's after it in key order.
        List<String> keys = List.copyOf(fieldNames(v1.path("metadata").path("annotations")));
        assertEquals(
                List.of(
                        "team",
                        HpaAnnotations.BEHAVIOR,
                        HpaAnnotations.CONDITIONS,
                        HpaAnnotations.CURRENT_METRICS,
                        HpaAnnotations.METRICS),
                keys);
        // Back in v2 the annotations are gone and every field is where it was.
        assertEquals(v2, CONVERSION.toStorage(v1));
    }

    @Test
    void aV1ObjectWithoutTargetGetsKubesImplicitCpuTarget() {
        ObjectNode v1 =
                obj(
                        "{'metadata':{'name':'web'},'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},"
                                + "'maxReplicas':3}}");
        ObjectNode v2 = CONVERSION.toStorage(v1);
        assertEquals(F.arrayNode().add(cpu(80)), v2.path("spec").path("metrics"));
        assertEquals(obj("{'desiredReplicas':0}"), v2.path("status"));
    }

    @Test
    void theCpuTargetFollowsTheAnnotatedMetricsAsKubePutsIt() {
        // kube's conversion is not order-preserving here: a CPU target first comes back last.
        ObjectNode v2 =
                obj(
                        "{'metadata':{'name':'web'},'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},"
                                + "'maxReplicas':3,'metrics':["
                                + cpu(50)
                                + ",{'type':'Resource','resource':{'name':'memory',"
                                + "'target':{'type':'AverageValue','averageValue':'1Gi'}}}]},"
                                + "'status':{'desiredReplicas':0}}");
        JsonNode metrics =
                CONVERSION.toStorage(CONVERSION.fromStorage(v2)).path("spec").path("metrics");
        assertEquals("memory", metrics.path(0).path("resource").path("name").asText());
        assertEquals(cpu(50), metrics.path(1));
    }

    @Test
    void malformedAnnotationsAreIgnoredAndDropped() {
        ObjectNode v1 =
                obj(
                        "{'metadata':{'name':'web','annotations':{'"
                                + HpaAnnotations.METRICS
                                + "':'not json','"
                                + HpaAnnotations.BEHAVIOR
                                + "':'{}','"
                                + HpaAnnotations.CONDITIONS
                                + "':'abc','keep':'me'}},"
                                + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3,"
                                + "'targetCPUUtilizationPercentage':30}}");
        ObjectNode v2 = CONVERSION.toStorage(v1);
        assertEquals(F.arrayNode().add(cpu(30)), v2.path("spec").path("metrics"));
        assertFalse(v2.path("spec").has("behavior"));
        assertFalse(v2.path("status").has("conditions"));
        assertEquals(obj("{'keep':'me'}"), v2.path("metadata").path("annotations"));
    }

    @Test
    void roundTripAnnotationsNeverReachV2AndStaleOnesNeverReachV1() {
        ObjectNode stale =
                obj(
                        "{'metadata':{'name':'web','annotations':{'"
                                + HpaAnnotations.SCALE_UP_TOLERANCE
                                + "':'1','"
                                + HpaAnnotations.METRICS
                                + "':'[]'}},'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},"
                                + "'maxReplicas':3,'metrics':["
                                + cpu(10)
                                + "]},'status':{'desiredReplicas':0}}");
        assertFalse(CONVERSION.fromStorage(stale).path("metadata").has("annotations"));
        ObjectNode written = stale.deepCopy();
        new HorizontalPodAutoscalerStrategy().applyDefaults(written);
        assertFalse(written.path("metadata").has("annotations"));
    }

    @Test
    void everyGeneratedV2ObjectSurvivesV1AndBack() {
        Random random = new Random(26);
        for (int i = 0; i < RUNS; i++) {
            ObjectNode v2 = HpaGenerator.hpa(random);
            ObjectNode before = v2.deepCopy();
            ObjectNode v1 = CONVERSION.fromStorage(v2);
            assertEquals(before, v2, "fromStorage changed its input");
            assertFalse(v1.path("spec").has("metrics"), v1::toString);
            ObjectNode v1Before = v1.deepCopy();
            ObjectNode back = CONVERSION.toStorage(v1);
            assertEquals(v1Before, v1, "toStorage changed its input");
            assertEquals(v2, back, () -> "v2 " + v2 + "\nv1 " + v1 + "\nback " + back);
            for (String key : HpaAnnotations.ROUND_TRIP) {
                assertFalse(back.path("metadata").path("annotations").has(key), key);
            }
        }
    }

    @Test
    void everyV1ObjectKubeWritesSurvivesV2AndBack() {
        Random random = new Random(35);
        for (int i = 0; i < RUNS; i++) {
            ObjectNode v1 = CONVERSION.fromStorage(HpaGenerator.hpa(random));
            ObjectNode again = CONVERSION.fromStorage(CONVERSION.toStorage(v1));
            assertEquals(v1, again, () -> "v1 " + v1 + "\nagain " + again);
            // Annotations come out with the same text, not just the same JSON.
            for (String key : HpaAnnotations.ROUND_TRIP) {
                assertEquals(annotation(v1, key), annotation(again, key), key);
            }
        }
    }

    @Test
    void generatedObjectsFillEveryKindOfMetric() {
        Random random = new Random(26);
        StringBuilder generated = new StringBuilder();
        for (int i = 0; i < RUNS; i++) {
            generated.append(HpaGenerator.hpa(random));
        }
        String all = generated.toString();
        for (String field :
                List.of(
                        "\"object\"",
                        "\"pods\"",
                        "\"resource\"",
                        "\"containerResource\"",
                        "\"external\"",
                        "\"tolerance\"",
                        "\"selector\"",
                        "\"conditions\"",
                        "\"lastScaleTime\"",
                        "\"observedGeneration\"",
                        "\"averageUtilization\"")) {
            assertTrue(all.contains(field), field);
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
