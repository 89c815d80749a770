package io.kubepekko.actors.watch;

import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.entity.CollectionEntity;
import io.kubepekko.actors.entity.ObjectChanged;
import io.kubepekko.persistence.JournalReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;

/**
 * A group-resource's history as the journal holds it: its collections' events, read by the
 * group-resource's tag (every {@link CollectionEntity} event carries it).
 */
final class JournalHistory implements WatchCache.History {

    private static final String PERSISTENCE_ID_PREFIX = "Collection|";

    /**
     * The most bytes of objects (before and after each change) a resume reads into memory: more
     * answers as more than {@code max} events does (the watch gets 410 and lists again). 20,000
     * changes of 1 MB objects would otherwise have been 20-40 GB on the heap, from one watch
     * request.
     */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    private final JournalReader reader;
    private final String tag;
    private final Materializer materializer;

    JournalHistory(JournalReader reader, String tag, Materializer materializer) {
        this.reader = reader;
        this.tag = tag;
        this.materializer = materializer;
    }

    @Override
    public CompletionStage<Offset> position() {
        return reader.position();
    }

    @Override
    public CompletionStage<Optional<List<WatchCache.Historic>>> between(
            long after, long upTo, Offset from, int max) {
        long[] bytes = {0}; // this call's stream only
        return reader.eventsByTag(tag, from)
                .filter(
                        e ->
                                e.event() instanceof ObjectChanged c
                                        && c.resourceVersion() > after
                                        && c.resourceVersion() <= upTo)
                .take(max + 1L)
                .takeWhile(e -> (bytes[0] += bytes((ObjectChanged) e.event())) <= MAX_BYTES, true)
                .runWith(
                        Sink.fold(
                                new TreeMap<Long, WatchCache.Historic>(),
                                (sorted, e) -> {
                                    sorted.put(
                                            ((ObjectChanged) e.event()).resourceVersion(),
                                            historic(e));
                                    return sorted;
                                }),
                        materializer)
                .thenApply(
                        sorted ->
                                sorted.size() > max || bytes[0] > MAX_BYTES
                                        ? Optional.<List<WatchCache.Historic>>empty()
                                        : Optional.of(new ArrayList<>(sorted.values())));
    }

    private static long bytes(ObjectChanged c) {
        return (c.after() == null ? 0 : c.after().length)
                + (c.before() == null ? 0 : c.before().length);
    }

    private static WatchCache.Historic historic(EventEnvelope e) {
        ObjectChanged c = (ObjectChanged) e.event();
        String entityId =
                e.persistenceId().startsWith(PERSISTENCE_ID_PREFIX)
                        ? e.persistenceId().substring(PERSISTENCE_ID_PREFIX.length())
                        : e.persistenceId();
        String namespace = CollectionId.parse(entityId).namespace();
        // Events written before they carried their commit time fall back to the journal's write
        // time.
        long committedAt = c.committedAt() != 0 ? c.committedAt() : e.timestamp();
        return new WatchCache.Historic(c.published(namespace), committedAt);
    }
}
