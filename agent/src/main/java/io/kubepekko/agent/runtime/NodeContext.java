package io.kubepekko.agent.runtime;

import java.nio.file.Path;
import java.util.List;

/**
 * What the node contributes to a pod's runtime configuration.
 *
 * @param nodeName {@code spec.nodeName} of its pods
 * @param rootDir {@code --root-dir}: pod directories live under {@code <rootDir>/pods/<uid>}
 * @param hostIps the node's addresses ({@code status.hostIP(s)}), primary first
 * @param clusterDns cluster DNS servers; empty: {@code ClusterFirst} falls back to the host's DNS,
 *     as the kubelet does without {@code --cluster-dns}
 * @param clusterDomain {@code --cluster-domain} (kube's default is empty)
 * @param hostResolvConf the host's resolver configuration
 * @param memoryCapacity the machine's memory in bytes (Burstable containers' OOM score adjustment)
 * @param allocatableMilliCpu node allocatable cpu, for {@code resourceFieldRef} on unset limits
 * @param allocatableMemory node allocatable memory in bytes
 * @param allocatableEphemeralStorage node allocatable ephemeral storage in bytes
 * @param cgroups the pods' cgroups, dropped once a pod is gone ({@link PodCgroups#ofNode()} on a
 *     node)
 */
public record NodeContext(
        String nodeName,
        Path rootDir,
        List<String> hostIps,
        List<String> clusterDns,
        String clusterDomain,
        ResolvConf hostResolvConf,
        long memoryCapacity,
        long allocatableMilliCpu,
        long allocatableMemory,
        long allocatableEphemeralStorage,
        PodCgroups cgroups) {

    public NodeContext {
        hostIps = List.copyOf(hostIps);
        clusterDns = List.copyOf(clusterDns);
    }

    /**
     * A node whose pods' cgroups are left alone ({@link PodCgroups#NONE}): pods run against a fake
     * runtime.
     */
    public NodeContext(
            String nodeName,
            Path rootDir,
            List<String> hostIps,
            List<String> clusterDns,
            String clusterDomain,
            ResolvConf hostResolvConf,
            long memoryCapacity,
            long allocatableMilliCpu,
            long allocatableMemory,
            long allocatableEphemeralStorage) {
        this(
                nodeName,
                rootDir,
                hostIps,
                clusterDns,
                clusterDomain,
                hostResolvConf,
                memoryCapacity,
                allocatableMilliCpu,
                allocatableMemory,
                allocatableEphemeralStorage,
                PodCgroups.NONE);
    }

    /** The same node with {@code cgroups} as its pods' cgroups. */
    public NodeContext withCgroups(PodCgroups cgroups) {
        return new NodeContext(
                nodeName,
                rootDir,
                hostIps,
                clusterDns,
                clusterDomain,
                hostResolvConf,
                memoryCapacity,
                allocatableMilliCpu,
                allocatableMemory,
                allocatableEphemeralStorage,
                cgroups);
    }

    /**
     * Where pod log directories ({@code <ns>_<name>_<uid>}) live. The kubelet's default is {@code
     * /var/log/pods}, independent of its root dir; the agent keeps everything it writes under
     * {@code --root-dir}, so its logs live in {@code <root-dir>/pod-logs}.
     */
    public Path podLogsDir() {
        return rootDir.resolve("pod-logs");
    }

    /** {@code <root-dir>/pods/<uid>} (kubelet {@code getPodDir}). */
    public Path podDir(String uid) {
        return rootDir.resolve("pods").resolve(uid);
    }
}
