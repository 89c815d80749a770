package io.kubepekko.api.auth.node;

/**
 * The kinds of object the node graph relates to nodes (kube's vertex types). Every relation points
 * toward a node: a pod is bound to one; a secret, config map, claim or service account is used by
 * pods; a persistent volume is bound to a claim; a volume attachment or resource slice names its
 * node.
 */
public enum GraphObject {
    POD,
    SECRET,
    CONFIG_MAP,
    PERSISTENT_VOLUME_CLAIM,
    PERSISTENT_VOLUME,
    SERVICE_ACCOUNT,
    RESOURCE_CLAIM,
    VOLUME_ATTACHMENT,
    RESOURCE_SLICE
}
