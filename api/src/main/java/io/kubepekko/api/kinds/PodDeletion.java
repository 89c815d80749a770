package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;

/**
 * Pods delete gracefully: a pod bound to a node stays, with a deletion timestamp in the future,
 * until its node agent has stopped it and confirms with a grace-0 delete (Kubernetes' pod {@code
 * CheckGracefulDelete}).
 */
final class PodDeletion implements DeletionRules {

    @Override
    public boolean graceful() {
        return true;
    }

    /**
     * The client's period, else the pod's {@code terminationGracePeriodSeconds}, else 0; 0 for a
     * pod no node runs (unbound, or already finished); a negative period counts as 1 second.
     */
    @Override
    public long gracePeriodSeconds(ObjectNode pod, Long requested) {
        JsonNode spec = pod.path("spec");
        long period =
                requested != null
                        ? requested
                        : spec.hasNonNull("terminationGracePeriodSeconds")
                                ? spec.get("terminationGracePeriodSeconds").asLong()
                                : 0;
        String phase = Nodes.text(pod.path("status"), "phase");
        if (Nodes.text(spec, "nodeName").isEmpty()
                || phase.equals("Failed")
                || phase.equals("Succeeded")) {
            period = 0;
        }
        return period < 0 ? 1 : period;
    }
}
