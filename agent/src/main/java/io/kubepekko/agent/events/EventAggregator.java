package io.kubepekko.agent.events;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The kubelet recorder's aggregation, kept simple (client-go's {@code EventCorrelator}
 * deduplication): an event identical to one recorded within {@link #WINDOW} (same object, field
 * path, type, reason and message) is not a new object but a {@code count} + 1 and a new {@code
 * lastTimestamp} of the earlier one. Bounded: the least recently seen keys are forgotten first
 * (client-go keeps 4096).
 */
public final class EventAggregator {

    /** What makes two events the same. */
    public record Key(
            String namespace,
            String uid,
            String fieldPath,
            String type,
            String reason,
            String message) {}

    /** What to send for an event. */
    public sealed interface Decision {
        /** A new Event object of this name. */
        record Create(String name) implements Decision {}

        /** The earlier Event {@code name} now counts {@code count}. */
        record Patch(String name, int count, Instant firstTimestamp) implements Decision {}
    }

    public static final Duration WINDOW = Duration.ofMinutes(10);
    static final int MAX_KEYS = 4096;

    private record Seen(String name, int count, Instant first, Instant last) {}

    private final Map<Key, Seen> seen =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Key, Seen> eldest) {
                    return size() > MAX_KEYS;
                }
            };

    /** Records the event at {@code now}; {@code newName} names a new object when one is needed. */
    public Decision record(Key key, Instant now, Supplier<String> newName) {
        Seen earlier = seen.get(key);
        if (earlier != null && !now.isAfter(earlier.last().plus(WINDOW))) {
            Seen next = new Seen(earlier.name(), earlier.count() + 1, earlier.first(), now);
            seen.put(key, next);
            return new Decision.Patch(next.name(), next.count(), next.first());
        }
        String name = newName.get();
        seen.put(key, new Seen(name, 1, now, now));
        return new Decision.Create(name);
    }

    /**
     * The object behind {@code key} is not there (its create or patch failed): the next one starts
     * afresh.
     */
    public void forget(Key key) {
        seen.remove(key);
    }
}
