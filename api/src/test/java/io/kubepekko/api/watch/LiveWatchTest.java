package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LiveWatchTest {

    private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
    private static final BookmarkSchedule EVERY_MINUTE =
            BookmarkSchedule.of(Duration.ofMinutes(1), START, null);

    private static CachedEvent added(String namespace, long version) {
        return new CachedEvent(
                WatchEvent.Type.ADDED,
                version,
                new CachedObject(
                        new ObjectKey(namespace, "p"), version, new byte[0], Map.of(), Map.of()),
                null);
    }

    @Test
    void liveChangesUpToLiveAfterAreNotForTheWatcher() {
        LiveWatch watch =
                new LiveWatch(
                        new WatchFilter(null, Selection.everything()), false, EVERY_MINUTE, 5, 3);
        assertTrue(
                watch.deliver(added("a", 5)).isEmpty(),
                "it got this one as an initial or replayed event");
        assertTrue(watch.deliver(added("a", 6)).isPresent());
    }

    @Test
    void aLiveChangeOutsideTheFilterIsNotForTheWatcher() {
        LiveWatch watch =
                new LiveWatch(
                        new WatchFilter("a", Selection.everything()), false, EVERY_MINUTE, 0, 0);
        assertTrue(watch.deliver(added("b", 6)).isEmpty());
        assertTrue(watch.deliver(added("a", 7)).isPresent());
    }

    @Test
    void aBookmarkIsDueOnlyAboveTheStartVersionForAWatcherThatAcceptsThem() {
        Instant later = START.plusSeconds(60);
        LiveWatch watch = new LiveWatch(null, true, EVERY_MINUTE, 5, 5);
        assertFalse(
                watch.bookmarkDue(5, START, later), "not at the version the watch started from");
        assertTrue(watch.bookmarkDue(6, START, later));
        assertFalse(
                watch.bookmarkDue(6, START, START.plusSeconds(59)), "not before the schedule says");
        assertFalse(
                new LiveWatch(null, false, EVERY_MINUTE, 5, 5).bookmarkDue(6, START, later),
                "not to a watcher that does not accept bookmarks");
    }
}
