package io.kubepekko.api.store;

import static io.kubepekko.api.store.ObjectWritesTest.obj;
import static io.kubepekko.api.store.ObjectWritesTest.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@code autoscaling/v1 Scale} view of the scalable workloads, and writes through it. */
class ScaleConversionTest {

    private static final String META =
            "'metadata':{'name':'web','namespace':'default','uid':'u1',"
                    + "'resourceVersion':'7','creationTimestamp':'2026-03-04T05:06:07Z','labels':{'app':'web'},"
                    + "'generation':3}";

    static Stream<Arguments> views() {
        String scaleMeta =
                "'metadata':{'name':'web','namespace':'default','uid':'u1','resourceVersion':'7',"
                        + "'creationTimestamp':'2026-03-04T05:06:07Z'}";
        return Stream.of(
                Arguments.of(
                        "deployment with replicas, status and selector",
                        "deployments",
                        "{"
                                + META
                                + ",'spec':{'replicas':3,'selector':{'matchLabels':{'app':'web','tier':'front'}}},"
                                + "'status':{'replicas':2}}",
                        "{'kind':'Scale','apiVersion':'autoscaling/v1',"
                                + scaleMeta
                                + ",'spec':{'replicas':3},"
                                + "'status':{'replicas':2,'selector':'app=web,tier=front'}}"),
                Arguments.of(
                        "absent replicas read as the default of 1, absent status as 0",
                        "deployments",
                        "{" + META + ",'spec':{'selector':{'matchLabels':{'app':'web'}}}}",
                        "{'kind':'Scale','apiVersion':'autoscaling/v1',"
                                + scaleMeta
                                + ",'spec':{'replicas':1},"
                                + "'status':{'replicas':0,'selector':'app=web'}}"),
                Arguments.of(
                        "set-based selector",
                        "statefulsets",
                        "{"
                                + META
                                + ",'spec':{'replicas':0,'selector':{'matchExpressions':"
                                + "[{'key':'app','operator':'In','values':['web','api']}]}}}",
                        "{'kind':'Scale','apiVersion':'autoscaling/v1',"
                                + scaleMeta
                                + ",'spec':{'replicas':0},"
                                + "'status':{'replicas':0,'selector':'app in (api,web)'}}"),
                Arguments.of(
                        "no selector, no selector string",
                        "replicasets",
                        "{" + META + ",'spec':{'replicas':4},'status':{'replicas':4}}",
                        "{'kind':'Scale','apiVersion':'autoscaling/v1',"
                                + scaleMeta
                                + ",'spec':{'replicas':4},"
                                + "'status':{'replicas':4}}"),
                Arguments.of(
                        "only the identifying metadata is shown",
                        "deployments",
                        "{'metadata':{'name':'web'},'spec':{'replicas':2}}",
                        "{'kind':'Scale','apiVersion':'autoscaling/v1','metadata':{'name':'web'},"
                                + "'spec':{'replicas':2},'status':{'replicas':0}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("views")
    void toScaleShowsReplicasAndSelector(
            String name, String resource, String object, String scale) {
        assertEquals(obj(scale), ScaleConversion.toScale(type(resource), obj(object)));
    }

    static Stream<Arguments> writes() {
        return Stream.of(
                Arguments.of("replicas replace the object's", "{'spec':{'replicas':5}}", 5),
                Arguments.of("zero scales down", "{'spec':{'replicas':0}}", 0),
                Arguments.of("absent replicas mean zero, as Go's zero value", "{'spec':{}}", 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void applyScaleWritesReplicasIntoACopy(String name, String scale, int replicas) {
        ObjectNode deployment = obj("{" + META + ",'spec':{'replicas':3,'paused':true}}");
        ObjectNode before = deployment.deepCopy();

        ObjectNode out = ScaleConversion.applyScale(type("deployments"), deployment, obj(scale));

        assertEquals(replicas, out.path("spec").path("replicas").intValue());
        assertEquals(true, out.path("spec").path("paused").asBoolean());
        assertEquals(before.get("metadata"), out.get("metadata"));
        assertEquals(before, deployment, "the object is not mutated");
    }

    @Test
    void applyScaleCreatesTheSpecWhenTheObjectHasNone() {
        ObjectNode out =
                ScaleConversion.applyScale(
                        type("deployments"),
                        obj("{'metadata':{'name':'web'}}"),
                        obj("{'spec':{'replicas':2}}"));
        assertEquals(obj("{'replicas':2}"), out.get("spec"));
    }

    @Test
    void applyScaleRefusesNegativeReplicasAsAnInvalidScale() {
        ApiStatus s =
                assertThrows(
                                ApiException.class,
                                () ->
                                        ScaleConversion.applyScale(
                                                type("deployments"),
                                                obj("{" + META + ",'spec':{'replicas':3}}"),
                                                obj("{'spec':{'replicas':-2}}")))
                        .status();
        assertEquals(422, s.code());
        assertEquals("Invalid", s.reason());
        assertEquals(
                "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -2: "
                        + "must be greater than or equal to 0",
                s.message());
        assertEquals("web", s.details().name());
        assertEquals("autoscaling", s.details().group());
        assertEquals("Scale", s.details().kind());
        assertEquals(
                List.of(
                        new StatusCause(
                                "FieldValueInvalid",
                                "Invalid value: -2: must be greater than or equal to 0",
                                "spec.replicas")),
                s.details().causes());
    }
}
