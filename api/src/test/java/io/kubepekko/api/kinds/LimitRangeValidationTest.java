package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's ValidateLimitRange after its defaults, error for error. */
class LimitRangeValidationTest {

    private static final LimitRangeStrategy STRATEGY = new LimitRangeStrategy();

    private static ObjectNode limitRange(String limits) {
        try {
            return (ObjectNode)
                    Json.MAPPER.readTree(
                            ("{'metadata':{'name':'lr','namespace':'ns'},'spec':{'limits':"
                                            + limits
                                            + "}}")
                                    .replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(limits, e);
        }
    }

    private static List<String> errors(String limits) {
        ObjectNode obj = limitRange(limits);
        STRATEGY.applyDefaults(obj);
        return STRATEGY.validateCreate(obj).stream().map(FieldError::toString).toList();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(
                        "a type twice",
                        "[{'type':'Pod','max':{'cpu':'1'}},{'type':'Pod','max':{'cpu':'2'}}]",
                        List.of("spec.limits[1].type: Duplicate value: \"Pod\"")),
                Arguments.of(
                        "an unknown type",
                        "[{'type':'Node'}]",
                        List.of(
                                "spec.limits[0].type: Invalid value: \"Node\": must be a standard"
                                        + " limit type or fully qualified")),
                Arguments.of(
                        "defaults on a Pod item",
                        "[{'type':'Pod','default':{'cpu':'1'},'defaultRequest':{'cpu':'1'}}]",
                        List.of(
                                "spec.limits[0].default: Forbidden: may not be specified when"
                                        + " `type` is 'Pod'",
                                "spec.limits[0].defaultRequest: Forbidden: may not be specified"
                                        + " when `type` is 'Pod'")),
                Arguments.of(
                        "min above max",
                        "[{'type':'Pod','min':{'cpu':'2'},'max':{'cpu':'1'}}]",
                        List.of(
                                "spec.limits[0].min[cpu]: Invalid value: 2: min value 2 is"
                                        + " greater than max value 1")),
                Arguments.of(
                        "a default above max, its defaulted request too",
                        "[{'type':'Container','max':{'cpu':'1'},'default':{'cpu':'2'}}]",
                        List.of(
                                "spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default"
                                        + " request value 2 is greater than max value 1",
                                "spec.limits[0].default[cpu]: Invalid value: 1: default value 2"
                                        + " is greater than max value 1")),
                Arguments.of(
                        "a default request below min",
                        "[{'type':'Container','min':{'memory':'512Mi'},"
                                + "'defaultRequest':{'memory':'0.25Gi'},'default':{'memory':'1Gi'}}]",
                        List.of(
                                "spec.limits[0].defaultRequest[memory]: Invalid value: 256Mi: min"
                                        + " value 512Mi is greater than default request value"
                                        + " 256Mi")),
                Arguments.of(
                        "a default request above the default limit",
                        "[{'type':'Container','defaultRequest':{'cpu':'1500m'},"
                                + "'default':{'cpu':'1'}}]",
                        List.of(
                                "spec.limits[0].defaultRequest[cpu]: Invalid value: 1500m: default"
                                        + " request value 1500m is greater than default limit value"
                                        + " 1")),
                Arguments.of(
                        "a default limit below min",
                        "[{'type':'Container','min':{'cpu':'2'},'default':{'cpu':'1'},"
                                + "'defaultRequest':{'cpu':'2'}}]",
                        List.of(
                                "spec.limits[0].defaultRequest[cpu]: Invalid value: 2: default"
                                        + " request value 2 is greater than default limit value 1",
                                "spec.limits[0].default[cpu]: Invalid value: 2: min value 2 is"
                                        + " greater than default value 1")),
                Arguments.of(
                        "a ratio below one",
                        "[{'type':'Container','maxLimitRequestRatio':{'cpu':'800m'}}]",
                        List.of(
                                "spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 800m:"
                                        + " ratio 800m is less than 1")),
                Arguments.of(
                        "a ratio above max/min",
                        "[{'type':'Pod','min':{'cpu':'1'},'max':{'cpu':'2'},"
                                + "'maxLimitRequestRatio':{'cpu':'3'}}]",
                        List.of(
                                "spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: 3:"
                                        + " ratio 3 is greater than max/min = 2.000000")),
                Arguments.of(
                        "a claim item without a storage bound",
                        "[{'type':'PersistentVolumeClaim','max':{'cpu':'1'}}]",
                        List.of(
                                "spec.limits[0].limits: Required value: either minimum or maximum"
                                        + " storage value is required, but neither was provided")),
                Arguments.of(
                        "resources a container does not have",
                        "[{'type':'Container','max':{'storage':'1Gi','gpus':'1'}}]",
                        List.of(
                                "spec.limits[0].max[gpus]: Invalid value: \"gpus\": must be a"
                                        + " standard resource type or fully qualified",
                                "spec.limits[0].max[gpus]: Invalid value: \"gpus\": must be a"
                                        + " standard resource for containers",
                                "spec.limits[0].max[storage]: Invalid value: \"storage\": must be"
                                        + " a standard resource for containers",
                                // kube's defaults copy max into default and defaultRequest
                                "spec.limits[0].default[gpus]: Invalid value: \"gpus\": must be a"
                                        + " standard resource type or fully qualified",
                                "spec.limits[0].default[gpus]: Invalid value: \"gpus\": must be a"
                                        + " standard resource for containers",
                                "spec.limits[0].default[storage]: Invalid value: \"storage\":"
                                        + " must be a standard resource for containers",
                                "spec.limits[0].defaultRequest[gpus]: Invalid value: \"gpus\":"
                                        + " must be a standard resource type or fully qualified",
                                "spec.limits[0].defaultRequest[gpus]: Invalid value: \"gpus\":"
                                        + " must be a standard resource for containers",
                                "spec.limits[0].defaultRequest[storage]: Invalid value:"
                                        + " \"storage\": must be a standard resource for"
                                        + " containers")),
                Arguments.of(
                        "huge pages cannot be overcommitted",
                        "[{'type':'Container','default':{'hugepages-2Mi':'4Mi'},"
                                + "'defaultRequest':{'hugepages-2Mi':'2Mi'}}]",
                        List.of(
                                "spec.limits[0].defaultRequest[hugepages-2Mi]: Invalid value: 2Mi:"
                                        + " default value 4Mi must equal to defaultRequest value"
                                        + " 2Mi in hugepages-2Mi")),
                Arguments.of(
                        "a quantity that is none",
                        "[{'type':'Pod','max':{'cpu':'lots'}}]",
                        List.of(
                                "spec.limits[0].max[cpu]: Invalid value: \"lots\": "
                                        + Quantity.FORMAT_WRONG)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void isRefusedAsKubeRefusesIt(String why, String limits, List<String> expected) {
        assertEquals(expected, errors(limits));
    }

    @Test
    void aValidLimitRangeOfEveryTypeHasNoErrors() {
        assertEquals(
                List.of(),
                errors(
                        "[{'type':'Container','min':{'cpu':'100m','memory':'64Mi'},"
                                + "'max':{'cpu':'2','memory':'1Gi'},'default':{'cpu':'500m'},"
                                + "'defaultRequest':{'cpu':'200m'},'maxLimitRequestRatio':{'cpu':'10'}},"
                                + "{'type':'Pod','max':{'cpu':'4'}},"
                                + "{'type':'PersistentVolumeClaim','min':{'storage':'1Gi'}},"
                                + "{'type':'example.com/Thing','max':{'example.com/widgets':'3'}}]"));
    }

    @Test
    void negativeBoundsPassAsKubesValidationHasNoCheckOfTheirSign() {
        assertEquals(List.of(), errors("[{'type':'Pod','min':{'cpu':'-1'}}]"));
    }

    @Test
    void containerItemsGetKubesDefaults() {
        ObjectNode obj =
                limitRange(
                        "[{'type':'Container','max':{'cpu':'2','memory':'1Gi'},"
                                + "'default':{'memory':'512Mi'},'min':{'ephemeral-storage':'1Gi'}},"
                                + "{'type':'Pod','max':{'cpu':'4'}}]");
        STRATEGY.applyDefaults(obj);
        assertEquals(
                limitRange(
                        "[{'type':'Container','max':{'cpu':'2','memory':'1Gi'},"
                                + "'default':{'memory':'512Mi','cpu':'2'},"
                                + "'min':{'ephemeral-storage':'1Gi'},"
                                + "'defaultRequest':{'memory':'512Mi','cpu':'2',"
                                + "'ephemeral-storage':'1Gi'}},"
                                + "{'type':'Pod','max':{'cpu':'4'}}]"),
                obj);
    }
}
