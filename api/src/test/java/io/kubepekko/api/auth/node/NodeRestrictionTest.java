package io.kubepekko.api.auth.node;

import static io.kubepekko.api.auth.node.NodeAuthorizerTest.N1;
import static io.kubepekko.api.auth.node.NodeAuthorizerTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.node.NodeRestriction.Operation;
import io.kubepekko.api.auth.node.NodeRestriction.Request;
import io.kubepekko.api.status.ApiStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's NodeRestriction admission: a node writes only what is its own. */
class NodeRestrictionTest {

    static final GroupResource PODS = new GroupResource("", "pods");
    static final GroupResource NODES = new GroupResource("", "nodes");
    static final GroupResource SAS = new GroupResource("", "serviceaccounts");
    static final GroupResource LEASES = new GroupResource("coordination.k8s.io", "leases");

    static final JsonNode MINE =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"mine","uid":"u-mine","labels":{"a":"1"}},
                     "spec":{"nodeName":"n1"}}
                    """);
    static final JsonNode THEIRS =
            json(
                    """
                    {"metadata":{"namespace":"ns","name":"theirs","uid":"u-theirs"},
                     "spec":{"nodeName":"n2"}}
                    """);

    static final NodeRestriction.Lookup LOOKUP =
            new NodeRestriction.Lookup() {
                final Map<String, JsonNode> pods = Map.of("mine", MINE, "theirs", THEIRS);

                @Override
                public Optional<JsonNode> pod(String namespace, String name) {
                    return namespace.equals("ns")
                            ? Optional.ofNullable(pods.get(name))
                            : Optional.empty();
                }

                @Override
                public Optional<JsonNode> node(String name) {
                    return name.equals("n1")
                            ? Optional.of(
                                    json("{\"metadata\":{\"name\":\"n1\",\"uid\":\"node-uid\"}}"))
                            : Optional.empty();
                }
            };

    static JsonNode mirror(String extraSpec) {
        return json(
                """
                {"metadata":{"namespace":"ns","name":"static-n1",
                  "annotations":{"kubernetes.io/config.mirror":"h"},
                  "ownerReferences":[{"apiVersion":"v1","kind":"Node","name":"n1","uid":"node-uid","controller":true}]},
                 "spec":{"nodeName":"n1"%s}}
                """
                        .formatted(extraSpec));
    }

    static JsonNode withLabels(JsonNode pod, String labelsJson) {
        JsonNode copy = pod.deepCopy();
        ((ObjectNode) copy.path("metadata")).set("labels", json(labelsJson));
        return copy;
    }

    static JsonNode tokenRequest(String pod, String uid) {
        return json(
                "{\"spec\":{\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\""
                        + pod
                        + "\",\"uid\":\""
                        + uid
                        + "\"}}}");
    }

    static Request req(
            Operation op,
            GroupResource gr,
            String sub,
            String ns,
            String name,
            JsonNode object,
            JsonNode old) {
        return new Request(N1, op, gr, sub, ns, name, object, old);
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
                // pod delete and eviction
                Arguments.of(req(Operation.DELETE, PODS, "", "ns", "mine", null, null), ok()),
                Arguments.of(
                        req(Operation.DELETE, PODS, "", "ns", "theirs", null, null),
                        refused(
                                "pods \"theirs\" is forbidden: node \"n1\" can only delete pods"
                                        + " with spec.nodeName set to itself")),
                Arguments.of(
                        req(Operation.DELETE, PODS, "", "ns", "gone", null, null),
                        refused("pods \"gone\" not found")),
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
                        req(Operation.CREATE, PODS, "log", "ns", "mine", json("{}"), null),
                        refused(
                                "pods \"mine\" is forbidden: unexpected pod subresource \"log\","
                                        + " only 'status' and 'eviction' are allowed")),
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
                        req(Operation.CREATE, SAS, "token", "ns", "default", json("{}"), null),
                        refused(
                                "serviceaccounts \"default\" is forbidden: node requested token"
                                        + " not bound to a pod")),
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
                                        + " node lease with the same name as the requesting node")));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void aNodeWritesOnlyWhatIsItsOwn(Request request, Optional<String> refusal) {
        assertEquals(refusal, NodeRestriction.admit(request, LOOKUP).map(ApiStatus::message));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void usersThatAreNotNodesPassUntouched(Request request, Optional<String> ignored) {
        Request asAdmin =
                new Request(
                        UserInfo.of("admin", List.of(UserInfo.MASTERS)),
                        request.operation(),
                        request.resource(),
                        request.subresource(),
                        request.namespace(),
                        request.name(),
                        request.object(),
                        request.oldObject());
        assertEquals(Optional.empty(), NodeRestriction.admit(asAdmin, LOOKUP));
    }
}
