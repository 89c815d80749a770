package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.kinds.AutoscalingV1Conversion;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube's HorizontalPodAutoscaler columns (NAME, REFERENCE, TARGETS, MINPODS, MAXPODS, REPLICAS,
 * AGE) and its TARGETS cell for each metric type, with and without a current value; the v1 printer
 * shows the same cells from the v1 form.
 */
class HorizontalPodAutoscalerPrinterTest {

    private static final Instant NOW = Instant.parse("2026-11-29T22:00:00Z");

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static final String HPA =
            "{'metadata':{'name':'web','creationTimestamp':'2026-11-29T21:00:00Z'},"
                    + "'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'},"
                    + "'minReplicas':2,'maxReplicas':10,'metrics':[{'type':'Resource','resource':"
                    + "{'name':'cpu','target':{'type':'Utilization','averageUtilization':80}}}]},"
                    + "'status':{'currentReplicas':3,'desiredReplicas':3}}";

    @Test
    void printsKubesColumns() {
        HorizontalPodAutoscalerPrinter p = HorizontalPodAutoscalerPrinter.INSTANCE;
        assertEquals(
                List.of("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"),
                p.columns().stream().map(Column::name).toList());
        assertEquals(
                List.of("web", "Deployment/web", "cpu: <unknown>/80%", "2", 10L, 3L, "60m"),
                p.cells(obj(HPA), NOW));
        TablePrinter v1 = new ConvertedPrinter(p, AutoscalingV1Conversion.INSTANCE);
        assertEquals(
                p.cells(obj(HPA), NOW),
                v1.cells(AutoscalingV1Conversion.INSTANCE.fromStorage(obj(HPA)), NOW));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "no metrics | [] | [] | <none>",
                "utilization with current | [{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization','averageUtilization':50}}}]"
                        + " | [{'type':'Resource','resource':{'name':'cpu','current':{'averageValue':'200m','averageUtilization':35}}}]"
                        + " | cpu: 35%/50%",
                "resource value | [{'type':'Resource','resource':{'name':'memory','target':{'type':'AverageValue','averageValue':'1024Mi'}}}]"
                        + " | [{'type':'Resource','resource':{'name':'memory','current':{'averageValue':'512Mi'}}}]"
                        + " | memory: 512Mi/1Gi",
                "container resource | [{'type':'ContainerResource','containerResource':{'name':'cpu','container':'app','target':{'type':'Utilization'}}}]"
                        + " | [] | cpu: <unknown>/<auto>",
                "pods | [{'type':'Pods','pods':{'metric':{'name':'qps'},'target':{'type':'AverageValue','averageValue':'1k'}}}]"
                        + " | [{'type':'Pods','pods':{'metric':{'name':'qps'},'current':{'averageValue':'500'}}}]"
                        + " | 500/1k",
                "object value | [{'type':'Object','object':{'metric':{'name':'rps'},'target':{'type':'Value','value':'10'}}}]"
                        + " | [] | <unknown>/10",
                "external average | [{'type':'External','external':{'metric':{'name':'q'},'target':{'type':'AverageValue','averageValue':'30'}}}]"
                        + " | [{'type':'External','external':{'metric':{'name':'q'},'current':{'averageValue':'20'}}}]"
                        + " | 20/30 (avg)",
                "more than two | [{'type':'Pods','pods':{'target':{'averageValue':'1'}}},{'type':'Pods','pods':{'target':{'averageValue':'2'}}},{'type':'Pods','pods':{'target':{'averageValue':'3'}}}]"
                        + " | [] | <unknown>/1, <unknown>/2 + 1 more...",
            })
    void targetsAsKubeFormatsThem(String name, String specs, String statuses, String expected) {
        assertEquals(
                expected, HorizontalPodAutoscalerPrinter.targets(parse(specs), parse(statuses)));
    }

    private static JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
