package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The status a new Service and a new Ingress start with: both carry a {@code LoadBalancerStatus}
 * (core's and networking's, same shape), which Kubernetes serializes empty as {@code
 * {"loadBalancer":{}}}.
 */
final class LoadBalancerStatus {
    private LoadBalancerStatus() {}

    static ObjectNode initial() {
        ObjectNode status = Nodes.F.objectNode();
        status.putObject("loadBalancer");
        return status;
    }
}
