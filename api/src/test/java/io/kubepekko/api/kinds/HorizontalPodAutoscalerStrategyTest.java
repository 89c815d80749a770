package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * autoscaling/v2 HorizontalPodAutoscalers: kube's defaults and kube's validation messages (field,
 * type, value, detail, in kube's order) for each rule of the spec, its metrics and its behavior.
 */
class HorizontalPodAutoscalerStrategyTest {

    private static final HorizontalPodAutoscalerStrategy STRATEGY =
            new HorizontalPodAutoscalerStrategy();

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static final String REF =
            "'scaleTargetRef':{'kind':'Deployment','name':'web','apiVersion':'apps/v1'}";

    /** An HPA with {@code spec} after the scale target, defaulted as a write would be. */
    private static ObjectNode hpa(String spec) {
        ObjectNode o =
                obj("{'metadata':{'name':'h','namespace':'ns'},'spec':{" + REF + spec + "}}");
        STRATEGY.applyDefaults(o);
        return o;
    }

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(e -> e.field() + ": " + e.body()).toList();
    }

    @Test
    void defaultsMinReplicasTheCpuTargetAndBothBehaviorDirections() {
        ObjectNode o =
                hpa(",'maxReplicas':3,'behavior':{'scaleDown':{'stabilizationWindowSeconds':60}}");
        assertEquals(
                obj(
                        "{"
                                + REF
                                + ",'minReplicas':1,'maxReplicas':3,'metrics':[{'type':'Resource','resource':"
                                + "{'name':'cpu','target':{'type':'Utilization','averageUtilization':80}}}],"
                                + "'behavior':{'scaleUp':{'stabilizationWindowSeconds':0,'selectPolicy':'Max',"
                                + "'policies':[{'type':'Pods','value':4,'periodSeconds':15},"
                                + "{'type':'Percent','value':100,'periodSeconds':15}]},"
                                + "'scaleDown':{'stabilizationWindowSeconds':60,'selectPolicy':'Max',"
                                + "'policies':[{'type':'Percent','value':100,'periodSeconds':15}]}}}"),
                o.get("spec"));
        assertEquals(
                List.of("scaleTargetRef", "minReplicas", "maxReplicas", "metrics", "behavior"),
                names(o.get("spec")));
        assertEquals(List.of(), STRATEGY.validateCreate(o));
    }

    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(
                        "replica bounds",
                        ",'minReplicas':0,'maxReplicas':0",
                        List.of(
                                "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
                                "spec.maxReplicas: Invalid value: 0: must be greater than 0",
                                "spec.metrics: Forbidden: must specify at least one Object or External"
                                        + " metric to support scaling to zero replicas")),
                Arguments.of(
                        "max below min",
                        ",'minReplicas':5,'maxReplicas':2",
                        List.of(
                                "spec.maxReplicas: Invalid value: 2: must be greater than or equal to"
                                        + " `minReplicas`")),
                Arguments.of(
                        "metric type and sources",
                        ",'maxReplicas':2,'metrics':[{'type':'Pods','resource':{'name':'cpu','target':"
                                + "{'type':'Utilization','averageUtilization':50}},'external':{'metric':"
                                + "{'name':'q'},'target':{'type':'Value','value':'1'}}},{'type':'Bogus'}]",
                        List.of(
                                "spec.metrics[0].pods: Required value: must populate information for the"
                                        + " given metric source",
                                "spec.metrics[0].external: Forbidden: must populate the given metric source"
                                        + " only",
                                "spec.metrics[0].resource: Forbidden: must populate the given metric source"
                                        + " only",
                                "spec.metrics[1].type: Unsupported value: \"Bogus\": supported values:"
                                        + " \"ContainerResource\", \"External\", \"Object\", \"Pods\","
                                        + " \"Resource\"",
                                "spec.metrics[1].type: Unsupported value: \"Bogus\": supported values:"
                                        + " \"ContainerResource\", \"External\", \"Object\", \"Pods\","
                                        + " \"Resource\"")),
                Arguments.of(
                        "targets",
                        ",'maxReplicas':2,'metrics':[{'type':'Resource','resource':{'name':'memory','target':"
                                + "{'type':'Utilization','averageUtilization':0,'averageValue':'-1'}}},"
                                + "{'type':'Pods','pods':{'metric':{'name':'a/b'},'target':{'type':''}}}]",
                        List.of(
                                "spec.metrics[0].resource.target.averageValue: Invalid value: \"-1\": must"
                                        + " be positive",
                                "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0:"
                                        + " must be greater than 0",
                                "spec.metrics[0].resource.target.averageValue: Forbidden: may not set both"
                                        + " a target raw value and a target utilization",
                                "spec.metrics[1].pods.metric.name: Invalid value: \"a/b\": may not contain"
                                        + " '/'",
                                "spec.metrics[1].pods.target.type: Required value: must specify a metric"
                                        + " target type",
                                "spec.metrics[1].pods.target.type: Invalid value: \"\": must be either"
                                        + " Utilization, Value, or AverageValue",
                                "spec.metrics[1].pods.target.averageValue: Required value: must specify a"
                                        + " positive target averageValue")),
                Arguments.of(
                        "behavior",
                        ",'maxReplicas':2,'behavior':{'scaleUp':{'stabilizationWindowSeconds':3601,"
                                + "'selectPolicy':'Fast','policies':[{'type':'Nodes','value':0,"
                                + "'periodSeconds':1801}]},'scaleDown':{'policies':[],'tolerance':'-1m'}}",
                        List.of(
                                "spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601:"
                                        + " must be less than or equal to 3600",
                                "spec.behavior.scaleUp.selectPolicy: Unsupported value: \"Fast\": supported"
                                        + " values: \"Disabled\", \"Max\", \"Min\"",
                                "spec.behavior.scaleUp.policies[0].type: Unsupported value: \"Nodes\":"
                                        + " supported values: \"Percent\", \"Pods\"",
                                "spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater"
                                        + " than zero",
                                "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must"
                                        + " be less than or equal to 1800",
                                "spec.behavior.scaleDown.policies: Required value: must specify at least one"
                                        + " Policy",
                                "spec.behavior.scaleDown.tolerance: Invalid value: \"-1m\": must be greater"
                                        + " than or equal to 0")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void validatesAsKubeDoes(String name, String spec, List<String> expected) {
        assertEquals(expected, messages(STRATEGY.validateCreate(hpa(spec))));
    }

    @Test
    void theScaleTargetNeedsKindNameAndAGroup() {
        ObjectNode o =
                obj(
                        "{'metadata':{'name':'h'},'spec':{'scaleTargetRef':{'name':'a%b','apiVersion':'v1'},"
                                + "'maxReplicas':1}}");
        STRATEGY.applyDefaults(o);
        assertEquals(
                List.of(
                        "spec.scaleTargetRef.kind: Required value",
                        "spec.scaleTargetRef.name: Invalid value: \"a%b\": may not contain '%'",
                        "spec.scaleTargetRef.apiVersion: Invalid value: \"v1\": apiVersion must"
                                + " specify API group"),
                messages(STRATEGY.validateCreate(o)));
        // ReplicationController, the core group's scalable kind, needs none.
        ObjectNode rc =
                obj(
                        "{'metadata':{'name':'h'},'spec':{'scaleTargetRef':{'kind':'ReplicationController',"
                                + "'name':'rc','apiVersion':'v1'},'maxReplicas':1}}");
        STRATEGY.applyDefaults(rc);
        assertEquals(List.of(), STRATEGY.validateCreate(rc));
    }

    @Test
    void anUpdateKeepsZeroMinReplicasAndAnUncheckedTargetVersion() {
        ObjectNode old =
                obj(
                        "{'metadata':{'name':'h'},'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web',"
                                + "'apiVersion':'a/b/c'},'minReplicas':0,'maxReplicas':1,'metrics':[{'type':"
                                + "'External','external':{'metric':{'name':'q'},'target':{'type':'Value',"
                                + "'value':'1'}}}]}}");
        ObjectNode updated = old.deepCopy();
        ((ObjectNode) updated.get("spec")).put("maxReplicas", 2);
        assertEquals(List.of(), STRATEGY.validateUpdate(updated, old));
        assertEquals(
                List.of(
                        "spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
                        "spec.scaleTargetRef.apiVersion: Invalid value: \"a/b/c\": unexpected"
                                + " GroupVersion string: a/b/c"),
                messages(STRATEGY.validateCreate(old)));
    }

    @Test
    void aStatusMayNotCountBelowZero() {
        ObjectNode old = hpa(",'maxReplicas':1");
        ObjectNode updated = old.deepCopy();
        updated.putObject("status").put("currentReplicas", -1).put("desiredReplicas", -2);
        assertEquals(
                List.of(
                        "status.currentReplicas: Invalid value: -1: must be greater than or equal to 0",
                        "status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0"),
                messages(STRATEGY.validateUpdate(updated, old)));
    }
}
