package io.kubepekko.api.kinds;

import io.kubepekko.api.alloc.ClusterIpPool;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.NodePortPool;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.alloc.ValuePool;
import java.util.Map;

/**
 * The cluster-wide pools Services take values from, named as the Service kind's plans name them,
 * built from {@code --service-cluster-ip-range} and {@code --service-node-port-range}.
 */
public final class ServiceNetwork {
    private ServiceNetwork() {}

    /** The allocator Services claim from. */
    public static final String ALLOCATOR = "services";

    public static final String CLUSTER_IPS = "service-cluster-ip";
    public static final String NODE_PORTS = "service-node-port";

    /**
     * kube-apiserver's default {@code --service-cluster-ip-range} ({@code
     * kubeoptions.DefaultServiceIPCIDR}).
     */
    public static final Ipv4Cidr DEFAULT_CLUSTER_IP_RANGE = Ipv4Cidr.parse("10.0.0.0/24");

    /** The pools for the given ranges, by name. */
    public static Map<String, ValuePool> pools(Ipv4Cidr clusterIpRange, PortRange nodePortRange) {
        return Map.of(
                CLUSTER_IPS,
                new ClusterIpPool(CLUSTER_IPS, clusterIpRange),
                NODE_PORTS,
                new NodePortPool(NODE_PORTS, nodePortRange));
    }

    /** The pools kube-apiserver has without flags. */
    public static Map<String, ValuePool> defaultPools() {
        return pools(DEFAULT_CLUSTER_IP_RANGE, PortRange.DEFAULT_NODE_PORTS);
    }
}
