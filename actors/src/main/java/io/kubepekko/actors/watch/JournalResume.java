package io.kubepekko.actors.watch;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.CachedEvent;
import io.kubepekko.api.watch.CachedObject;
import io.kubepekko.api.watch.CachedObjectReader;
import io.kubepekko.api.watch.Checkpoints;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Source;

/**
 * Watches older than the cache's window, resumed from the journal: it notes where the journal is
 * now and then ({@link Checkpoints}), and reads a resumed watch's events from the checkpoint below
 * its version. Used by the cache actor only, on its thread.
 */
final class JournalResume {

    private final ActorContext<WatchCache.Command> ctx;
    private final ResourceType type;
    private final WatchCache.History history;
    private final WatchCache.HistorySettings settings;
    private final Checkpoints<Offset> checkpoints;

    JournalResume(
            ActorContext<WatchCache.Command> ctx,
            ResourceType type,
            WatchCache.History history,
            WatchCache.HistorySettings settings) {
        this.ctx = ctx;
        this.type = type;
        this.history = history;
        this.settings = settings;
        this.checkpoints =
                new Checkpoints<>(
                        settings.checkpointInterval(),
                        settings.checkpointMargin(),
                        settings.retention());
    }

    /**
     * The timers of a serving cache at {@code version}: checkpoints, and a journal position read
     * now and then.
     */
    void tick(Instant now, long version) {
        if (checkpoints.tick(now, version)) {
            ctx.pipeToSelf(
                    history.position(),
                    (offset, error) -> new WatchCache.PositionRead(now, offset));
        }
    }

    /**
     * Where the journal was (no position when reading it failed: it is read again next interval).
     */
    void positionRead(WatchCache.PositionRead p) {
        checkpoints.positionRead(p.at(), p.offset());
    }

    /**
     * A watch from before the window: the journal's events up to the window's start, then the
     * window's, then live ones. The watcher is registered ({@code register}) before the journal is
     * read, so nothing between the parts is lost; its queue holds the live events meanwhile
     * (bounded as always).
     *
     * @param tooOld the answer when the journal cannot serve the watch either
     * @param register registers the watcher from the window's start and returns the rest of its
     *     stream
     */
    Source<StreamEvent, NotUsed> resume(
            WatchStart start,
            WatchFilter filter,
            CacheState state,
            ApiStatus tooOld,
            Instant now,
            Function<WatchStart.Outcome.Ready, Source<StreamEvent, NotUsed>> register) {
        long from = start.version();
        long windowStart = state.oldestVersion();
        Instant horizon = now.minus(settings.retention());
        if (checkpoints.expired(from, horizon)) {
            // The cache was already past this version before the retention horizon.
            return Source.single(new StreamEvent.Failure(tooOld));
        }
        Offset offset = checkpoints.readFrom(from).orElse(Offset.noOffset());
        ctx.getLog()
                .debug(
                        "{}: a watch from {} resumes from the journal at {} (the window starts at {})",
                        type.groupResource(),
                        from,
                        offset,
                        windowStart);
        WatchStart.Outcome.Ready window =
                (WatchStart.Outcome.Ready)
                        new WatchStart(WatchStart.Target.AFTER, windowStart, false)
                                .resolve(state, filter);
        Source<StreamEvent, NotUsed> journal =
                Source.completionStage(
                                history.between(from, windowStart, offset, settings.maxEvents()))
                        .mapConcat(events -> deliveries(events, filter, horizon, tooOld));
        Source<StreamEvent, NotUsed> rest = register.apply(window);
        return journal.concat(rest).takeWhile(e -> !(e instanceof StreamEvent.Failure), true);
    }

    /** The journal's events as the watcher sees them, or 410 when they are too many or too old. */
    private List<StreamEvent> deliveries(
            Optional<List<WatchCache.Historic>> events,
            WatchFilter filter,
            Instant horizon,
            ApiStatus tooOld) {
        if (events.isEmpty()
                || !events.get().isEmpty()
                        && Instant.ofEpochMilli(events.get().get(0).committedAt())
                                .isBefore(horizon)) {
            return List.of(new StreamEvent.Failure(tooOld));
        }
        CachedObjectReader reader = new CachedObjectReader(type);
        List<StreamEvent> out = new ArrayList<>();
        for (WatchCache.Historic h : events.get()) {
            PublishedEvent e = h.event();
            CachedObject object =
                    reader.read(
                            e.object(),
                            new ObjectKey(e.namespace(), e.name()),
                            e.resourceVersion());
            CachedObject previous = e.previous() == null ? null : reader.read(e.previous());
            filter.deliver(new CachedEvent(e.type(), e.resourceVersion(), object, previous))
                    .ifPresent(out::add);
        }
        return out;
    }
}
