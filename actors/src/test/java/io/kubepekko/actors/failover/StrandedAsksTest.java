package io.kubepekko.actors.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.status.ApiException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StrandedAsksTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final StrandedAsks asks = new StrandedAsks(now::get);

    @Test
    void aWriteOpenAtTheRemovalIsAnswered504NamingTheFailedServer() {
        CompletableFuture<String> lost = new CompletableFuture<>();
        CompletableFuture<String> write = asks.write(() -> lost);
        now.addAndGet(5_000);

        assertEquals(1, asks.strandSentBefore(now.get(), "pekko://kubepekko@127.0.0.1:4711"));

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
}
