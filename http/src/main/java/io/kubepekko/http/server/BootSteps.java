package io.kubepekko.http.server;

import com.typesafe.config.Config;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.fencing.PeerContact;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.actors.watch.WatchCache;
import io.kubepekko.api.watch.FeatureGates;
import io.kubepekko.persistence.StorageSettings;
import io.kubepekko.persistence.fencing.WritePermit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * The steps of {@link ApiServer}'s start that are not wiring: storage and quota settings, the write
 * lease, and waiting for the cluster, the bootstrap and the caches (each with a deadline).
 */
final class BootSteps {
    /** The configuration key of {@link ControlPlane.ReadSettings#reaskAfter()}. */
    static final String READ_REASK_AFTER = "kubepekko.http.read-reask-after";

    private BootSteps() {}

    /** Whether the storage arbitrates the cluster's formation: seed nodes on Cassandra. */
    static boolean storageJoins(ApiServerSettings.Resolved resolved) {
        return !resolved.seedNodes().isEmpty()
                && resolved.storage() instanceof StorageSettings.Cassandra;
    }

    /**
     * Keeps this server's journal writes behind a lease on the cluster's majority, so that a server
     * the others may replace (cut off, or paused) stops writing before its successor starts.
     */
    static void startWriteLease(ActorSystem<Void> system, Config config) {
        Duration lease = config.getDuration("kubepekko.cluster.write-lease.duration");
        Duration heartbeatPause =
                config.getDuration("pekko.cluster.failure-detector.acceptable-heartbeat-pause");
        Duration stableAfter =
                config.getDuration("pekko.cluster.split-brain-resolver.stable-after");
        PeerContact.checkLease(lease, heartbeatPause, stableAfter);
        WritePermit permit = WritePermit.ID.of(Adapter.toClassic(system));
        permit.replacedNoSoonerThan(
                PeerContact.replacementMargin(lease, heartbeatPause, stableAfter));
        system.systemActorOf(
                PeerContact.create(
                        permit,
                        config.getDuration("kubepekko.cluster.write-lease.interval"),
                        lease),
                PeerContact.NAME,
                Props.empty());
    }

    /**
     * The storage quota {@code config} sets ({@code --storage-quota-bytes}), or by default {@code
     * kubepekko.storage.quota-heap-percent} of {@code maxHeap}.
     */
    static StorageQuota storageQuota(Config config, long maxHeap) {
        long bytes = config.getBytes(StorageFlags.QUOTA_BYTES);
        if (bytes > 0) {
            return StorageQuota.of(bytes);
        }
        return StorageQuota.of(
                Math.max(1, maxHeap / 100 * config.getInt("kubepekko.storage.quota-heap-percent")));
    }

    /**
     * Ready while this node is Up and sees every member reachable: with an unreachable member, the
     * shards it hosts answer nothing until the split brain resolver has decided, so this node could
     * not serve every request.
     */
    static Optional<String> clusterHealth(Cluster cluster) {
        MemberStatus status = cluster.selfMember().status();
        if (status != MemberStatus.up()) {
            return Optional.of("this node is " + status + ", not Up");
        }
        List<String> unreachable = new ArrayList<>();
        for (Member m : cluster.state().getUnreachable()) {
            unreachable.add(m.address().toString());
        }
        return unreachable.isEmpty()
                ? Optional.empty()
                : Optional.of("unreachable members: " + String.join(", ", unreachable));
    }

    static String describe(StorageSettings storage) {
        return storage instanceof StorageSettings.Cassandra c
                ? "cassandra " + String.join(",", c.contactPoints()) + " keyspace " + c.keyspace()
                : "embedded";
    }

    static void awaitUp(Cluster cluster, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (cluster.selfMember().status() != MemberStatus.up()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the cluster did not come up within " + timeout);
            }
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    /**
     * Reads and watches are served from the caches: the server announces itself once they are
     * ready.
     */
    static void awaitCaches(ControlPlane controlPlane, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!controlPlane.loadingCaches().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the watch caches did not load within "
                                + timeout
                                + ": "
                                + controlPlane.loadingCaches());
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    static ControlPlane.ReadSettings readSettings(
            ApiServerSettings settings, Config config, Duration askTimeout) {
        ReadFlags reads = settings.reads();
        FeatureGates gates = reads.featureGates();
        WatchCache.Settings cache =
                WatchCache.Settings.fromConfig(
                        config,
                        reads.watchCacheWindow(),
                        reads.continueTokenTtl(),
                        reads.watchHistoryRetention(),
                        // EfficientWatchResumption: GA in kube 1.24, its gate removed in 1.33
                        true);
        return new ControlPlane.ReadSettings(
                askTimeout, config.getDuration(READ_REASK_AFTER), cache, gates);
    }

    static void bootstrapWithRetry(ControlPlane controlPlane, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                controlPlane
                        .bootstrap()
                        .toCompletableFuture()
                        .get(timeout.toSeconds(), TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }
}
