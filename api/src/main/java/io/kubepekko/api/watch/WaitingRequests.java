package io.kubepekko.api.watch;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads and watches waiting, each until its deadline, for the cache to reach the version they need;
 * in arrival order, and bounded: a request beyond the limit is refused rather than queued.
 *
 * @param <R> a waiting request
 */
public final class WaitingRequests<R> {

    private record Waiting<R>(R request, Instant deadline) {}

    private final int limit;
    private final List<Waiting<R>> waiting = new ArrayList<>();

    /**
     * @param limit how many requests may wait at once
     */
    public WaitingRequests(int limit) {
        this.limit = limit;
    }

    /**
     * Lets {@code request} wait until {@code deadline}; false (and it does not wait) when too many
     * wait.
     */
    public boolean park(R request, Instant deadline) {
        if (waiting.size() >= limit) {
            return false;
        }
        waiting.add(new Waiting<>(request, deadline));
        return true;
    }

    /**
     * Offers every waiting request, oldest first, to {@code answered}; those it answers stop
     * waiting.
     */
    public void retry(Predicate<R> answered) {
        for (Iterator<Waiting<R>> it = waiting.iterator(); it.hasNext(); ) {
            if (answered.test(it.next().request())) {
                it.remove();
            }
        }
    }

    /** Removes and returns, oldest first, the requests whose deadline is not after {@code now}. */
    public List<R> expire(Instant now) {
        List<R> expired = new ArrayList<>();
        for (Iterator<Waiting<R>> it = waiting.iterator(); it.hasNext(); ) {
            Waiting<R> w = it.next();
            if (!w.deadline().isAfter(now)) {
                it.remove();
                expired.add(w.request());
            }
        }
        return expired;
    }

    public boolean isEmpty() {
        return waiting.isEmpty();
    }

    public int size() {
        return waiting.size();
    }
}
