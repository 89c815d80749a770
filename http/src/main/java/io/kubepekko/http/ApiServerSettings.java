package io.kubepekko.http;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.watch.FeatureGates;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an API server runs, read once from its flags.
 *
 * @param dataDir            where the embedded database and {@code admin.kubeconfig} live
 * @param bindAddress        the address the HTTP listener binds
 * @param port               the plain-HTTP port; 0 picks a free one
 * @param livezGracePeriod   how long after start /livez treats unfinished start-up as passing
 * @param shutdownDelay      how long the server keeps serving, with /readyz failing, after a shutdown starts
 * @param reads              the list/watch flags
 * @param overrides          configuration layered over the server's own (tests tune timers with it)
 * @param services           where Service cluster IPs and node ports come from
 */
public record ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                                Duration shutdownDelay, ReadFlags reads, Config overrides, ServiceRanges services) {

    /**
     * The Service ranges.
     *
     * @param clusterIpRange {@code --service-cluster-ip-range}, kube-apiserver's default 10.0.0.0/24
     * @param nodePortRange  {@code --service-node-port-range}, default 30000-32767
     */
    public record ServiceRanges(Ipv4Cidr clusterIpRange, PortRange nodePortRange) {
        public static final ServiceRanges DEFAULT = new ServiceRanges(ServiceNetwork.DEFAULT_CLUSTER_IP_RANGE,
                PortRange.DEFAULT_NODE_PORTS);
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay, ReadFlags reads, Config overrides) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, ServiceRanges.DEFAULT);
    }

    /**
     * The list/watch flags.
     *
     * @param watchCacheWindow      how long the watch cache keeps events in memory ({@code --watch-cache-window})
     * @param continueTokenTtl      how long a continue token stays valid ({@code --continue-token-ttl})
     * @param watchHistoryRetention how far back a watch may resume, from the journal when older than
     *                              the window ({@code --watch-history-retention})
     * @param featureGates          {@code --feature-gates}
     */
    public record ReadFlags(Duration watchCacheWindow, Duration continueTokenTtl, Duration watchHistoryRetention,
                            FeatureGates featureGates) {
        public static final ReadFlags DEFAULT = new ReadFlags(Duration.ofMinutes(5), Duration.ofMinutes(5),
                Duration.ofMinutes(5), FeatureGates.defaults());
    }

    public ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                             Duration shutdownDelay) {
        this(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, ReadFlags.DEFAULT, ConfigFactory.empty());
    }

    public static ApiServerSettings defaults() {
        return new ApiServerSettings(Path.of("data"), "127.0.0.1", 8080, Duration.ZERO, Duration.ZERO);
    }

    public ApiServerSettings withDataDir(Path dir) {
        return new ApiServerSettings(dir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, services);
    }

    public ApiServerSettings withPort(int p) {
        return new ApiServerSettings(dataDir, bindAddress, p, livezGracePeriod, shutdownDelay, reads, overrides, services);
    }

    public ApiServerSettings withReads(ReadFlags r) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, r, overrides, services);
    }

    /** Layers {@code hocon} over the configuration (later calls win). */
    public ApiServerSettings withConfig(String hocon) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads,
                ConfigFactory.parseString(hocon).withFallback(overrides), services);
    }

    public ApiServerSettings withServices(ServiceRanges s) {
        return new ApiServerSettings(dataDir, bindAddress, port, livezGracePeriod, shutdownDelay, reads, overrides, s);
    }
}
