package io.kubepekko.api.watch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a sequencer keeps about the allocations it handed out beside their order ({@link
 * PublicationOrder}): which collection holds each unresolved one, the parts of a commit report that
 * comes in several messages, the allocations it gave up on unanswered, and so whether a reported
 * commit can still be published in order.
 *
 * <p>Mutable and not thread-safe: it belongs to the one actor that hands out the versions.
 *
 * @param <E> the published event type
 */
public final class AllocationLedger<E> {

    /** Who holds an unresolved allocation: its collection's namespace and the request's id. */
    public record Holder(String namespace, long requestId) {}

    private final int maxGivenUp;
    private final Map<Long, Holder> holders = new HashMap<>();
    private final Map<Long, List<E>> parts = new HashMap<>();

    /**
     * Allocations given up unanswered (the oldest dropped beyond {@code maxGivenUp}): a commit of
     * one that arrives after all could not be published in order.
     */
    private final TreeSet<Long> givenUp = new TreeSet<>();

    /**
     * Every version up to this one may have been handed out by an earlier incarnation, whose
     * allocations this one does not know: a commit of such a version arrives unannounced and cannot
     * be published in order.
     */
    private long inheritedUpTo;

    /**
     * @param maxGivenUp how many given-up allocations are remembered
     */
    public AllocationLedger(int maxGivenUp) {
        this.maxGivenUp = maxGivenUp;
    }

    /**
     * Starts a new life whose earlier incarnations may have handed out every version up to {@code
     * inheritedUpTo}: the allocations it knew are gone with it. What was given up is still known.
     */
    public void restart(long inheritedUpTo) {
        holders.clear();
        parts.clear();
        this.inheritedUpTo = inheritedUpTo;
    }

    /** Versions from {@code first} on were handed out to a collection's request. */
    public void allocated(long first, String namespace, long requestId) {
        holders.put(first, new Holder(namespace, requestId));
    }

    /** The holder of the unresolved allocation starting at {@code first}, or null. */
    public Holder holder(long first) {
        return holders.get(first);
    }

    /**
     * A part of the commit report of the allocation starting at {@code first}: null while {@code
     * more} parts are to come, else the whole report's events in order (this part's after the
     * earlier parts').
     */
    public List<E> reported(long first, List<E> events, boolean more) {
        if (more) {
            parts.computeIfAbsent(first, f -> new ArrayList<>()).addAll(events);
            return null;
        }
        List<E> earlier = parts.remove(first);
        if (earlier == null) {
            return events;
        }
        List<E> all = new ArrayList<>(earlier.size() + events.size());
        all.addAll(earlier);
        all.addAll(events);
        return all;
    }

    /**
     * Drops what is kept about an allocation once it is resolved: its holder (returned; null when
     * it was resolved already), and the parts of a commit report whose last part never came (its
     * collection died between parts), which would otherwise stay.
     */
    public Holder forget(long first) {
        parts.remove(first);
        return holders.remove(first);
    }

    /** Gives the allocation starting at {@code first} up unanswered. */
    public void giveUp(long first) {
        forget(first);
        givenUp.add(first);
        if (givenUp.size() > maxGivenUp) {
            givenUp.pollFirst();
        }
    }

    /**
     * Why a commit of the allocation starting at {@code first} cannot be published in order (an
     * earlier incarnation handed it out, or it was given up), or null when it can. A commit that
     * persisted nothing ({@code empty}) always can. Forgets that {@code first} was given up unless
     * an earlier incarnation handed it out.
     */
    public String outOfOrder(long first, boolean empty) {
        if (first <= inheritedUpTo && !empty) {
            return "resourceVersion " + first + " of an earlier incarnation committed late";
        }
        if (givenUp.remove(first) && !empty) {
            return "resourceVersion " + first + " committed after it was given up";
        }
        return null;
    }
}
