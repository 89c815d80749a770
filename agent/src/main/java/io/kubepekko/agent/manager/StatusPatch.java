package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The status write, as the kubelet's status manager ({@code pkg/kubelet/status/status_manager.go})
 * and {@code PatchPodStatus} ({@code pkg/util/pod/pod.go}) make it: the fields the node owns are
 * taken from the worker's status, everything else of the server's status is kept (the scheduler's
 * {@code PodScheduled} condition, {@code nominatedNodeName}, ...); the write is a patch from the
 * server's status to that, guarded by the pod's uid in {@code metadata.uid} (the API server refuses
 * it with 409 when the uid differs). The kubelet sends a two-way strategic merge patch; we send the
 * equivalent RFC 7386 merge patch, whose lists are replaced whole — our lists are always the whole
 * lists.
 */
public final class StatusPatch {
    private StatusPatch() {}

    /** The top-level status fields the node owns: one the worker's status lacks is removed. */
    static final Set<String> NODE_OWNED =
            Set.of(
                    "phase",
                    "message",
                    "reason",
                    "hostIP",
                    "hostIPs",
                    "podIP",
                    "podIPs",
                    "startTime",
                    "initContainerStatuses",
                    "containerStatuses",
                    "ephemeralContainerStatuses",
                    "qosClass");

    /**
     * The status to have: {@code server}'s with the node-owned fields replaced by {@code worker}'s.
     */
    public static ObjectNode merge(JsonNode server, ObjectNode worker) {
        ObjectNode out =
                server instanceof ObjectNode o
                        ? o.deepCopy()
                        : JsonNodeFactory.instance.objectNode();
        NODE_OWNED.forEach(out::remove);
        worker.fields().forEachRemaining(e -> out.set(e.getKey(), e.getValue().deepCopy()));
        return out;
    }

    /**
     * The RFC 7386 merge patch that turns {@code from} into {@code to}: a removed member is {@code
     * null}, a changed object is patched member by member, anything else changed is replaced. Empty
     * when they are equal.
     */
    public static ObjectNode diff(JsonNode from, ObjectNode to) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode base = from instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
        for (Iterator<String> it = base.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!to.has(k)) {
                patch.putNull(k);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = to.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode was = base.get(e.getKey());
            JsonNode now = e.getValue();
            if (now.equals(was)) {
                continue;
            }
            if (was instanceof ObjectNode && now instanceof ObjectNode n) {
                patch.set(e.getKey(), diff(was, n));
            } else {
                patch.set(e.getKey(), now.deepCopy());
            }
        }
        return patch;
    }

    /** The request body: {@code {"metadata":{"uid":uid},"status":statusPatch}}. */
    public static ObjectNode body(String uid, ObjectNode statusPatch) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putObject("metadata").put("uid", uid);
        body.set("status", statusPatch);
        return body;
    }
}
