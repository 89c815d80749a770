package io.kubepekko.agent.pod;

import io.kubepekko.api.meta.GoDurations;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The kubelet's container restart back-off (client-go {@code flowcontrol.Backoff} as
 * pkg/kubelet/kubelet.go sets it up and kuberuntime's {@code doBackOff} uses it), as an immutable
 * value: time is passed in.
 *
 * <p>A container's first crash restarts it at once and records a 10 s back-off; each later restart
 * first waits until the back-off has passed since the container finished, then doubles it, up to
 * 300 s. The entry starts over when the container ran more than 10 minutes (its finish is over 600
 * s after the last restart) — the kubelet's fixed rule, not client-go's 2 × max default. Entries
 * untouched for over 600 s are collected by {@link #gc}.
 */
public record CrashLoopBackOff(
        Duration initial, Duration max, Duration stable, Map<Key, Entry> entries) {

    /** The kubelet's constants: 10 s doubling to 300 s, reset after 600 s of running. */
    public static final CrashLoopBackOff KUBELET =
            new CrashLoopBackOff(
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(300),
                    Duration.ofSeconds(600),
                    Map.of());

    public CrashLoopBackOff {
        entries = Map.copyOf(entries);
    }

    /**
     * One container of one pod, as the kubelet's {@code getStableKey}: a new image or new resources
     * start a fresh back-off, other spec changes do not.
     */
    public record Key(
            String podName,
            String podNamespace,
            String podUid,
            String container,
            String image,
            String resources) {

        public static Key of(
                String podName, String podNamespace, String podUid, ContainerSpec container) {
            return new Key(
                    podName,
                    podNamespace,
                    podUid,
                    container.name(),
                    container.image(),
                    container.resources());
        }
    }

    /**
     * The current back-off of a key and when it was last advanced (when the container was last
     * restarted).
     */
    public record Entry(Duration backOff, Instant lastUpdate) {}

    /**
     * Whether a back-off that was last advanced at {@code lastUpdate} starts over for an event at
     * {@code eventTime}.
     */
    private boolean expired(Instant eventTime, Instant lastUpdate) {
        return Duration.between(lastUpdate, eventTime).compareTo(stable) > 0;
    }

    /**
     * {@code IsInBackOffSince}: whether a container that finished at {@code finishedAt} must still
     * wait at {@code now} before it is started again.
     */
    public boolean inBackOff(Key key, Instant finishedAt, Instant now) {
        Entry e = entries.get(key);
        if (e == null || expired(finishedAt, e.lastUpdate())) {
            return false;
        }
        return Duration.between(finishedAt, now).compareTo(e.backOff()) < 0;
    }

    /**
     * When a container that finished at {@code finishedAt} may start again (now, if not in
     * back-off).
     */
    public Instant restartAt(Key key, Instant finishedAt, Instant now) {
        return inBackOff(key, finishedAt, now) ? finishedAt.plus(entries.get(key).backOff()) : now;
    }

    /**
     * {@code Next}: the container is being restarted at {@code now} after finishing at {@code
     * finishedAt}.
     */
    public CrashLoopBackOff next(Key key, Instant finishedAt, Instant now) {
        Entry e = entries.get(key);
        Duration backOff =
                e == null || expired(finishedAt, e.lastUpdate())
                        ? initial
                        : min(e.backOff().multipliedBy(2), max);
        Map<Key, Entry> updated = new HashMap<>(entries);
        updated.put(key, new Entry(backOff, now));
        return new CrashLoopBackOff(initial, max, stable, updated);
    }

    /** The current back-off of a key (zero when none), for the waiting message. */
    public Duration get(Key key) {
        return Optional.ofNullable(entries.get(key)).map(Entry::backOff).orElse(Duration.ZERO);
    }

    /**
     * Drops entries not advanced for longer than the reset period (the kubelet runs this
     * periodically).
     */
    public CrashLoopBackOff gc(Instant now) {
        Map<Key, Entry> kept = new HashMap<>();
        entries.forEach(
                (k, e) -> {
                    if (!expired(now, e.lastUpdate())) {
                        kept.put(k, e);
                    }
                });
        return new CrashLoopBackOff(initial, max, stable, kept);
    }

    /** Forgets one pod's containers (the pod is gone). */
    public CrashLoopBackOff forget(String podUid) {
        Map<Key, Entry> kept = new HashMap<>(entries);
        kept.keySet().removeIf(k -> k.podUid().equals(podUid));
        return new CrashLoopBackOff(initial, max, stable, kept);
    }

    /**
     * The container's {@code waiting.message} while it backs off, as the kubelet words it: {@code
     * back-off 20s restarting failed container=app pod=web_default(uid)}.
     */
    public String message(Key key) {
        return "back-off "
                + GoDurations.format(get(key).toNanos())
                + " restarting failed container="
                + key.container()
                + " pod="
                + key.podName()
                + "_"
                + key.podNamespace()
                + "("
                + key.podUid()
                + ")";
    }

    /** The kubelet's {@code waiting.reason} while a container backs off. */
    public static final String REASON = "CrashLoopBackOff";

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
