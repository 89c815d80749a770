package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A controller's work queue, after client-go's rate-limited workqueue, for use inside one actor: a
 * key is queued at most once, is worked on by at most one worker at a time (a key added while
 * worked on is queued again when that work ends), at most {@code workers} keys are worked on at
 * once, and a key whose work failed comes back after a back-off that doubles with its consecutive
 * failures. Not thread-safe: the owning actor calls it.
 */
final class WorkQueue {

    private final int workers;
    private final Backoff retry;
    private final BiConsumer<String, Duration> schedule;
    private final LinkedHashSet<String> queued = new LinkedHashSet<>();
    private final Set<String> working = new HashSet<>();
    private final Set<String> dirty = new HashSet<>();
    private final Map<String, Integer> failures = new HashMap<>();

    /**
     * @param schedule adds a key again after a delay (the actor's timer, which calls {@link #add})
     */
    WorkQueue(int workers, Backoff retry, BiConsumer<String, Duration> schedule) {
        this.workers = workers;
        this.retry = retry;
        this.schedule = schedule;
    }

    void add(String key) {
        if (working.contains(key)) {
            dirty.add(key);
        } else {
            queued.add(key);
        }
    }

    /** The next key to work on, or {@code null} when none is queued or every worker is busy. */
    String next() {
        if (working.size() >= workers || queued.isEmpty()) {
            return null;
        }
        Iterator<String> it = queued.iterator();
        String key = it.next();
        it.remove();
        working.add(key);
        return key;
    }

    /** The work on {@code key} succeeded. */
    void done(String key) {
        failures.remove(key);
        finish(key);
    }

    /** The work on {@code key} failed: it comes back after its back-off. */
    void failed(String key) {
        int n = failures.merge(key, 1, Integer::sum);
        dirty.remove(key);
        working.remove(key);
        schedule.accept(key, retry.after(n - 1));
    }

    /** Stops retrying {@code key} (the object is gone). */
    void forget(String key) {
        failures.remove(key);
        queued.remove(key);
    }

    private void finish(String key) {
        working.remove(key);
        if (dirty.remove(key)) {
            queued.add(key);
        }
    }

    int queuedCount() {
        return queued.size();
    }
}
