package io.kubepekko.actors;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteResult;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage quota ({@code --storage-quota-bytes}): a limit on the JSON bytes of the live stored
 * objects, past which writes that would grow them are refused, as etcd refuses writes past its
 * {@code --quota-backend-bytes} ({@code mvcc: database space exceeded}). Deletes, and writes that
 * shrink what is stored, always go ahead, so a full server can be emptied.
 *
 * <p>What is counted: the objects this node's watch caches hold ({@link
 * io.kubepekko.api.watch.CacheState#bytes}), which every cache reports after each change it
 * applies. Every node's caches hold every object of the cluster, so this is the whole cluster's
 * data on every node (and each node's heap must hold all of it): the limit is on the total, and
 * every node checks the writes its collections execute against what its caches hold. Near the
 * quota, writes in flight reserve what they add until their batch ends (see {@link Admission}); a
 * batch's growth is counted twice for the moment between its commit and the caches applying it, and
 * not at all if the caches lag further (then writes can pass the quota by about what was committed
 * meanwhile). Far below it writes are not measured at all ({@link #MAX_MARGIN}).
 *
 * <p>Like etcd's {@code NOSPACE} alarm, a refusal raises an alarm that fails the {@code
 * storage-quota} check of /readyz; here it clears itself once a write as large as the refused one
 * would fit again (etcd's waits for an operator to compact and disarm it, a step this server has no
 * need for).
 *
 * <p>Thread-safe: caches report from their actors, collections check from theirs, /readyz reads it.
 */
public final class StorageQuota {
    private static final Logger log = LoggerFactory.getLogger(StorageQuota.class);

    /** The flag that sets the quota. */
    public static final String FLAG = "--storage-quota-bytes";

    /**
     * While the stored objects and the measured reservations are further than this below the quota
     * (or an eighth of the quota, when that is less), writes are admitted without serializing their
     * objects to measure them; nearer, every growing write is measured and reserves what it adds.
     * Unmeasured writes still in flight when the count enters the margin are not reserved: the
     * quota can be passed by what of them exceeds the margin (more than 64 MiB of writes in flight
     * at once).
     */
    static final long MAX_MARGIN = 64L * 1024 * 1024;

    private static final StorageQuota UNLIMITED = new StorageQuota(Long.MAX_VALUE);

    private final long limit;

    /** See {@link #MAX_MARGIN}. */
    private final long margin;

    private final ConcurrentHashMap<GroupResource, Long> byResource = new ConcurrentHashMap<>();
    private final AtomicLong used = new AtomicLong();

    /** What the writes admitted near the quota and not yet counted add (see {@link Admission}). */
    private final AtomicLong reserved = new AtomicLong();

    /** The growth of the write whose refusal raised the alarm; 0 while none is raised. */
    private final AtomicLong alarm = new AtomicLong();

    private StorageQuota(long limit) {
        this.limit = limit;
        this.margin = Math.min(MAX_MARGIN, limit / 8);
    }

    /** A quota of {@code limitBytes} (positive). */
    public static StorageQuota of(long limitBytes) {
        if (limitBytes <= 0) {
            throw new IllegalArgumentException("a storage quota must be positive: " + limitBytes);
        }
        return new StorageQuota(limitBytes);
    }

    /** No quota: every write is admitted (tests, and embedders that size the heap themselves). */
    public static StorageQuota unlimited() {
        return UNLIMITED;
    }

    public boolean limited() {
        return limit != Long.MAX_VALUE;
    }

    /** The quota in bytes ({@link Long#MAX_VALUE} when unlimited). */
    public long limit() {
        return limit;
    }

    /** The JSON bytes of the live objects, as this node's caches hold them now. */
    public long used() {
        return used.get();
    }

    /** Records that the cache of {@code groupResource} now holds {@code bytes} of objects. */
    public void record(GroupResource groupResource, long bytes) {
        if (this == UNLIMITED) {
            return; // shared by every unlimited server in a JVM: nothing to count
        }
        Long before = byResource.put(groupResource, bytes);
        used.addAndGet(bytes - (before == null ? 0 : before));
    }

    /**
     * The 507 a write that would take the stored objects to {@code after} bytes gets; raises the
     * alarm.
     */
    private ApiStatus refusal(long after, long growth) {
        if (alarm.getAndSet(growth) == 0) {
            log.warn(
                    "storage quota alarm raised: a write of {} more bytes was refused, the stored objects take {} of"
                            + " {} bytes ({}); /readyz fails its storage-quota check until there is room again",
                    growth,
                    used.get(),
                    limit,
                    FLAG);
        }
        return exceeded(after);
    }

    /**
     * The admission of the writes of one batch; {@link Admission#release() released} when the batch
     * ends.
     */
    public Admission admission() {
        return new Admission();
    }

    /**
     * Reserves {@code bytes} if the stored objects and the other reservations leave room for them.
     */
    private boolean reserve(long bytes) {
        while (true) {
            long held = reserved.get();
            if (used.get() + held + bytes > limit) {
                return false;
            }
            if (reserved.compareAndSet(held, held + bytes)) {
                return true;
            }
        }
    }

    /**
     * The writes admitted into one batch near the quota reserve what they add on the node's quota,
     * from their admission until the batch ends (committed: the caches count it a moment later; or
     * failed), so collections writing near the quota at once are admitted against each other's
     * writes, not only against what the caches have counted.
     */
    public final class Admission {
        private long held;

        private Admission() {}

        /**
         * Admits a write that grows the stored objects by {@code growth} bytes, measured only near
         * the quota.
         *
         * @return empty when admitted, else the 507 refusal that is the write's answer
         */
        public Optional<WriteResult.Refused> admit(LongSupplier growth) {
            if (!limited() || used.get() + reserved.get() + margin <= limit) {
                return Optional.empty();
            }
            long g = growth.getAsLong();
            if (g <= 0) {
                return Optional.empty();
            }
            if (!reserve(g)) {
                return Optional.of(
                        new WriteResult.Refused(refusal(used.get() + reserved.get() + g, g)));
            }
            held += g;
            return Optional.empty();
        }

        /** Ends the batch's reservations. */
        public void release() {
            reserved.addAndGet(-held);
            held = 0;
        }
    }

    private ApiStatus exceeded(long after) {
        return new ApiStatus(
                507,
                null,
                "database space exceeded: the stored objects would take "
                        + after
                        + " bytes, over the storage quota of "
                        + limit
                        + " bytes ("
                        + FLAG
                        + "); delete objects, or give the"
                        + " server a larger heap and quota",
                null);
    }

    /**
     * The {@code storage-quota} check of /readyz: failing while the stored objects are over the
     * quota, or while the alarm a refusal raised is on (until a write as large as the refused one
     * would fit).
     */
    public Optional<String> readiness() {
        long now = used.get();
        long refused = alarm.get();
        if (refused > 0 && now + refused <= limit && alarm.compareAndSet(refused, 0)) {
            log.info(
                    "storage quota alarm cleared: the stored objects take {} of {} bytes",
                    now,
                    limit);
            refused = 0;
        }
        if (now <= limit && refused == 0) {
            return Optional.empty();
        }
        return Optional.of(
                "database space exceeded: the stored objects take "
                        + now
                        + " bytes of the storage quota"
                        + " of "
                        + limit
                        + " bytes ("
                        + FLAG
                        + "); writes that add data are refused until objects are deleted");
    }
}
