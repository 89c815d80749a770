package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which labels of its Node a kubelet may set (kube's NodeRestriction {@code getForbiddenLabels}
 * with {@code k8s.io/kubelet}'s {@code IsKubeletLabel}): none under {@code
 * node-restriction.kubernetes.io/}, and under {@code kubernetes.io} and {@code k8s.io} only the
 * well-known ones kubelets set themselves (host name, zone and region, instance type, OS and
 * architecture, and the {@code kubelet.kubernetes.io} and {@code node.kubernetes.io} namespaces).
 * Labels elsewhere are free: a node must not be able to steer privileged workloads to itself.
 */
final class NodeLabels {

    /** kube's {@code v1.LabelNamespaceNodeRestriction}. */
    static final String NODE_RESTRICTION = "node-restriction.kubernetes.io";

    /** kube's {@code kubeletLabels}. */
    private static final Set<String> KUBELET_LABELS =
            Set.of(
                    "kubernetes.io/hostname",
                    "topology.kubernetes.io/zone",
                    "topology.kubernetes.io/region",
                    "failure-domain.beta.kubernetes.io/zone",
                    "failure-domain.beta.kubernetes.io/region",
                    "beta.kubernetes.io/instance-type",
                    "node.kubernetes.io/instance-type",
                    "kubernetes.io/os",
                    "kubernetes.io/arch",
                    "beta.kubernetes.io/os",
                    "beta.kubernetes.io/arch");

    /** kube's {@code kubeletLabelNamespaces}. */
    private static final Set<String> KUBELET_LABEL_NAMESPACES =
            Set.of("kubelet.kubernetes.io", "node.kubernetes.io");

    private NodeLabels() {}

    /**
     * The keys whose value differs between the two label maps (added, removed or changed), sorted;
     * {@code before} is missing on a create.
     */
    static Set<String> modified(JsonNode after, JsonNode before) {
        Set<String> keys = new TreeSet<>();
        differing(after, before, keys);
        differing(before, after, keys);
        return keys;
    }

    private static void differing(JsonNode a, JsonNode b, Set<String> into) {
        for (Map.Entry<String, JsonNode> e : a.properties()) {
            JsonNode other = b.get(e.getKey());
            if (other == null || !other.asText("").equals(e.getValue().asText(""))) {
                into.add(e.getKey());
            }
        }
    }

    /** Of {@code modified}, those a kubelet may not add, remove or change, sorted. */
    static Set<String> forbidden(Set<String> modified) {
        Set<String> out = new TreeSet<>();
        for (String key : modified) {
            String ns = namespace(key);
            if (ns.equals(NODE_RESTRICTION) || ns.endsWith("." + NODE_RESTRICTION)) {
                out.add(key);
            }
            if (isKubernetesLabel(ns) && !isKubeletLabel(key, ns)) {
                out.add(key);
            }
        }
        return out;
    }

    private static boolean isKubernetesLabel(String ns) {
        return ns.equals("kubernetes.io")
                || ns.endsWith(".kubernetes.io")
                || ns.equals("k8s.io")
                || ns.endsWith(".k8s.io");
    }

    private static boolean isKubeletLabel(String key, String ns) {
        if (KUBELET_LABELS.contains(key)) {
            return true;
        }
        for (String allowed : KUBELET_LABEL_NAMESPACES) {
            if (ns.equals(allowed) || ns.endsWith("." + allowed)) {
                return true;
            }
        }
        return false;
    }

    /** The key's prefix before its first "/", or empty when it has none. */
    private static String namespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }
}
