package io.kubepekko.http.server;

import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.kinds.ServiceNetwork;

/**
 * The Service ranges.
 *
 * @param clusterIpRange {@code --service-cluster-ip-range}, kube-apiserver's default 10.0.0.0/24
 * @param nodePortRange {@code --service-node-port-range}, default 30000-32767
 */
public record ServiceRanges(Ipv4Cidr clusterIpRange, PortRange nodePortRange) {
    public static final ServiceRanges DEFAULT =
            new ServiceRanges(
                    ServiceNetwork.DEFAULT_CLUSTER_IP_RANGE, PortRange.DEFAULT_NODE_PORTS);
}
