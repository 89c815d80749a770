package io.kubepekko.api.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Field sets in FieldsV1 form and the ownership an Update operation leaves, as Kubernetes tracks
 * them.
 */
class ManagedFieldsTest {

    private static final TypedFields FIELDS = new TypedFields(MergeMetadata.builtin());
    private static final String T = "2026-11-23T10:00:00Z";

    private static ObjectNode obj(String singleQuoted) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode json(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static List<ManagedFields.Entry> write(
            List<ManagedFields.Entry> entries,
            ObjectNode before,
            ObjectNode after,
            String type,
            String manager,
            String subresource) {
        return ManagedFields.update(
                entries, manager, subresource, "v1", T, FIELDS.compare(before, after, type));
    }

    @Test
    void aCreateOwnsEveryFieldAndNewMapsAreMembersThemselves() {
        ObjectNode cm =
                obj(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'default',"
                                + "'uid':'u','labels':{'app':'demo'}},'data':{'key':'v','other':'w'}}");
        List<ManagedFields.Entry> entries =
                write(List.of(), null, cm, "core.v1.ConfigMap", "kubectl-create", null);
        assertEquals(1, entries.size());
        assertEquals(
                obj(
                        "{'f:data':{'.':{},'f:key':{},'f:other':{}},'f:metadata':{'f:labels':{'.':{},'f:app':{}}}}"),
                entries.get(0).fields().toFieldsV1(),
                "as kube-apiserver records kubectl create -f");
        JsonNode rendered = ManagedFields.render(entries).get(0);
        assertEquals("kubectl-create", rendered.path("manager").asText());
        assertEquals("Update", rendered.path("operation").asText());
        assertEquals("FieldsV1", rendered.path("fieldsType").asText());
        assertEquals(T, rendered.path("time").asText());
    }

    @Test
    void listItemsAreKeyedAndAtomicStructsAreLeaves() {
        ObjectNode d =
                obj(
                        "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'replicas':2,"
                                + "'selector':{'matchLabels':{'app':'d'}},'template':{'metadata':{'labels':{'app':'d'}},'spec':{"
                                + "'containers':[{'name':'nginx','image':'nginx:1.27','ports':[{'containerPort':80,'protocol':'TCP'}]}]}}}}");
        FieldSet set = FIELDS.fields(d, "apps.v1.Deployment");
        assertEquals(
                json(
                        """
                {"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
                 "f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},
                 "f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},
                 "f:protocol":{}}}}}}}}}"""),
                set.toFieldsV1());
    }

    @Test
    void anotherManagersUpdateTakesWhatItChangesWithoutConflict() {
        ObjectNode v1 =
                obj("{'metadata':{'name':'c','labels':{'app':'a','tier':'t'}},'data':{'k':'v'}}");
        List<ManagedFields.Entry> entries =
                write(List.of(), null, v1, "core.v1.ConfigMap", "creator", null);
        ObjectNode v2 =
                obj(
                        "{'metadata':{'name':'c','labels':{'app':'b','tier':'t','new':'n'}},'data':{'k':'v'}}");
        entries = write(entries, v1, v2, "core.v1.ConfigMap", "kubectl-label", null);
        assertEquals(2, entries.size());
        assertEquals(
                List.of(
                        "f:data",
                        "f:data.f:k",
                        "f:metadata.f:labels",
                        "f:metadata.f:labels.f:tier"),
                entries.get(0).fields().paths(),
                "the creator lost app, which the label write changed");
        assertEquals(
                List.of("f:metadata.f:labels.f:app", "f:metadata.f:labels.f:new"),
                entries.get(1).fields().paths());
    }

    @Test
    void removedFieldsLeaveEveryOwnerAndEmptyEntriesDisappear() {
        ObjectNode v1 = obj("{'metadata':{'name':'c'},'data':{'k':'v'}}");
        List<ManagedFields.Entry> entries =
                write(List.of(), null, v1, "core.v1.ConfigMap", "creator", null);
        ObjectNode v2 = obj("{'metadata':{'name':'c','labels':{'x':'y'}},'data':{'k':'v'}}");
        entries = write(entries, v1, v2, "core.v1.ConfigMap", "labeler", null);
        ObjectNode v3 = obj("{'metadata':{'name':'c'},'data':{'k':'v'}}");
        entries = write(entries, v2, v3, "core.v1.ConfigMap", "creator", null);
        assertEquals(1, entries.size(), "the labeler owned only what was removed");
        assertEquals("creator", entries.get(0).manager());
    }

    @Test
    void statusIsOwnedOnlyThroughTheStatusSubresource() {
        ObjectNode v1 =
                obj(
                        "{'metadata':{'name':'p'},'spec':{'nodeName':'n1'},'status':{'phase':'Pending'}}");
        List<ManagedFields.Entry> entries =
                write(List.of(), null, v1, "core.v1.Pod", "kubectl", null);
        assertEquals(
                List.of("f:spec.f:nodeName"),
                entries.get(0).fields().paths(),
                "main writes never own status");
        ObjectNode v2 =
                obj(
                        "{'metadata':{'name':'p'},'spec':{'nodeName':'n1'},'status':{'phase':'Running'}}");
        entries = write(entries, v1, v2, "core.v1.Pod", "kubelet", "status");
        assertEquals("status", entries.get(1).subresource());
        assertEquals(List.of("f:status.f:phase"), entries.get(1).fields().paths());
    }

    @Test
    void fieldsV1RoundTripsAndSetsCombine() {
        JsonNode v1 =
                json(
                        """
                {"f:metadata":{"f:finalizers":{".":{},"v:\\"example.com/hold\\"":{}},"f:labels":{"f:a":{}}}}""");
        FieldSet set = FieldSet.fromFieldsV1(v1);
        assertEquals(v1, set.toFieldsV1());
        FieldSet labels = FieldSet.of(List.of("f:metadata", "f:labels", "f:a"));
        assertEquals(labels, set.intersection(labels));
        assertTrue(set.difference(set).isEmpty());
        assertEquals(
                List.of(
                        "f:metadata.f:finalizers",
                        "f:metadata.f:finalizers.v:\"example.com/hold\""),
                set.difference(labels).paths());
    }

    @Test
    void malformedFieldsV1FromAClientIsReadWithoutFailing() {
        FieldSet odd =
                FieldSet.fromFieldsV1(
                        json(
                                """
                {"f:spec":{"i:x":{},"i:10":{},"i:2":{},"f:a":5}}"""));
        assertEquals(List.of("f:spec.f:a", "f:spec.i:x", "f:spec.i:2", "f:spec.i:10"), odd.paths());
    }
}
