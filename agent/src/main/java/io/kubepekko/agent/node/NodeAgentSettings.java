package io.kubepekko.agent.node;

import com.typesafe.config.Config;
import io.kubepekko.agent.flags.AgentSettings;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the node actors run with: the agent's flags that concern the Node, and the kubelet's fixed
 * intervals as settings so tests can shorten them.
 *
 * @param identity the Node to register
 * @param register {@code --register-node}
 * @param nodeIps {@code --node-ip}
 * @param maxPods {@code --max-pods}
 * @param kubeletPort the agent's own port, for {@code daemonEndpoints}
 * @param agentVersion {@code nodeInfo.kubeletVersion}
 * @param statusUpdateFrequency {@code --node-status-update-frequency}: how often the status is
 *     computed
 * @param statusReportFrequency the kubelet's {@code nodeStatusReportFrequency}: an unchanged status
 *     is still posted this often
 * @param leaseRenewInterval how often the Lease is renewed
 * @param runtimeDownAfter how long without a runtime answer makes the node not ready
 * @param rootDir {@code --root-dir}: its file system is the node's ephemeral storage
 */
public record NodeAgentSettings(
        NodeIdentity identity,
        boolean register,
        List<InetAddress> nodeIps,
        int maxPods,
        int kubeletPort,
        String agentVersion,
        Duration statusUpdateFrequency,
        Duration statusReportFrequency,
        Duration leaseRenewInterval,
        Duration runtimeDownAfter,
        Path rootDir) {

    /** The kubelet's default port, reported in {@code daemonEndpoints.kubeletEndpoint}. */
    public static final int KUBELET_PORT = 10250;

    /** The kubelet's {@code nodeStatusReportFrequency} default. */
    public static final Duration REPORT_FREQUENCY = Duration.ofMinutes(5);

    /**
     * The setting (a system property of the agent's JVM) that shortens {@link #runtimeDownAfter}
     * for end-to-end tests, which would otherwise wait out the kubelet's 30 s to see a stopped
     * runtime make the node not ready. The kubelet has no flag for it; unset, it is the kubelet's.
     */
    public static final String RUNTIME_DOWN_AFTER = "kubepekko.agent.runtime-down-after";

    public NodeAgentSettings {
        nodeIps = List.copyOf(nodeIps);
    }

    public static NodeAgentSettings of(AgentSettings s, String hostname, String agentVersion) {
        return new NodeAgentSettings(
                NodeIdentity.of(s, hostname),
                s.registerNode(),
                s.nodeIps(),
                s.maxPods(),
                s.port(),
                agentVersion,
                s.nodeStatusUpdateFrequency(),
                REPORT_FREQUENCY,
                NodeLease.RENEW_INTERVAL,
                RuntimeHealth.KUBELET_THRESHOLD,
                s.rootDir());
    }

    /**
     * The same with {@link #runtimeDownAfter} from {@code config}'s {@value #RUNTIME_DOWN_AFTER},
     * when set.
     */
    public NodeAgentSettings withRuntimeDownAfter(Config config) {
        if (!config.hasPath(RUNTIME_DOWN_AFTER)) {
            return this;
        }
        return new NodeAgentSettings(
                identity,
                register,
                nodeIps,
                maxPods,
                kubeletPort,
                agentVersion,
                statusUpdateFrequency,
                statusReportFrequency,
                leaseRenewInterval,
                config.getDuration(RUNTIME_DOWN_AFTER),
                rootDir);
    }

    /** The same with the port the agent's server actually bound ({@code --port 0} picks one). */
    public NodeAgentSettings withKubeletPort(int port) {
        return new NodeAgentSettings(
                identity,
                register,
                nodeIps,
                maxPods,
                port,
                agentVersion,
                statusUpdateFrequency,
                statusReportFrequency,
                leaseRenewInterval,
                runtimeDownAfter,
                rootDir);
    }
}
