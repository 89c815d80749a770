package io.kubepekko.agent.flags;

import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the agent runs with, read once from its flags into typed values.
 *
 * @param kubeconfig the connection file; absent: standalone mode (static pods only)
 * @param hostnameOverride the node's name instead of the host name (trimmed, lower-cased as the
 *     kubelet does)
 * @param providerId the Node's {@code spec.providerID}
 * @param nodeIps the node's addresses (one, or a dual-stack pair); empty: found from the host
 * @param nodeLabels labels added when registering the Node
 * @param registerNode whether to register the Node with the API server
 * @param registerSchedulable whether the Node registers schedulable ({@code spec.unschedulable}
 *     false)
 * @param nodeStatusUpdateFrequency how often the Node's status is computed and posted when changed
 * @param maxPods pods allowed on the node (also its {@code pods} capacity)
 * @param podManifestPath a directory of static pod manifests, or one file
 * @param fileCheckFrequency how often the manifest path is re-read
 * @param manifestUrl a URL serving static pod manifests
 * @param manifestUrlHeaders request headers for {@code manifestUrl}, each name with its values in
 *     order
 * @param httpCheckFrequency how often the manifest URL is re-read
 * @param containerRuntimeEndpoint the CRI runtime's socket, a {@code unix://} URI
 * @param rootDir the agent's own state (pod directories, logs, checkpoints)
 * @param containerLogMaxSizeBytes a container log file is rotated at this size; 0 or less turns
 *     rotation off, as in the kubelet
 * @param containerLogMaxFiles log files kept per container (at least 2)
 * @param address the address the agent's own server listens on
 * @param port the agent's own server's port; 0 picks a free one
 */
public record AgentSettings(
        Optional<Path> kubeconfig,
        Optional<String> hostnameOverride,
        Optional<String> providerId,
        List<InetAddress> nodeIps,
        Map<String, String> nodeLabels,
        boolean registerNode,
        boolean registerSchedulable,
        Duration nodeStatusUpdateFrequency,
        int maxPods,
        Optional<Path> podManifestPath,
        Duration fileCheckFrequency,
        Optional<URI> manifestUrl,
        Map<String, List<String>> manifestUrlHeaders,
        Duration httpCheckFrequency,
        URI containerRuntimeEndpoint,
        Path rootDir,
        long containerLogMaxSizeBytes,
        int containerLogMaxFiles,
        InetAddress address,
        int port) {

    public AgentSettings {
        nodeIps = List.copyOf(nodeIps);
        nodeLabels = Map.copyOf(nodeLabels);
        manifestUrlHeaders = copyOfMultimap(manifestUrlHeaders);
    }

    /**
     * Whether the agent talks to an API server (a kubeconfig was given) or runs static pods alone.
     */
    public boolean standalone() {
        return kubeconfig.isEmpty();
    }

    private static Map<String, List<String>> copyOfMultimap(Map<String, List<String>> m) {
        // Keeps the order the headers were given in (a LinkedHashMap) while making it unmodifiable.
        var copy = new LinkedHashMap<String, List<String>>();
        m.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return Collections.unmodifiableMap(copy);
    }
}
