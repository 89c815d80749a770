package io.kubepekko.actors.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.entity.ObjectChanged;
import io.kubepekko.persistence.JournalReader;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JournalHistory}: a resume from the journal reads at most so many events and so many bytes.
 */
class JournalHistoryTest {

    private static final ActorTestKit kit = ActorTestKit.create();

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    /** A journal holding {@code events} under the tag, in order. */
    private static JournalReader journal(List<ObjectChanged> events) {
        return new JournalReader() {
            @Override
            public CompletionStage<Offset> position() {
                return CompletableFuture.completedFuture(Offset.sequence(events.size()));
            }

            @Override
            public Source<EventEnvelope, NotUsed> eventsByTag(String tag, Offset from) {
                return Source.from(events)
                        .map(
                                e ->
                                        EventEnvelope.apply(
                                                Offset.sequence(e.resourceVersion()),
                                                "Collection|configmaps/ns",
                                                e.resourceVersion(),
                                                e,
                                                0L));
            }
        };
    }

    private static ObjectChanged change(long rv, int bytes) {
        return new ObjectChanged(
                rv, "cm-" + rv, new byte[bytes / 2], new byte[bytes - bytes / 2], false, 1000);
    }

    private static Optional<List<WatchCache.Historic>> between(
            List<ObjectChanged> events, long after, long upTo, int max) throws Exception {
        return new JournalHistory(
                        journal(events), "configmaps", Materializer.matFromSystem(kit.system()))
                .between(after, upTo, Offset.noOffset(), max)
                .toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
    }

    @Test
    void readsTheChangesBetweenTheVersionsInOrder() throws Exception {
        List<ObjectChanged> events =
                IntStream.rangeClosed(1, 10).mapToObj(i -> change(i, 100)).toList();
        List<WatchCache.Historic> read = between(events, 3, 7, 100).orElseThrow();
        assertEquals(
                List.of(4L, 5L, 6L, 7L),
                read.stream().map(h -> h.event().resourceVersion()).toList());
        assertTrue(
                between(events, 0, 10, 9).isEmpty(),
                "more than max events: the watch is told to relist");
    }

    @Test
    void moreThanTheByteBoundIsAnsweredAsTooMuchHistory() throws Exception {
        int big = (int) (JournalHistory.MAX_BYTES / 3);
        List<ObjectChanged> events =
                List.of(change(1, big), change(2, big), change(3, big), change(4, big));
        assertTrue(between(events, 0, 4, 100).isEmpty(), "four thirds of the bound");
        assertEquals(3, between(events, 0, 3, 100).orElseThrow().size(), "three thirds fit");
    }
}
