package io.kubepekko.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strategic merge patches on pods and deployments, every directive, against Kubernetes' results.
 */
class StrategicMergePatchTest {

    /** The markers these cases rely on, as Kubernetes declares them. */
    private static final MergeMetadata METADATA =
            MergeMetadata.of(
                    """
            core.v1.PodSpec containers patch=merge key=name list=map keys=name
            core.v1.PodSpec volumes patch=merge,retainKeys key=name list=map keys=name
            core.v1.PodSpec tolerations list=atomic
            core.v1.Container env patch=merge key=name list=map keys=name
            core.v1.Container ports patch=merge key=containerPort list=map keys=containerPort,protocol
            meta.ObjectMeta finalizers patch=merge list=set
            apps.v1.DeploymentSpec strategy patch=retainKeys
            """);

    private static final StrategicMergePatch SMP = new StrategicMergePatch(METADATA);

    private static ObjectNode obj(String singleQuoted) {
        return (ObjectNode) json(singleQuoted);
    }

    private static JsonNode json(String singleQuoted) {
        try {
            return Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final ObjectNode POD =
            obj(
                    """
            {'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','labels':{'app':'web','tier':'front'},
             'finalizers':['a.io/x']},
             'spec':{'containers':[{'name':'app','image':'app:1','env':[{'name':'A','value':'1'},{'name':'B','value':'2'}],
                                    'ports':[{'containerPort':80,'protocol':'TCP'}]},
                                   {'name':'sidecar','image':'envoy:1'}],
                     'volumes':[{'name':'data','hostPath':{'path':'/srv'}}],
                     'tolerations':[{'key':'a','operator':'Exists'},{'key':'b','operator':'Exists'}]}}""");

    private ObjectNode patch(String patch) {
        return SMP.apply(POD, obj(patch), "core.v1.Pod");
    }

    @Test
    void listsWithAMergeKeyMergeItemByItem() {
        ObjectNode out =
                patch(
                        "{'spec':{'containers':[{'name':'app','image':'app:2'},{'name':'log','image':'fluent:1'}]}}");
        assertEquals(
                json(
                        "[{'name':'app','image':'app:2','env':[{'name':'A','value':'1'},{'name':'B','value':'2'}],"
                                + "'ports':[{'containerPort':80,'protocol':'TCP'}]},{'name':'sidecar','image':'envoy:1'},"
                                + "{'name':'log','image':'fluent:1'}]"),
                out.at("/spec/containers"));
        assertEquals(
                "app:1", POD.at("/spec/containers/0/image").asText(), "the original is untouched");
    }

    @Test
    void nestedListsMergeByTheirOwnKeys() {
        ObjectNode out =
                patch(
                        "{'spec':{'containers':[{'name':'app','env':[{'name':'B','value':'3'},{'name':'C','value':'4'}]}]}}");
        assertEquals(
                json(
                        "[{'name':'A','value':'1'},{'name':'B','value':'3'},{'name':'C','value':'4'}]"),
                out.at("/spec/containers/0/env"));
    }

    @Test
    void nullDeletesAField() {
        ObjectNode out =
                patch(
                        "{'metadata':{'labels':{'tier':null}},'spec':{'containers':[{'name':'app','ports':null}]}}");
        assertEquals(json("{'app':'web'}"), out.at("/metadata/labels"));
        assertEquals(false, out.at("/spec/containers/0").has("ports"));
    }

    @Test
    void patchDeleteRemovesAListItemOrAnObject() {
        ObjectNode out = patch("{'spec':{'containers':[{'name':'sidecar','$patch':'delete'}]}}");
        assertEquals(1, out.at("/spec/containers").size());
        ObjectNode noLabels = patch("{'metadata':{'labels':{'$patch':'delete'}}}");
        assertEquals(false, noLabels.at("/metadata").has("labels"));
    }

    @Test
    void patchReplaceReplacesAListOrAnObject() {
        ObjectNode list =
                patch(
                        "{'spec':{'containers':[{'name':'only','image':'x:1'},{'$patch':'replace'}]}}");
        assertEquals(json("[{'name':'only','image':'x:1'}]"), list.at("/spec/containers"));
        ObjectNode map = patch("{'metadata':{'labels':{'$patch':'replace','new':'yes'}}}");
        assertEquals(json("{'new':'yes'}"), map.at("/metadata/labels"));
    }

    @Test
    void listsWithoutAMergeStrategyAreReplaced() {
        ObjectNode out = patch("{'spec':{'tolerations':[{'key':'c','operator':'Exists'}]}}");
        assertEquals(json("[{'key':'c','operator':'Exists'}]"), out.at("/spec/tolerations"));
    }

    @Test
    void primitiveListsMergeAsSetsAndDeleteFromPrimitiveListRemoves() {
        ObjectNode added = patch("{'metadata':{'finalizers':['a.io/x','b.io/y']}}");
        assertEquals(json("['a.io/x','b.io/y']"), added.at("/metadata/finalizers"));
        ObjectNode removed =
                patch("{'metadata':{'$deleteFromPrimitiveList/finalizers':['a.io/x']}}");
        assertEquals(json("[]"), removed.at("/metadata/finalizers"));
    }

    @Test
    void setElementOrderOrdersTheMergedList() {
        ObjectNode out =
                patch(
                        "{'spec':{'$setElementOrder/containers':[{'name':'sidecar'},{'name':'app'}],"
                                + "'containers':[{'name':'app','image':'app:3'}]}}");
        assertEquals("sidecar", out.at("/spec/containers/0/name").asText());
        assertEquals("app:3", out.at("/spec/containers/1/image").asText());
    }

    @Test
    void retainKeysClearsFieldsNotListed() {
        ObjectNode out =
                patch(
                        "{'spec':{'volumes':[{'name':'data','$retainKeys':['emptyDir','name'],'emptyDir':{}}]}}");
        assertEquals(json("[{'name':'data','emptyDir':{}}]"), out.at("/spec/volumes"));
        ObjectNode deployment =
                obj(
                        "{'spec':{'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}}}}");
        ObjectNode recreate =
                SMP.apply(
                        deployment,
                        obj("{'spec':{'strategy':{'$retainKeys':['type'],'type':'Recreate'}}}"),
                        "apps.v1.Deployment");
        assertEquals(json("{'type':'Recreate'}"), recreate.at("/spec/strategy"));
    }

    /**
     * Malformed directives get k8s.io/apimachinery strategicpatch's errors, as 400s. kube-apiserver
     * answers those it classifies (handlers/patch.go interpretStrategicMergePatchError) with 400
     * and passes the rest on as 500s; the patch is the client's mistake, so all are 400 here.
     */
    static Stream<Arguments> malformedDirectives() {
        return Stream.of(
                Arguments.of(
                        "$setElementOrder that is a string",
                        "{'metadata':{'$setElementOrder/finalizers':'x'}}",
                        400,
                        "BadRequest",
                        "expected a []interface {}, but received a string"),
                Arguments.of(
                        "$setElementOrder that is a map",
                        "{'metadata':{'$setElementOrder/finalizers':{'a':1}}}",
                        400,
                        "BadRequest",
                        "expected a []interface {}, but received a map[string]interface {}"),
                Arguments.of(
                        "$setElementOrder that is null",
                        "{'metadata':{'$setElementOrder/finalizers':null}}",
                        400,
                        "BadRequest",
                        "expected a []interface {}, but received a %!s(<nil>)"),
                Arguments.of(
                        "$setElementOrder without its slash",
                        "{'metadata':{'$setElementOrderfinalizers':['a']}}",
                        400,
                        "BadRequest",
                        "invalid patch format of setElementOrder list"),
                Arguments.of(
                        "unknown $patch of a map",
                        "{'metadata':{'$patch':'shuffle'}}",
                        400,
                        "BadRequest",
                        "unknown patch type: shuffle in map: map[$patch:shuffle]"),
                Arguments.of(
                        "$patch merge of a map",
                        "{'metadata':{'labels':{'a':'b','n':1.5},'$patch':'merge'}}",
                        400,
                        "BadRequest",
                        "unknown patch type: merge in map: map[$patch:merge labels:map[a:b n:1.5]]"),
                Arguments.of(
                        "$patch that is a number",
                        "{'metadata':{'$patch':5}}",
                        400,
                        "BadRequest",
                        "unknown patch type: %!s(int64=5) in map: map[$patch:5]"),
                Arguments.of(
                        "$patch merge of a list item",
                        "{'spec':{'containers':[{'name':'app','$patch':'merge'}]}}",
                        400,
                        "BadRequest",
                        "merging lists cannot yet be specified in the patch"),
                Arguments.of(
                        "unknown $patch of a list item",
                        "{'spec':{'containers':[{'name':'app','$patch':'x'}]}}",
                        400,
                        "BadRequest",
                        "unknown patch type: x in map: map[$patch:x name:app]"),
                Arguments.of(
                        "$retainKeys that is not a list",
                        "{'spec':{'volumes':[{'name':'data','$retainKeys':'emptyDir','emptyDir':{}}]}}",
                        400,
                        "BadRequest",
                        "invalid patch format of retainKeys"),
                Arguments.of(
                        "$retainKeys without a key the patch sets",
                        "{'spec':{'volumes':[{'name':'data','$retainKeys':['name'],'emptyDir':{}}]}}",
                        400,
                        "BadRequest",
                        "invalid patch format of retainKeys"),
                Arguments.of(
                        "$deleteFromPrimitiveList without its slash",
                        "{'metadata':{'$deleteFromPrimitiveListfinalizers':['a.io/x']}}",
                        400,
                        "BadRequest",
                        "invalid patch format of primitive list"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedDirectives")
    void malformedDirectivesAreRefusedAsKubernetesRefusesThem(
            String name, String patch, int code, String reason, String message) {
        ApiException e = assertThrows(ApiException.class, () -> patch(patch));
        assertEquals(code, e.status().code());
        assertEquals(reason, e.status().reason());
        assertEquals(message, e.status().message());
    }

    static Stream<Arguments> deleteFromPrimitiveList() {
        return Stream.of(
                Arguments.of("a list drops its values", "['a.io/x','b']", "[]"),
                Arguments.of("a value that is not a list is ignored", "'a.io/x'", "['a.io/x']"),
                Arguments.of("null removes the field", "null", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deleteFromPrimitiveList")
    void deleteFromPrimitiveListAsKubernetesMergesIt(String name, String value, String finalizers) {
        ObjectNode out =
                patch("{'metadata':{'$deleteFromPrimitiveList/finalizers':" + value + "}}");
        assertEquals(
                finalizers == null ? null : json(finalizers),
                out.path("metadata").get("finalizers"));
    }

    @Test
    void listItemsWithoutTheirMergeKeyAreBadRequests() {
        ApiException noKey =
                assertThrows(
                        ApiException.class, () -> patch("{'spec':{'containers':[{'image':'x'}]}}"));
        assertEquals(400, noKey.status().code());
        assertEquals(
                "map: {\"image\":\"x\"} does not contain declared merge key: name",
                noKey.status().message());
    }

    @Test
    void untypedObjectsMergeAsJsonMergePatchWithListsReplaced() {
        ObjectNode out =
                SMP.apply(obj("{'a':{'b':1,'c':[1,2]}}"), obj("{'a':{'b':null,'c':[3]}}"), null);
        assertEquals(json("{'a':{'c':[3]}}"), out);
    }
}
