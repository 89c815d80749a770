package io.kubepekko.actors.failover;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A {@link StrandedAsks.Timer} on a clock that moves only when a test advances it. */
final class ManualTimer implements StrandedAsks.Timer {

    private record Task(long dueAt, Runnable run, boolean[] cancelled) {}

    private final AtomicLong now;
    private final List<Task> tasks = new ArrayList<>();

    /**
     * @param now the clock (nanoseconds) the tasks are due on, shared with the code under test
     */
    ManualTimer(AtomicLong now) {
        this.now = now;
    }

    @Override
    public Runnable after(Duration delay, Runnable task) {
        boolean[] cancelled = {false};
        tasks.add(new Task(now.get() + delay.toNanos(), task, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Moves the clock {@code by} on, running the tasks that fall due on the way, in order. */
    void advance(Duration by) {
        long until = now.get() + by.toNanos();
        while (true) {
            Task next =
                    tasks.stream()
                            .filter(t -> t.dueAt() <= until)
                            .min(Comparator.comparingLong(Task::dueAt))
                            .orElse(null);
            if (next == null) {
                break;
            }
            tasks.remove(next);
            now.set(Math.max(now.get(), next.dueAt()));
            if (!next.cancelled()[0]) {
                next.run().run();
            }
        }
        now.set(until);
    }

    /** The tasks scheduled and neither run nor cancelled. */
    long pending() {
        return tasks.stream().filter(t -> !t.cancelled()[0]).count();
    }
}
