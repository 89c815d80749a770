package io.kubepekko.http.server;

import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.http.route.HealthChecks;
import io.kubepekko.persistence.StorageProbe;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The server's {@code /livez} and {@code /readyz} checks, by kube's names, and the state they read
 * that the boot and the shutdown set: the storage probe (run every 2 s off the dispatcher, on a
 * thread of its own), whether the system namespaces exist, whether the server is shutting down.
 */
final class ServerHealth implements AutoCloseable {
    /** The checks that only hold /livez during start-up (its grace period). */
    private static final Set<String> STARTUP =
            Set.of("sharding", "poststarthook/bootstrap-namespaces");

    private final AtomicBoolean bootstrapped = new AtomicBoolean(false);
    private final AtomicBoolean shuttingDown = new AtomicBoolean(false);
    private final AtomicReference<Optional<String>> storage =
            new AtomicReference<>(Optional.of("not probed yet"));
    private final ScheduledExecutorService probes;
    private final Map<String, Supplier<Optional<String>>> live = new LinkedHashMap<>();

    private ServerHealth(StorageProbe probe, Cluster cluster) {
        probes =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "kubepekko-storage-probe");
                            t.setDaemon(true);
                            return t;
                        });
        probes.scheduleWithFixedDelay(() -> storage.set(probe.check()), 0, 2, TimeUnit.SECONDS);
        live.put("ping", Optional::empty);
        live.put(
                "sharding",
                () ->
                        cluster.selfMember().status() == MemberStatus.up()
                                ? Optional.empty()
                                : Optional.of("cluster member is not up"));
        live.put(
                "poststarthook/bootstrap-namespaces",
                () ->
                        bootstrapped.get()
                                ? Optional.empty()
                                : Optional.of("system namespaces not created yet"));
    }

    /** Starts probing {@code probe}; the checks read {@code cluster}'s view of this member. */
    static ServerHealth start(StorageProbe probe, Cluster cluster) {
        return new ServerHealth(probe, cluster);
    }

    /** {@code /livez}: start-up checks pass during {@code gracePeriod}. */
    HealthChecks livez(Duration gracePeriod) {
        return new HealthChecks(live, STARTUP, Clock.systemUTC(), gracePeriod);
    }

    /**
     * {@code /readyz}: the live checks, then storage, cluster, watch caches, the access informers,
     * the storage quota, and whether the server is shutting down.
     */
    HealthChecks readyz(
            Cluster cluster,
            ControlPlane controlPlane,
            Supplier<Optional<String>> informerSync,
            StorageQuota quota) {
        Map<String, Supplier<Optional<String>>> ready = new LinkedHashMap<>(live);
        ready.put("storage", storage::get);
        ready.put("cluster", () -> BootSteps.clusterHealth(cluster));
        ready.put("watch-caches", controlPlane::readiness);
        ready.put("informer-sync", informerSync);
        ready.put("storage-quota", quota::readiness);
        ready.put(
                "shutdown",
                () -> shuttingDown.get() ? Optional.of("shutting down") : Optional.empty());
        return new HealthChecks(ready, Set.of(), Clock.systemUTC(), Duration.ZERO);
    }

    /** The system namespaces exist. */
    void bootstrapped() {
        bootstrapped.set(true);
    }

    /** A shutdown began: /readyz fails from now on. */
    void shuttingDown() {
        shuttingDown.set(true);
    }

    boolean isShuttingDown() {
        return shuttingDown.get();
    }

    /** Stops probing. */
    @Override
    public void close() {
        probes.shutdownNow();
    }
}
