package io.kubepekko.api.table;

/**
 * The column descriptions of the core printers that quote core/v1 field documentation, as
 * Kubernetes' generated {@code SwaggerDoc()} gives it (double spaces inside are the source's own).
 */
final class CoreDescriptions {
    private CoreDescriptions() {}

    // --- Pod
    // ---------------------------------------------------------------------------------------

    static final String POD_IP =
            "podIP address allocated to the pod. Routable at least within the cluster. "
                    + "Empty if not yet allocated.";

    static final String POD_NODE_NAME =
            "NodeName indicates in which node this pod is scheduled. If empty, this "
                    + "pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, "
                    + "the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be "
                    + "used to express a desire for the pod to be scheduled on a specific node. "
                    + "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename";

    static final String POD_NOMINATED_NODE_NAME =
            "nominatedNodeName is set only when this pod preempts other pods "
                    + "on the node, but it cannot be scheduled right away as preemption victims receive their graceful "
                    + "termination periods. This field does not guarantee that the pod will be scheduled on this node. "
                    + "Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may "
                    + "also decide to give the resources on this node to a higher priority pod that is created after "
                    + "preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.";

    static final String POD_READINESS_GATES =
            "If specified, all readiness gates will be evaluated for pod "
                    + "readiness. A pod is ready when all its containers are ready AND all conditions specified in the "
                    + "readiness gates have status equal to \"True\" More info: "
                    + "https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates";

    // --- Service
    // -----------------------------------------------------------------------------------

    static final String SERVICE_TYPE =
            "type determines how the Service is exposed. Defaults to ClusterIP. Valid "
                    + "options are ExternalName, ClusterIP, NodePort, and LoadBalancer. \"ClusterIP\" allocates a "
                    + "cluster-internal IP address for load-balancing to endpoints. Endpoints are determined by the selector "
                    + "or if that is not specified, by manual construction of an Endpoints object or EndpointSlice objects. "
                    + "If clusterIP is \"None\", no virtual IP is allocated and the endpoints are published as a set of "
                    + "endpoints rather than a virtual IP. \"NodePort\" builds on ClusterIP and allocates a port on every "
                    + "node which routes to the same endpoints as the clusterIP. \"LoadBalancer\" builds on NodePort and "
                    + "creates an external load-balancer (if supported in the current cloud) which routes to the same "
                    + "endpoints as the clusterIP. \"ExternalName\" aliases this service to the specified externalName. "
                    + "Several other fields do not apply to ExternalName services. More info: "
                    + "https://kubernetes.io/docs/concepts/services-networking/service/#publishing-services-service-types";

    static final String SERVICE_CLUSTER_IP =
            "clusterIP is the IP address of the service and is usually assigned "
                    + "randomly. If an address is specified manually, is in-range (as per system configuration), and is not "
                    + "in use, it will be allocated to the service; otherwise creation of the service will fail. This field "
                    + "may not be changed through updates unless the type field is also being changed to ExternalName "
                    + "(which requires this field to be blank) or the type field is being changed from ExternalName (in "
                    + "which case this field may optionally be specified, as describe above).  Valid values are \"None\", "
                    + "empty string (\"\"), or a valid IP address. Setting this to \"None\" makes a \"headless service\" "
                    + "(no virtual IP), which is useful when direct endpoint connections are preferred and proxying is not "
                    + "required.  Only applies to types ClusterIP, NodePort, and LoadBalancer. If this field is specified "
                    + "when creating a Service of type ExternalName, creation will fail. This field will be wiped when "
                    + "updating a Service to type ExternalName. More info: "
                    + "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies";

    static final String SERVICE_EXTERNAL_IPS =
            "externalIPs is a list of IP addresses for which nodes in the "
                    + "cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.  The "
                    + "user is responsible for ensuring that traffic arrives at a node with this IP.  A common example is "
                    + "external load-balancers that are not part of the Kubernetes system.";

    static final String SERVICE_PORTS =
            "The list of ports that are exposed by this service. More info: "
                    + "https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies";

    static final String SERVICE_SELECTOR =
            "Route service traffic to pods with label keys and values matching this "
                    + "selector. If empty or not present, the service is assumed to have an external process managing its "
                    + "endpoints, which Kubernetes will not modify. Only applies to types ClusterIP, NodePort, and "
                    + "LoadBalancer. Ignored if type is ExternalName. More info: "
                    + "https://kubernetes.io/docs/concepts/services-networking/service/";

    // --- Endpoints
    // ---------------------------------------------------------------------------------

    static final String ENDPOINTS_SUBSETS =
            "The set of all endpoints is the union of all subsets. Addresses are "
                    + "placed into subsets according to the IPs they share. A single address with multiple ports, some of "
                    + "which are ready and some of which are not (because they come from different containers) will result "
                    + "in the address being displayed in different subsets for the different ports. No address will appear "
                    + "in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that "
                    + "comprise a service.";

    // --- Node
    // --------------------------------------------------------------------------------------

    static final String NODE_KUBELET_VERSION = "Kubelet Version reported by the node.";

    static final String NODE_ADDRESSES =
            "List of addresses reachable to the node. Queried from cloud provider, if "
                    + "available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This "
                    + "field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data "
                    + "corruption when it is merged. Callers should instead use a full-replacement patch. See "
                    + "https://pr.k8s.io/79391 for an example. Consumers should assume that addresses can change during the "
                    + "lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods "
                    + "that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

    static final String NODE_OS_IMAGE =
            "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux "
                    + "7 (wheezy)).";

    static final String NODE_KERNEL_VERSION =
            "Kernel Version reported by the node from 'uname -r' (e.g. " + "3.16.0-0.bpo.4-amd64).";

    static final String NODE_CONTAINER_RUNTIME_VERSION =
            "ContainerRuntime Version reported by the node through "
                    + "runtime remote API (e.g. containerd://1.4.2).";

    // --- Event
    // -------------------------------------------------------------------------------------

    static final String EVENT_LAST_TIMESTAMP =
            "The time at which the most recent occurrence of this event was " + "recorded.";

    static final String EVENT_TYPE =
            "Type of this event (Normal, Warning), new types could be added in the future";

    static final String EVENT_REASON =
            "This should be a short, machine understandable string that gives the "
                    + "reason for the transition into the object's current status.";

    static final String EVENT_INVOLVED_OBJECT = "The object that this event is about.";

    static final String EVENT_FIELD_PATH =
            "If referring to a piece of an object instead of an entire object, this "
                    + "string should contain a valid JSON/Go field access statement, such as "
                    + "desiredState.manifest.containers[2]. For example, if the object reference is to a container within "
                    + "a pod, this would take on a value like: \"spec.containers{name}\" (where \"name\" refers to the name "
                    + "of the container that triggered the event) or if no container name is specified "
                    + "\"spec.containers[2]\" (container with index 2 in this pod). This syntax is chosen only to have some "
                    + "well-defined way of referencing a part of an object.";

    static final String EVENT_SOURCE =
            "The component reporting this event. Should be a short machine "
                    + "understandable string.";

    static final String EVENT_MESSAGE =
            "A human-readable description of the status of this operation.";

    static final String EVENT_FIRST_TIMESTAMP =
            "The time at which the event was first recorded. (Time of server "
                    + "receipt is in TypeMeta.)";

    static final String EVENT_COUNT = "The number of times this event has occurred.";
}
