package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The node's heartbeat Lease as the kubelet's lease controller
 * (k8s.io/component-helpers/apimachinery/lease) writes it: named after the node in {@code
 * kube-node-lease}, held by the node's name, 40 s long, renewed at a quarter of that; owned by the
 * Node (apiVersion v1, kind Node, name, uid) once the Node's uid is known — until then it is
 * created without an owner and the owner is added on a later renewal.
 */
public final class NodeLease {
    private NodeLease() {}

    public static final String NAMESPACE = "kube-node-lease";

    /** The kubelet's {@code nodeLeaseDurationSeconds} default. */
    public static final int DURATION_SECONDS = 40;

    /** The kubelet renews at {@code 0.25 × duration}: 10 s. */
    public static final Duration RENEW_INTERVAL = Duration.ofSeconds(DURATION_SECONDS / 4);

    /**
     * A new Lease for {@code node}, renewed at {@code now}, owned by the Node when {@code nodeUid}
     * is known.
     */
    public static ObjectNode create(String node, Optional<String> nodeUid, Instant now) {
        ObjectNode l = Json.MAPPER.createObjectNode();
        l.put("apiVersion", "coordination.k8s.io/v1");
        l.put("kind", "Lease");
        ObjectNode meta = l.putObject("metadata");
        meta.put("name", node);
        meta.put("namespace", NAMESPACE);
        ObjectNode spec = l.putObject("spec");
        spec.put("holderIdentity", node);
        spec.put("leaseDurationSeconds", DURATION_SECONDS);
        return renewed(l, node, nodeUid, now);
    }

    /**
     * {@code lease} renewed at {@code now}, with the owner reference added if it has none and the
     * uid is known.
     */
    public static ObjectNode renewed(
            JsonNode lease, String node, Optional<String> nodeUid, Instant now) {
        ObjectNode l = (ObjectNode) lease.deepCopy();
        ((ObjectNode) l.path("spec")).put("renewTime", NodeTimes.microTime(now));
        ObjectNode meta = (ObjectNode) l.path("metadata");
        if (!hasOwner(l) && nodeUid.isPresent()) {
            meta.putArray("ownerReferences")
                    .addObject()
                    .put("apiVersion", "v1")
                    .put("kind", "Node")
                    .put("name", node)
                    .put("uid", nodeUid.get());
        }
        return l;
    }

    /** Whether the lease has any owner reference (the kubelet sets one only when there is none). */
    public static boolean hasOwner(JsonNode lease) {
        return lease.path("metadata").path("ownerReferences").size() > 0;
    }
}
