package io.kubepekko.api.auth.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.watch.PartialJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The graph's feeder parses only {@link NodeGraph#FIELDS} of each object: what the graph reads of
 * that part must be what it reads of the whole object, for every kind of reference.
 */
class NodeGraphFieldsTest {

    /**
     * A bound pod naming every kind of object a pod can give its node, plus bulk it never reads.
     */
    private static final String POD =
            """
            {"apiVersion":"v1","kind":"Pod",
             "metadata":{"namespace":"ns","name":"p","uid":"u1","labels":{"app":"a"},
               "annotations":{"note":"x"},
               "managedFields":[{"manager":"kubectl","operation":"Apply","fieldsV1":{"f:spec":{}}}]},
             "spec":{"nodeName":"n1","serviceAccountName":"sa",
               "imagePullSecrets":[{"name":"pull"}],
               "initContainers":[{"name":"i","image":"busybox",
                 "envFrom":[{"secretRef":{"name":"init-env"}}]}],
               "containers":[{"name":"c","image":"busybox","command":["sleep","1"],
                 "envFrom":[{"configMapRef":{"name":"cm-env"}}],
                 "env":[{"name":"A","valueFrom":{"secretKeyRef":{"name":"env-secret","key":"k"}}},
                        {"name":"B","valueFrom":{"configMapKeyRef":{"name":"env-cm","key":"k"}}}],
                 "resources":{"limits":{"cpu":"1"}}}],
               "ephemeralContainers":[{"name":"e","image":"busybox",
                 "envFrom":[{"secretRef":{"name":"eph-env"}}]}],
               "volumes":[{"name":"s","secret":{"secretName":"vol-secret"}},
                 {"name":"c","configMap":{"name":"vol-cm"}},
                 {"name":"pvc","persistentVolumeClaim":{"claimName":"claim"}},
                 {"name":"eph","ephemeral":{"volumeClaimTemplate":{"spec":{}}}},
                 {"name":"proj","projected":{"sources":[{"secret":{"name":"proj-secret"}},
                   {"configMap":{"name":"proj-cm"}}]}},
                 {"name":"csi","csi":{"driver":"d","nodePublishSecretRef":{"name":"csi-secret"}}}],
               "resourceClaims":[{"name":"direct","resourceClaimName":"rc-direct"},
                 {"name":"templated","resourceClaimTemplateName":"t"}]},
             "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
               "resourceClaimStatuses":[{"name":"templated","resourceClaimName":"rc-made"}],
               "extendedResourceClaimStatus":{"resourceClaimName":"rc-extended"}}}
            """;

    private static final String PV =
            """
            {"metadata":{"name":"pv1","labels":{"x":"y"}},
             "spec":{"claimRef":{"namespace":"ns","name":"claim"},
               "csi":{"driver":"d","nodePublishSecretRef":{"namespace":"ns","name":"pv-secret"}},
               "capacity":{"storage":"1Gi"}},
             "status":{"phase":"Bound"}}
            """;

    private static JsonNode part(GroupResource source, String json) {
        return PartialJson.keeping(NodeGraph.FIELDS.get(source))
                .parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aPodsReferencesAreTheSameReadFromItsFieldsAsFromTheWholePod() {
        JsonNode whole = Json.parseTrusted(POD.getBytes(StandardCharsets.UTF_8));
        JsonNode part = part(NodeGraph.PODS, POD);

        assertEquals(PodReferences.of(whole), PodReferences.of(part));
        assertEquals(17, PodReferences.of(part).size(), PodReferences.of(part).toString());
        assertFalse(part.has("apiVersion"));
        assertFalse(part.path("metadata").has("managedFields"));
        assertFalse(part.path("status").has("phase"));
    }

    @Test
    void aMirrorPodIsStillSeenAsOneFromItsFields() {
        String mirror =
                POD.replace("\"note\":\"x\"", "\"" + PodReferences.MIRROR_ANNOTATION + "\":\"h\"");

        assertTrue(PodReferences.isMirror(part(NodeGraph.PODS, mirror)));
        assertTrue(PodReferences.of(part(NodeGraph.PODS, mirror)).isEmpty());
    }

    @Test
    void aGraphFedTheFieldsRelatesWhatAGraphFedWholeObjectsRelates() {
        String attachment =
                "{\"metadata\":{\"name\":\"va\"},\"spec\":{\"nodeName\":\"n1\",\"attacher\":\"d\"}}";
        String slice =
                "{\"metadata\":{\"name\":\"rs\"},\"spec\":{\"nodeName\":\"n1\",\"driver\":\"d\"}}";
        NodeGraph wholeGraph = new NodeGraph();
        NodeGraph partGraph = new NodeGraph();
        for (var e :
                Map.of(
                                NodeGraph.PODS, POD,
                                NodeGraph.PERSISTENT_VOLUMES, PV,
                                NodeGraph.VOLUME_ATTACHMENTS, attachment,
                                NodeGraph.RESOURCE_SLICES, slice)
                        .entrySet()) {
            wholeGraph.put(
                    e.getKey(), Json.parseTrusted(e.getValue().getBytes(StandardCharsets.UTF_8)));
            partGraph.put(e.getKey(), part(e.getKey(), e.getValue()));
        }

        ObjectRef pvSecret = new ObjectRef(GraphObject.SECRET, "ns", "pv-secret");
        ObjectRef envSecret = new ObjectRef(GraphObject.SECRET, "ns", "env-secret");
        for (ObjectRef ref : new ObjectRef[] {pvSecret, envSecret}) {
            assertTrue(wholeGraph.reaches("n1", ref), ref.toString());
            assertEquals(
                    wholeGraph.reaches("n1", ref), partGraph.reaches("n1", ref), ref.toString());
        }
        assertEquals(wholeGraph.podCount(), partGraph.podCount());
    }
}
