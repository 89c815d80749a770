package io.kubepekko.actors;

import io.kubepekko.persistence.JournalReader;
import org.apache.pekko.persistence.query.EventEnvelope;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/**
 * A group-resource's history as the journal holds it: its collections' events, read by the
 * group-resource's tag (every {@link CollectionEntity} event carries it).
 */
final class JournalHistory implements WatchCache.History {

    private static final String PERSISTENCE_ID_PREFIX = "Collection|";

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
    public CompletionStage<Optional<List<WatchCache.Historic>>> between(long after, long upTo, Offset from, int max) {
        return reader.eventsByTag(tag, from)
                .filter(e -> e.event() instanceof CollectionEntity.ObjectChanged c
                        && c.resourceVersion() > after && c.resourceVersion() <= upTo)
                .take(max + 1L)
                .runWith(Sink.fold(new TreeMap<Long, WatchCache.Historic>(), (sorted, e) -> {
                    sorted.put(((CollectionEntity.ObjectChanged) e.event()).resourceVersion(), historic(e));
                    return sorted;
                }), materializer)
                .thenApply(sorted -> sorted.size() > max ? Optional.<List<WatchCache.Historic>>empty()
                        : Optional.of(new ArrayList<>(sorted.values())));
    }

    private static WatchCache.Historic historic(EventEnvelope e) {
        CollectionEntity.ObjectChanged c = (CollectionEntity.ObjectChanged) e.event();
        String entityId = e.persistenceId().startsWith(PERSISTENCE_ID_PREFIX)
                ? e.persistenceId().substring(PERSISTENCE_ID_PREFIX.length()) : e.persistenceId();
        String namespace = CollectionId.parse(entityId).namespace();
        // Events written before they carried their commit time fall back to the journal's write time.
        long committedAt = c.committedAt() != 0 ? c.committedAt() : e.timestamp();
        return new WatchCache.Historic(c.published(namespace), committedAt);
    }
}
