package io.kubepekko.actors.failover;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.typesafe.config.ConfigFactory;
import io.kubepekko.api.status.ApiException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class RemovedMembersTest {
    private static final ActorTestKit kit = ActorTestKit.create();

    /** Tracks the writes these tests make (reads are never asked again: no timer runs). */
    private static StrandedAsks writesOnly(LongSupplier nanoClock) {
        return new StrandedAsks(
                nanoClock,
                (delay, task) -> () -> {},
                new StrandedAsks.ReAsking(Duration.ofSeconds(2), Duration.ofSeconds(30)));
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    @Test
    void aDownedMembersRemovalStrandsTheAsksSentBeforeItAfterTheGrace() {
        StrandedAsks asks = writesOnly(System::nanoTime);
        CompletableFuture<String> lost = asks.write(CompletableFuture::new);
        ActorRef<RemovedMembers.Command> removals =
                kit.spawn(RemovedMembers.behavior(asks, Duration.ofMillis(50)));

        removals.tell(
                new RemovedMembers.Removed(
                        "pekko://kubepekko@127.0.0.1:4711", true, System.nanoTime()));
        CompletableFuture<String> sentAfter = asks.write(CompletableFuture::new);

        await().atMost(Duration.ofSeconds(10)).until(lost::isDone);
        ApiException e =
                assertInstanceOf(
                        ApiException.class,
                        assertThrows(CompletionException.class, lost::join).getCause());
        assertEquals(504, e.status().code());
        assertFalse(
                sentAfter.isDone(), "an ask sent after the removal went to the shard's new home");
        assertEquals(1, asks.open());
    }

    @Test
    void aMemberThatLeftInOrderStrandsNothing() {
        AtomicLong now = new AtomicLong();
        StrandedAsks asks = writesOnly(now::get);
        CompletableFuture<String> marker = asks.write(CompletableFuture::new);
        now.set(10);
        CompletableFuture<String> open = asks.write(CompletableFuture::new);
        ActorRef<RemovedMembers.Command> removals =
                kit.spawn(RemovedMembers.behavior(asks, Duration.ofMillis(1)));

        removals.tell(new RemovedMembers.Removed("pekko://kubepekko@127.0.0.1:4712", false, 20));
        // Then a downed member removed between the two asks: handled after the first, it strands
        // the marker only.
        removals.tell(new RemovedMembers.Removed("pekko://kubepekko@127.0.0.1:4713", true, 5));

        await().atMost(Duration.ofSeconds(10)).until(marker::isDone);
        assertFalse(open.isDone(), "the member that left in order stranded nothing");
    }

    @Test
    void theGraceComesFromTheConfigurationAndIs500msByDefault() {
        assertEquals(Duration.ofMillis(500), RemovedMembers.grace(ConfigFactory.load()));
        assertEquals(
                Duration.ofSeconds(2),
                RemovedMembers.grace(
                        ConfigFactory.parseString(RemovedMembers.GRACE_PATH + " = 2s")));
    }
}
