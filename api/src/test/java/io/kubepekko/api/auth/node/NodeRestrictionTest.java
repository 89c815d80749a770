package io.kubepekko.api.auth.node;

import static io.kubepekko.api.auth.node.NodeAuthorizerTest.N1;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's NodeRestriction admission: a node writes only what is its own. */
class NodeRestrictionTest {

    static final GroupResource PODS = new GroupResource("", "pods");
    static final GroupResource NODES = new GroupResource("", "nodes");
    static final GroupResource PVCS = new GroupResource("", "persistentvolumeclaims");
    static final GroupResource SAS = new GroupResource("", "serviceaccounts");
    static final GroupResource LEASES = new GroupResource("coordination.k8s.io", "leases");

    static ObjectNode json(String text) {
        return (ObjectNode) NodeAuthorizerTest.json(text);
    }

    static final ObjectNode MINE =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"mine","uid":"u-mine","labels":{"a":"1"}},
                     "spec":{"nodeName":"n1"}}
                    """);
    static final ObjectNode THEIRS =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"theirs","uid":"u-theirs"},
                     "spec":{"nodeName":"n2"}}
                    """);

    static final NodeRestriction RESTRICTION =
            new NodeRestriction(
                    new NodeRestriction.Lookup() {
                        final Map<String, Pod> pods =
                                Map.of(
                                        "mine", new Pod("u-mine", "n1"),
                                        "theirs", new Pod("u-theirs", "n2"));

                        @Override
                        public Optional<Pod> pod(String namespace, String name) {
                            return namespace.equals("ns")
                                    ? Optional.ofNullable(pods.get(name))
                                    : Optional.empty();
                        }

                        @Override
                        public Optional<String> nodeUid(String name) {
                            return name.equals("n1") ? Optional.of("node-uid") : Optional.empty();
                        }
                    });

    static ObjectNode mirror(String extraSpec) {
        return mirror("node-uid", extraSpec);
    }

    static ObjectNode mirror(String ownerUid, String extraSpec) {
        return json(
                """
                {"metadata":{"namespace":"ns","name":"static-n1",
                  "annotations":{"kubernetes.io/config.mirror":"h"},
                  "ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"n1","uid":"%s","controller":true}]},
                 "spec":{"nodeName":"n1"%s}}
                """
                        .formatted(ownerUid, extraSpec));
    }

    static ObjectNode boundTo(ObjectNode pod, String node) {
        ((ObjectNode) pod.path("spec")).put("nodeName", node);
        return pod;
    }

    static ObjectNode withLabels(ObjectNode obj, String labelsJson) {
        ObjectNode copy = obj.deepCopy();
        ((ObjectNode) copy.path("metadata")).set("labels", json(labelsJson));
        return copy;
    }

    static ObjectNode node(String name, String labelsJson, String specJson) {
        return json(
                "{\"metadata\":{\"name\":\""
                        + name
                        + "\",\"labels\":"
                        + labelsJson
                        + "},\"spec\":"
                        + specJson
                        + "}");
    }

    static ObjectNode tokenRequest(String pod, String uid) {
        return json(
                "{\"spec\":{\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\""
                        + pod
                        + "\",\"uid\":\""
                        + uid
                        + "\"}}}");
    }

    static final ObjectNode PVC =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"data","resourceVersion":"5"},
                     "spec":{"resources":{"requests":{"storage":"1Gi"}}},
                     "status":{"phase":"Bound","capacity":{"storage":"1Gi"}}}
                    """);

    static AdmissionRequest req(
            Operation op,
            GroupResource gr,
            String sub,
            String ns,
            String name,
            ObjectNode object,
            ObjectNode old) {
        return new AdmissionRequest(op, N1, gr, sub, ns, name, object, old, false);
    }

    static Optional<String> ok() {
        return Optional.empty();
    }

    static Optional<String> refused(String message) {
        return Optional.of(message);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // pod status
                Arguments.of(req(Operation.UPDATE, PODS, "status", "ns", "mine", MINE, MINE), ok()),
                Arguments.of(
                        req(Operation.UPDATE, PODS, "status", "ns", "theirs", THEIRS, THEIRS),
                        refused(
                                "pods \"theirs\" is forbidden: node \"n1\" can only update pod"
                                        + " status for pods with spec.nodeName set to itself")),
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                PODS,
                                "status",
                                "ns",
                                "mine",
                                withLabels(MINE, "{\"a\":\"2\"}"),
                                MINE),
                        refused(
                                "pods \"mine\" is forbidden: node \"n1\" cannot update labels"
                                        + " through pod status")),
                // pod delete: the stored pod is the write's old object
                Arguments.of(req(Operation.DELETE, PODS, "", "ns", "mine", null, MINE), ok()),
                Arguments.of(
                        req(Operation.DELETE, PODS, "", "ns", "theirs", null, THEIRS),
                        refused(
                                "pods \"theirs\" is forbidden: node \"n1\" can only delete pods"
                                        + " with spec.nodeName set to itself")),
                Arguments.of(
                        req(Operation.DELETE, PODS, "", "ns", "gone", null, null),
                        refused("pod \"gone\" not found")),
                Arguments.of(
                        req(Operation.UPDATE, PODS, "", "ns", "mine", MINE, MINE),
                        refused(
                                "pods \"mine\" is forbidden: unexpected operation \"UPDATE\","
                                        + " node \"n1\" can only create and delete mirror pods")),
                Arguments.of(
                        req(Operation.CREATE, PODS, "eviction", "ns", "mine", json("{}"), null),
                        ok()),
                Arguments.of(
                        req(Operation.CREATE, PODS, "eviction", "ns", "theirs", json("{}"), null),
                        refused(
                                "pods \"theirs\" is forbidden: node n1 can only evict pods with"
                                        + " spec.nodeName set to itself")),
                Arguments.of(
                        req(Operation.CREATE, PODS, "binding", "ns", "mine", json("{}"), null),
                        refused(
                                "pods \"mine\" is forbidden: unexpected pod subresource"
                                        + " \"binding\", only 'status' and 'eviction' are"
                                        + " allowed")),
                // mirror pods
                Arguments.of(
                        req(Operation.CREATE, PODS, "", "ns", "static-n1", mirror(""), null), ok()),
                Arguments.of(
                        req(Operation.CREATE, PODS, "", "ns", "plain", MINE, null),
                        refused(
                                "pods \"plain\" is forbidden: pod does not have"
                                        + " \"kubernetes.io/config.mirror\" annotation, node"
                                        + " \"n1\" can only create mirror pods")),
                Arguments.of(
                        req(Operation.CREATE, PODS, "", "ns", "", withLabels(MINE, "{}"), null),
                        refused(
                                "pods \"Unknown\" is forbidden: pod does not have"
                                        + " \"kubernetes.io/config.mirror\" annotation, node"
                                        + " \"n1\" can only create mirror pods")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                mirror("other-uid", ""),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node n1 UID mismatch: expected"
                                        + " other-uid got node-uid")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                boundTo(mirror(""), "n2"),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node \"n1\" can only create"
                                        + " pods with spec.nodeName set to itself")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                mirror(
                                        ",\"volumes\":[{\"name\":\"s\",\"secret\":{\"secretName\":\"x\"}}]"),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node \"n1\" can not create pods"
                                        + " that reference secrets")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                mirror(
                                        ",\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"E\","
                                                + "\"valueFrom\":{\"configMapKeyRef\":{\"name\":\"cm\",\"key\":\"k\"}}}]}]"),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node \"n1\" can not create pods"
                                        + " that reference configmaps")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                mirror(
                                        ",\"volumes\":[{\"name\":\"d\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]"),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node \"n1\" can not create pods"
                                        + " that reference persistentvolumeclaims")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                PODS,
                                "",
                                "ns",
                                "static-n1",
                                mirror(",\"serviceAccountName\":\"default\""),
                                null),
                        refused(
                                "pods \"static-n1\" is forbidden: node \"n1\" can not create pods"
                                        + " that reference a service account")),
                // nodes
                Arguments.of(
                        req(Operation.UPDATE, NODES, "status", "", "n1", json("{}"), json("{}")),
                        ok()),
                Arguments.of(
                        req(Operation.UPDATE, NODES, "status", "", "n2", json("{}"), json("{}")),
                        refused(
                                "nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify"
                                        + " node \"n2\"")),
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                json("{\"spec\":{}}"),
                                json(
                                        "{\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]}}")),
                        refused(
                                "nodes \"n1\" is forbidden: node \"n1\" is not allowed to modify"
                                        + " taints")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                node(
                                        "n1",
                                        "{\"kubernetes.io/hostname\":\"h\",\"kubernetes.io/os\":\"linux\","
                                                + "\"node.kubernetes.io/exclude-from-external-load-balancers\":\"\","
                                                + "\"example.com/rack\":\"7\"}",
                                        "{}"),
                                null),
                        ok()),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                node(
                                        "n1",
                                        "{\"node-restriction.kubernetes.io/pci\":\"yes\","
                                                + "\"node-role.kubernetes.io/control-plane\":\"\","
                                                + "\"kubernetes.io/hostname\":\"h\"}",
                                        "{}"),
                                null),
                        refused(
                                "nodes \"n1\" is forbidden: node \"n1\" is not allowed to set the"
                                        + " following labels: node-restriction.kubernetes.io/pci,"
                                        + " node-role.kubernetes.io/control-plane")),
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                node("n1", "{\"x.k8s.io/y\":\"2\",\"a\":\"b\"}", "{}"),
                                node(
                                        "n1",
                                        "{\"x.k8s.io/y\":\"1\",\"sub.node-restriction.kubernetes.io/z\":\"\"}",
                                        "{}")),
                        refused(
                                "nodes \"n1\" is forbidden: is not allowed to modify labels:"
                                        + " sub.node-restriction.kubernetes.io/z, x.k8s.io/y")),
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                node(
                                        "n1",
                                        "{\"kubernetes.io/arch\":\"arm64\",\"a\":\"b\"}",
                                        "{\"taints\":[]}"),
                                node("n1", "{\"kubernetes.io/arch\":\"amd64\"}", "{}")),
                        ok()),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                NODES,
                                "",
                                "",
                                "n1",
                                node("n1", "{}", "{\"configSource\":{\"configMap\":{}}}"),
                                null),
                        refused(
                                "nodes \"n1\" is forbidden: node \"n1\" is not allowed to create"
                                        + " pods with a non-nil configSource")),
                // persistent volume claims
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                PVCS,
                                "status",
                                "ns",
                                "data",
                                pvcStatus(
                                        "{\"phase\":\"Bound\",\"capacity\":{\"storage\":\"2Gi\"},"
                                                + "\"conditions\":[{\"type\":\"Resizing\",\"status\":\"True\"}]}"),
                                PVC),
                        ok()),
                Arguments.of(
                        req(
                                Operation.UPDATE,
                                PVCS,
                                "status",
                                "ns",
                                "data",
                                pvcStatus(
                                        "{\"phase\":\"Lost\",\"capacity\":{\"storage\":\"1Gi\"}}"),
                                PVC),
                        refused(
                                "persistentvolumeclaims \"data\" is forbidden: node \"n1\" is not"
                                        + " allowed to update fields other than status.quantity"
                                        + " and status.conditions: [status.phase]")),
                Arguments.of(
                        req(Operation.DELETE, PVCS, "", "ns", "data", null, PVC),
                        refused(
                                "persistentvolumeclaims \"data\" is forbidden: may only update PVC"
                                        + " status")),
                // tokens
                Arguments.of(
                        req(
                                Operation.CREATE,
                                SAS,
                                "token",
                                "ns",
                                "default",
                                tokenRequest("mine", "u-mine"),
                                null),
                        ok()),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                SAS,
                                "token",
                                "ns",
                                "default",
                                tokenRequest("theirs", "u-theirs"),
                                null),
                        refused(
                                "serviceaccounts \"default\" is forbidden: node requested token"
                                        + " bound to a pod scheduled on a different node")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                SAS,
                                "token",
                                "ns",
                                "default",
                                tokenRequest("mine", "old-uid"),
                                null),
                        refused(
                                "serviceaccounts \"default\" is forbidden: the UID in the bound"
                                        + " object reference (old-uid) does not match the UID in"
                                        + " record. The object might have been deleted and then"
                                        + " recreated")),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                SAS,
                                "token",
                                "ns",
                                "default",
                                tokenRequest("gone", "u-gone"),
                                null),
                        refused("pod \"gone\" not found")),
                Arguments.of(
                        req(Operation.CREATE, SAS, "token", "ns", "default", json("{}"), null),
                        refused(
                                "serviceaccounts \"default\" is forbidden: node requested token"
                                        + " not bound to a pod")),
                Arguments.of(
                        req(Operation.DELETE, SAS, "", "ns", "default", null, json("{}")), ok()),
                // leases
                Arguments.of(
                        req(
                                Operation.CREATE,
                                LEASES,
                                "",
                                "kube-node-lease",
                                "n1",
                                json("{\"metadata\":{\"name\":\"n1\"}}"),
                                null),
                        ok()),
                Arguments.of(
                        req(
                                Operation.CREATE,
                                LEASES,
                                "",
                                "kube-node-lease",
                                "n2",
                                json("{\"metadata\":{\"name\":\"n2\"}}"),
                                null),
                        refused(
                                "leases.coordination.k8s.io \"n2\" is forbidden: can only access"
                                        + " node lease with the same name as the requesting node")),
                Arguments.of(
                        req(Operation.UPDATE, LEASES, "", "default", "n1", json("{}"), json("{}")),
                        refused(
                                "leases.coordination.k8s.io \"n1\" is forbidden: can only access"
                                        + " leases in the \"kube-node-lease\" system namespace")),
                // everything else
                Arguments.of(
                        req(
                                Operation.CREATE,
                                new GroupResource("", "configmaps"),
                                "",
                                "ns",
                                "cm",
                                json("{}"),
                                null),
                        ok()));
    }

    static ObjectNode pvcStatus(String statusJson) {
        ObjectNode copy = PVC.deepCopy();
        copy.set("status", json(statusJson));
        ((ObjectNode) copy.path("metadata")).put("resourceVersion", "6");
        return copy;
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aNodeWritesOnlyWhatIsItsOwn(AdmissionRequest request, Optional<String> refusal) {
        assertEquals(refusal, RESTRICTION.refusal(request).map(ApiStatus::message));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void usersThatAreNotNodesPassUntouched(AdmissionRequest request, Optional<String> ignored) {
        for (UserInfo user :
                List.of(
                        UserInfo.of("admin", List.of(UserInfo.MASTERS)),
                        UserInfo.of("system:node:n1", List.of("system:authenticated")),
                        UserInfo.of("n1", List.of(NodeIdentifier.NODES_GROUP)))) {
            AdmissionRequest other =
                    new AdmissionRequest(
                            request.operation(),
                            user,
                            request.resource(),
                            request.subresource(),
                            request.namespace(),
                            request.name(),
                            request.object(),
                            request.oldObject(),
                            request.dryRun());
            assertEquals(Optional.empty(), RESTRICTION.refusal(other), user.name());
        }
    }

    @Test
    void aNodeUserWithoutANodeNameIsRefusedEverything() {
        AdmissionRequest r =
                new AdmissionRequest(
                        Operation.CREATE,
                        UserInfo.of("system:node:", List.of(NodeIdentifier.NODES_GROUP)),
                        new GroupResource("", "configmaps"),
                        "",
                        "ns",
                        "cm",
                        json("{}"),
                        null,
                        false);
        ApiStatus refused = RESTRICTION.refusal(r).orElseThrow();
        assertEquals(403, refused.code());
        assertEquals(
                "configmaps \"cm\" is forbidden: could not determine node from user"
                        + " \"system:node:\"",
                refused.message());
    }

    @Test
    void aMirrorPodOfANodeTheInformerHasNotSeenIsNotFoundAsKubesListerAnswers() {
        NodeRestriction blind =
                new NodeRestriction(
                        new NodeRestriction.Lookup() {
                            @Override
                            public Optional<Pod> pod(String namespace, String name) {
                                return Optional.empty();
                            }

                            @Override
                            public Optional<String> nodeUid(String name) {
                                return Optional.empty();
                            }
                        });
        ApiStatus refused =
                blind.refusal(req(Operation.CREATE, PODS, "", "ns", "static-n1", mirror(""), null))
                        .orElseThrow();
        assertEquals(404, refused.code());
        assertEquals("node \"n1\" not found", refused.message());
    }
}
