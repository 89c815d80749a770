package io.kubepekko.api.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ordering rule of a group-resource's change stream: allocated resourceVersions are released to
 * readers strictly in version order, and a version goes out only once every lower allocated version
 * is resolved — committed (its events are released) or abandoned (nothing is released for it). This
 * is what lets a reader that lists at version R and then follows the stream from R miss nothing.
 *
 * <p>Mutable and not thread-safe: it belongs to the one actor that hands out the versions.
 *
 * @param <E> the published event type
 */
public final class PublicationOrder<E> {

    /** One allocation: versions {@code first..last}, unresolved until committed or abandoned. */
    public record Range(long first, long last, Instant allocatedAt) {}

    private static final class Pending<E> {
        final Range range;
        boolean resolved;
        List<E> events = List.of();

        Pending(Range range) {
            this.range = range;
        }
    }

    private final TreeMap<Long, Pending<E>> pending = new TreeMap<>();
    private long publishedUpTo;
    private long allocatedUpTo;

    /** Starts after {@code publishedUpTo}: every version up to it counts as released. */
    public PublicationOrder(long publishedUpTo) {
        this.publishedUpTo = publishedUpTo;
        this.allocatedUpTo = publishedUpTo;
    }

    /** Records an allocation; versions must be handed out in increasing order. */
    public void allocated(long first, long last, Instant at) {
        if (first <= allocatedUpTo || last < first) {
            throw new IllegalStateException(
                    "allocation " + first + ".." + last + " not above " + allocatedUpTo);
        }
        allocatedUpTo = last;
        pending.put(first, new Pending<>(new Range(first, last, at)));
    }

    /**
     * The allocation {@code first..} was persisted with {@code events}; returns what may be
     * published now, in order.
     */
    public List<E> committed(long first, List<E> events) {
        return resolve(first, events);
    }

    /**
     * The allocation {@code first..} will never be persisted; returns what may be published now, in
     * order.
     */
    public List<E> abandoned(long first) {
        return resolve(first, List.of());
    }

    private List<E> resolve(long first, List<E> events) {
        Pending<E> p = pending.get(first);
        if (p == null || p.resolved) {
            return List.of(); // unknown or already resolved (a duplicate report): nothing changes
        }
        p.resolved = true;
        p.events = List.copyOf(events);
        List<E> out = new ArrayList<>();
        while (!pending.isEmpty() && pending.firstEntry().getValue().resolved) {
            Pending<E> head = pending.pollFirstEntry().getValue();
            out.addAll(head.events);
            publishedUpTo = head.range.last();
        }
        if (pending.isEmpty()) {
            publishedUpTo = allocatedUpTo;
        }
        return out;
    }

    /** Every version up to this one is resolved and its events released. */
    public long publishedUpTo() {
        return publishedUpTo;
    }

    /** Unresolved allocations older than {@code deadline}, oldest first. */
    public List<Range> overdue(Instant now, Duration deadline) {
        List<Range> out = new ArrayList<>();
        for (Map.Entry<Long, Pending<E>> e : pending.entrySet()) {
            Pending<E> p = e.getValue();
            if (!p.resolved && p.range.allocatedAt().plus(deadline).isBefore(now)) {
                out.add(p.range);
            }
        }
        return out;
    }

    /** How many allocations wait to be resolved or released. */
    public int pendingCount() {
        return pending.size();
    }
}
