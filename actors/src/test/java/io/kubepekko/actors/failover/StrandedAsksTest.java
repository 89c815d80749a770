package io.kubepekko.actors.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.status.ApiException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StrandedAsksTest {

    private static final Duration REASK_AFTER = Duration.ofSeconds(2);
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);

    private final AtomicLong now = new AtomicLong(1_000);
    private final ManualTimer timer = new ManualTimer(now);
    private final StrandedAsks asks =
            new StrandedAsks(now::get, timer, new StrandedAsks.ReAsking(REASK_AFTER, ASK_TIMEOUT));

    /** Each ask of a read, in order; none answers until the test completes it. */
    private final List<CompletableFuture<String>> sent = new ArrayList<>();

    private CompletableFuture<String> unanswered() {
        CompletableFuture<String> ask = new CompletableFuture<>();
        sent.add(ask);
        return ask;
    }

    @Test
    void aWriteOpenAtTheRemovalIsAnswered504NamingTheFailedServer() {
        CompletableFuture<String> lost = new CompletableFuture<>();
        CompletableFuture<String> write = asks.write(() -> lost);
        now.addAndGet(5_000);

        assertEquals(1, asks.strandSentBefore(now.get(), "pekko://kubepekko@127.0.0.1:4711"));

        assertTrue(write.isDone(), "a write is answered, not sent again");
        CompletionException e = assertThrows(CompletionException.class, write::join);
        ApiException api = assertInstanceOf(ApiException.class, e.getCause());
        assertEquals(504, api.status().code());
        assertEquals("Timeout", api.status().reason());
        assertTrue(
                api.status().message().contains("pekko://kubepekko@127.0.0.1:4711"),
                api.status().message());
        assertTrue(
                api.status().message().contains("may or may not have been applied"),
                api.status().message());
        assertEquals(0, asks.open());
        lost.complete("late");
        assertThrows(CompletionException.class, write::join, "a late answer changes nothing");
    }

    @Test
    void aReadOpenAtTheRemovalIsAskedOnceMore() {
        CompletableFuture<String> lost = new CompletableFuture<>();
        CompletableFuture<String> again = new CompletableFuture<>();
        AtomicInteger asked = new AtomicInteger();
        CompletableFuture<String> read =
                asks.read(() -> asked.incrementAndGet() == 1 ? lost : again);
        now.addAndGet(5_000);

        asks.strandSentBefore(now.get(), "m");

        assertEquals(2, asked.get());
        assertFalse(read.isDone());
        assertEquals(1, asks.open(), "the new ask is tracked");
        again.complete("found");
        assertEquals("found", read.join());
        assertEquals(0, asks.open());
    }

    @Test
    void asksSentAfterTheRemovalOrAlreadyAnsweredAreLeftAlone() {
        CompletableFuture<String> answered =
                asks.write(() -> CompletableFuture.completedFuture("ok"));
        long removedAt = now.get();
        now.addAndGet(1);
        CompletableFuture<String> later = new CompletableFuture<>();
        CompletableFuture<String> write = asks.write(() -> later);

        assertEquals(0, asks.strandSentBefore(removedAt, "m"));

        assertEquals("ok", answered.join());
        assertFalse(write.isDone());
        later.complete("written");
        assertEquals("written", write.join());
        assertEquals(0, asks.open(), "nothing is kept once answered");
    }

    @Test
    void aFailedAskFailsTheSameWayAndAnAskThatThrowsIsNotKept() {
        CompletableFuture<String> failing = new CompletableFuture<>();
        CompletableFuture<String> write = asks.write(() -> failing);
        failing.completeExceptionally(new IllegalStateException("refused"));
        assertInstanceOf(
                IllegalStateException.class,
                assertThrows(CompletionException.class, write::join).getCause());

        CompletableFuture<String> thrown =
                asks.read(
                        () -> {
                            throw new IllegalArgumentException("no such entity");
                        });
        assertInstanceOf(
                IllegalArgumentException.class,
                assertThrows(CompletionException.class, thrown::join).getCause());
        assertEquals(0, asks.open());
    }

    @Test
    void aReadStillUnansweredAfterTheIntervalIsAskedAgainAndItsAnswerAnswersTheRead() {
        CompletableFuture<String> read = asks.read(this::unanswered);

        timer.advance(REASK_AFTER.minusNanos(1));
        assertEquals(1, sent.size(), "not before the interval");
        timer.advance(Duration.ofNanos(1));
        assertEquals(2, sent.size(), "asked again: the first may have been dropped in a hand-off");
        assertEquals(2, asks.open(), "both asks are tracked");

        sent.get(1).complete("found");
        assertEquals("found", read.join());
        sent.get(0).complete("late");
        assertEquals("found", read.join(), "a later answer is ignored");
        assertEquals(0, asks.open());
        assertEquals(0, timer.pending(), "no re-ask is left once answered");
        timer.advance(ASK_TIMEOUT);
        assertEquals(2, sent.size());
    }

    @Test
    void aLateAnswerOfTheFirstAskAnswersTheReadAndTheReAsksAnswerIsIgnored() {
        CompletableFuture<String> read = asks.read(this::unanswered);
        timer.advance(REASK_AFTER);
        assertEquals(2, sent.size());

        sent.get(0).complete("first");
        assertEquals("first", read.join());
        sent.get(1).complete("second");
        assertEquals("first", read.join());
        timer.advance(ASK_TIMEOUT);
        assertEquals(2, sent.size(), "not asked again once answered");
    }

    @Test
    void reAsksWaitTwiceAsLongEachTimeAndStopAtTheAskTimeoutWhichStillEndsTheRead() {
        CompletableFuture<String> read = asks.read(this::unanswered);

        timer.advance(Duration.ofSeconds(2));
        assertEquals(2, sent.size());
        timer.advance(Duration.ofSeconds(4));
        assertEquals(3, sent.size(), "at 6 s");
        timer.advance(Duration.ofSeconds(8));
        assertEquals(4, sent.size(), "at 14 s");
        timer.advance(Duration.ofSeconds(60));
        assertEquals(4, sent.size(), "the next (30 s) would come when the first ask times out");
        assertEquals(0, timer.pending());

        // The first ask's own time-out (the ask time-out) fails it, and with it the read.
        sent.get(0).completeExceptionally(new TimeoutException("ask timed out after 30 s"));
        assertInstanceOf(
                TimeoutException.class,
                assertThrows(CompletionException.class, read::join).getCause());
        sent.get(3).complete("too late");
        assertInstanceOf(
                TimeoutException.class,
                assertThrows(CompletionException.class, read::join).getCause());
    }

    @Test
    void aWriteIsNeverSentAgain() {
        AtomicInteger asked = new AtomicInteger();
        CompletableFuture<String> write =
                asks.write(
                        () -> {
                            asked.incrementAndGet();
                            return new CompletableFuture<>();
                        });

        timer.advance(ASK_TIMEOUT.multipliedBy(2));

        assertEquals(1, asked.get());
        assertFalse(write.isDone(), "left to its own ask time-out");
        assertEquals(0, timer.pending(), "no re-ask is scheduled for a write");
    }

    @Test
    void aReadWhoseAsksAreAllStrandedIsAskedAgainOnce() {
        CompletableFuture<String> read = asks.read(this::unanswered);
        timer.advance(REASK_AFTER);
        assertEquals(2, sent.size());

        long removedAt = now.get() + 1;
        timer.advance(Duration.ofNanos(2)); // what is asked now is sent after the removal

        assertEquals(2, asks.strandSentBefore(removedAt, "m"));

        assertEquals(3, sent.size(), "one new ask for the read, not one per stranded ask");
        sent.get(2).complete("moved");
        assertEquals("moved", read.join());
    }

    @Test
    void aReadStrandedAfterItsAskTimeOutIsNotAskedAgain() {
        CompletableFuture<String> read = asks.read(this::unanswered);
        timer.advance(ASK_TIMEOUT);
        int before = sent.size();

        asks.strandSentBefore(now.get(), "m");

        assertEquals(before, sent.size());
        assertFalse(read.isDone(), "left to the first ask's time-out");
    }

    @Test
    void theReAskIntervalMustBePositive() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new StrandedAsks.ReAsking(Duration.ZERO, ASK_TIMEOUT));
    }
}
