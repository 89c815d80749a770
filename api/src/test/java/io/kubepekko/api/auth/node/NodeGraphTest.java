package io.kubepekko.api.auth.node;

import static io.kubepekko.api.auth.node.NodeAuthorizerTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The node graph as an informer feeds it: puts, removes, relists, every source kind. */
class NodeGraphTest {

    static JsonNode pod(String name, String node, String secret) {
        return json(
                "{\"metadata\":{\"namespace\":\"ns\",\"name\":\""
                        + name
                        + "\"},\"spec\":{\"nodeName\":\""
                        + node
                        + "\",\"volumes\":[{\"name\":\"v\",\"secret\":{\"secretName\":\""
                        + secret
                        + "\"}}]}}");
    }

    static ObjectRef secret(String name) {
        return new ObjectRef(GraphObject.SECRET, "ns", name);
    }

    @Test
    void aRelistReplacesEveryPodAndForgetsThoseNoLongerListed() {
        NodeGraph g = new NodeGraph();
        g.putPod(pod("a", "n1", "sa"));
        g.putPod(pod("b", "n1", "sb"));

        g.replace(NodeGraph.PODS, List.of(pod("b", "n2", "sb"), pod("c", "n1", "sc")));

        assertFalse(g.reaches("n1", secret("sa")));
        assertFalse(g.reaches("n1", secret("sb")));
        assertTrue(g.reaches("n2", secret("sb")));
        assertTrue(g.reaches("n1", secret("sc")));
        assertEquals(2, g.podCount());
    }

    @Test
    void anUpdatedPodKeepsOnlyItsCurrentReferences() {
        NodeGraph g = new NodeGraph();
        g.putPod(pod("a", "n1", "old"));
        g.putPod(pod("a", "n1", "new"));

        assertFalse(g.reaches("n1", secret("old")));
        assertTrue(g.reaches("n1", secret("new")));
    }

    @Test
    void aVolumeRelatesOnlyThroughTheClaimItIsBoundTo() {
        NodeGraph g = new NodeGraph();
        g.putPod(
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"db"},
                         "spec":{"nodeName":"n1","volumes":[{"name":"d","persistentVolumeClaim":{"claimName":"data"}}]}}
                        """));
        g.putPersistentVolume(
                json(
                        """
                        {"metadata":{"name":"pv-1"},
                         "spec":{"claimRef":{"namespace":"ns","name":"data"},
                                 "rbd":{"secretRef":{"name":"ceph"}}}}
                        """));
        ObjectRef pv = new ObjectRef(GraphObject.PERSISTENT_VOLUME, "", "pv-1");
        assertTrue(g.reaches("n1", pv));
        assertTrue(g.reaches("n1", secret("ceph")), "secretRef defaults to the claim's namespace");

        // released: no claim, so neither the volume nor its secret relates any more
        g.putPersistentVolume(
                json(
                        """
                        {"metadata":{"name":"pv-1"},"spec":{"rbd":{"secretRef":{"name":"ceph"}}}}
                        """));
        assertFalse(g.reaches("n1", pv));
        assertFalse(g.reaches("n1", secret("ceph")));
    }

    @Test
    void attachmentsAndSlicesRelateToTheNodeTheyName() {
        NodeGraph g = new NodeGraph();
        JsonNode va = json("{\"metadata\":{\"name\":\"va-1\"},\"spec\":{\"nodeName\":\"n1\"}}");
        JsonNode slice = json("{\"metadata\":{\"name\":\"s-1\"},\"spec\":{\"nodeName\":\"n1\"}}");
        g.put(NodeGraph.VOLUME_ATTACHMENTS, va);
        g.put(NodeGraph.RESOURCE_SLICES, slice);
        ObjectRef vaRef = new ObjectRef(GraphObject.VOLUME_ATTACHMENT, "", "va-1");
        ObjectRef sliceRef = new ObjectRef(GraphObject.RESOURCE_SLICE, "", "s-1");

        assertTrue(g.reaches("n1", vaRef));
        assertFalse(g.reaches("n2", vaRef));
        assertTrue(g.reaches("n1", sliceRef));

        g.remove(NodeGraph.VOLUME_ATTACHMENTS, va);
        g.remove(NodeGraph.RESOURCE_SLICES, slice);
        assertFalse(g.reaches("n1", vaRef));
        assertFalse(g.reaches("n1", sliceRef));
    }

    @Test
    void objectsOfOtherResourcesAreIgnored() {
        NodeGraph g = new NodeGraph();
        g.put(new GroupResource("", "secrets"), pod("a", "n1", "s"));
        assertEquals(0, g.podCount());
        assertFalse(NodeGraph.feeds(new GroupResource("", "persistentvolumeclaims")));
    }

    @Test
    void podReferencesIncludeTemplateClaimsOnceCreated() {
        JsonNode pod =
                json(
                        """
                        {"metadata":{"namespace":"ns","name":"gpu"},
                         "spec":{"nodeName":"n1",
                          "resourceClaims":[{"name":"direct","resourceClaimName":"claim-a"},
                                            {"name":"templated","resourceClaimTemplateName":"t"},
                                            {"name":"pending","resourceClaimTemplateName":"t"}]},
                         "status":{"resourceClaimStatuses":[{"name":"templated","resourceClaimName":"gpu-templated-x"}]}}
                        """);
        assertEquals(
                Set.of(
                        new ObjectRef(GraphObject.RESOURCE_CLAIM, "ns", "claim-a"),
                        new ObjectRef(GraphObject.RESOURCE_CLAIM, "ns", "gpu-templated-x")),
                PodReferences.of(pod));
    }
}
