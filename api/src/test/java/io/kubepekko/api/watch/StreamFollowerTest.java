package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class StreamFollowerTest {

    @Test
    void theFirstBatchHeardAcknowledgesTheSubscription() {
        StreamFollower f = new StreamFollower();
        assertNull(f.epoch());
        assertEquals(StreamFollower.Batch.NEW_EPOCH, f.classify("e1", 0));
        f.acknowledged("e1", 10);
        assertEquals(10, f.startVersion());
        assertEquals(10, f.upTo());
    }

    @Test
    void aBatchFollowsOnWhenItStartsAtOrBelowTheVersionReached() {
        StreamFollower f = new StreamFollower();
        f.acknowledged("e1", 10);
        assertEquals(StreamFollower.Batch.FOLLOWS, f.classify("e1", 10));
        assertEquals(StreamFollower.Batch.FOLLOWS, f.classify("e1", 7), "an overlap is no loss");
        f.followed(15);
        f.followed(12);
        assertEquals(15, f.upTo(), "the version reached never goes back");
        assertEquals(10, f.startVersion());
    }

    @Test
    void aBatchAfterTheVersionReachedIsAGap() {
        StreamFollower f = new StreamFollower();
        f.acknowledged("e1", 10);
        assertEquals(StreamFollower.Batch.GAP, f.classify("e1", 11));
    }

    @Test
    void aBatchOfAnotherEpochOrAfterSubscribingAgainIsANewEpoch() {
        StreamFollower f = new StreamFollower();
        f.acknowledged("e1", 10);
        assertEquals(StreamFollower.Batch.NEW_EPOCH, f.classify("e2", 10));
        f.forget();
        assertNull(f.epoch());
        assertEquals(StreamFollower.Batch.NEW_EPOCH, f.classify("e1", 10));
    }
}
