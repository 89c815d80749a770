package io.kubepekko.api.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a watcher that accepts bookmarks gets the next one, as kube-apiserver's watch cache decides:
 * every {@code interval} while it is quiet, and once about {@link #BEFORE_DEADLINE} before its
 * deadline, so a client whose watch times out (client-go's and client-java's reflectors always set
 * {@code timeoutSeconds}) resumes from a fresh resourceVersion instead of one that may have left
 * the window meanwhile.
 *
 * @param interval how long a quiet watcher waits between bookmarks
 * @param deadline when the watch ends, if it has a deadline
 */
public record BookmarkSchedule(Duration interval, Optional<Instant> deadline) {

    /** How long before the deadline the last bookmark goes out (kube's cacher: 2 s). */
    public static final Duration BEFORE_DEADLINE = Duration.ofSeconds(2);

    /**
     * A watch that ends {@code timeout} after {@code start}; none when the timeout is null or not
     * positive.
     */
    public static BookmarkSchedule of(Duration interval, Instant start, Duration timeout) {
        return new BookmarkSchedule(
                interval,
                timeout == null || timeout.isZero() || timeout.isNegative()
                        ? Optional.empty()
                        : Optional.of(start.plus(timeout)));
    }

    /**
     * Whether a bookmark is due at {@code now} for a watcher that last got something at {@code
     * lastSent}. The pre-deadline bookmark is due once: after it (or any event sent after its time)
     * the next one would come after the deadline. A watch shorter than {@link #BEFORE_DEADLINE}
     * gets none, as in kube.
     */
    public boolean due(Instant lastSent, Instant now) {
        if (!now.isBefore(lastSent.plus(interval))) {
            return true;
        }
        if (deadline.isEmpty()) {
            return false;
        }
        Instant beforeDeadline = deadline.get().minus(BEFORE_DEADLINE);
        return lastSent.isBefore(beforeDeadline) && !now.isBefore(beforeDeadline);
    }
}
