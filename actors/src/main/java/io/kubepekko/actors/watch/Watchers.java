package io.kubepekko.actors.watch;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.BookmarkSchedule;
import io.kubepekko.api.watch.CachedEvent;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.LiveWatch;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchStart;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.japi.pf.PFBuilder;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The watchers of one cache and the fan-out of its live events to them. Each gets a bounded queue;
 * one that cannot keep up is cut off with a 410 Expired event, never buffered without limit. Used
 * by the cache actor only, on its thread.
 */
final class Watchers {

    /** The ordering protocol broke or the watcher's queue is full: the stream ends with 410. */
    private static final class CutOff extends RuntimeException {
        final ApiStatus status;

        CutOff(ApiStatus status) {
            super(status.message(), null, false, false);
            this.status = status;
        }
    }

    /** One registered watcher. */
    private static final class Watcher {
        final LiveWatch live;
        final BoundedSourceQueue<StreamEvent> queue;
        Instant lastSent;

        Watcher(LiveWatch live, BoundedSourceQueue<StreamEvent> queue, Instant now) {
            this.live = live;
            this.queue = queue;
            this.lastSent = now;
        }
    }

    private final GroupResource groupResource;
    private final int buffer;
    private final Duration bookmarkInterval;
    private final Materializer materializer;
    private final ActorRef<WatchCache.Command> cache;
    private final Map<Long, Watcher> watchers = new HashMap<>();
    private long nextId;

    /**
     * @param buffer events queued per watcher before it is cut off
     * @param cache told {@link WatchCache.WatcherGone} when a watcher's stream ends
     */
    Watchers(
            GroupResource groupResource,
            int buffer,
            Duration bookmarkInterval,
            Materializer materializer,
            ActorRef<WatchCache.Command> cache) {
        this.groupResource = groupResource;
        this.buffer = buffer;
        this.bookmarkInterval = bookmarkInterval;
        this.materializer = materializer;
        this.cache = cache;
    }

    /**
     * Registers the watcher of {@code w} for live events and returns its whole stream: {@code
     * ready}'s initial events (and the WatchList bookmark if asked for), its replay, then the live
     * events. It started at {@code startVersion}.
     */
    Source<StreamEvent, NotUsed> register(
            WatchCache.Watch w, WatchStart.Outcome.Ready ready, long startVersion, Instant now) {
        long id = ++nextId;
        Pair<BoundedSourceQueue<StreamEvent>, Source<StreamEvent, NotUsed>> queue =
                Source.<StreamEvent>queue(buffer).preMaterialize(materializer);
        watchers.put(
                id,
                new Watcher(
                        new LiveWatch(
                                w.filter(),
                                w.bookmarks(),
                                BookmarkSchedule.of(bookmarkInterval, now, w.timeout()),
                                ready.liveAfter(),
                                startVersion),
                        queue.first(),
                        now));
        Source<StreamEvent, NotUsed> initial =
                Source.from(ready.initial()).map(d -> (StreamEvent) d);
        if (w.initialEventsEnd()) {
            initial =
                    initial.concat(
                            Source.single(new StreamEvent.Bookmark(ready.startVersion(), true)));
        }
        Source<StreamEvent, NotUsed> live =
                queue.second()
                        .recover(
                                new PFBuilder<Throwable, StreamEvent>()
                                        .match(CutOff.class, e -> new StreamEvent.Failure(e.status))
                                        .build());
        return initial.concat(Source.from(ready.replay()).map(d -> (StreamEvent) d))
                .concat(live)
                .watchTermination(
                        (notUsed, done) -> {
                            done.whenComplete(
                                    (Done d, Throwable t) ->
                                            cache.tell(new WatchCache.WatcherGone(id)));
                            return NotUsed.getInstance();
                        });
    }

    /** The watcher's stream ended. */
    void remove(long id) {
        watchers.remove(id);
    }

    /** Sends a live change to every watcher it is for. */
    void deliver(CachedEvent event, Instant now) {
        if (watchers.isEmpty()) {
            return;
        }
        for (Iterator<Watcher> it = watchers.values().iterator(); it.hasNext(); ) {
            Watcher w = it.next();
            Optional<Delivery> d = w.live.deliver(event);
            if (d.isPresent() && !offer(w, d.get(), now)) {
                it.remove();
            }
        }
    }

    /** Sends a progress bookmark at {@code version} to every watcher it is due for. */
    void sendBookmarks(long version, Instant now) {
        StreamEvent bookmark = new StreamEvent.Bookmark(version, false);
        for (Iterator<Watcher> it = watchers.values().iterator(); it.hasNext(); ) {
            Watcher w = it.next();
            if (w.live.bookmarkDue(version, w.lastSent, now) && !offer(w, bookmark, now)) {
                it.remove();
            }
        }
    }

    /** Ends every watcher's stream with {@code status}. */
    void cutOffAll(ApiStatus status) {
        for (Watcher w : watchers.values()) {
            cutOff(w, status);
        }
        watchers.clear();
    }

    /** Queues one event for a watcher; false when the watcher is gone or has just been cut off. */
    private boolean offer(Watcher w, StreamEvent event, Instant now) {
        QueueOfferResult result = w.queue.offer(event);
        if (result == QueueOfferResult.enqueued()) {
            w.lastSent = now;
            return true;
        }
        if (result == QueueOfferResult.dropped()) {
            cutOff(
                    w,
                    ApiStatus.expired(
                            "the watcher of "
                                    + groupResource
                                    + " could not keep up; watch again from the last resourceVersion it received"));
        }
        return false;
    }

    /** Ends a watcher's stream with {@code status}; a stream that already ended stays ended. */
    private static void cutOff(Watcher w, ApiStatus status) {
        try {
            w.queue.fail(new CutOff(status));
        } catch (IllegalStateException alreadyEnded) {
            // the client went away, or the stream was stopped with the actor system
        }
    }
}
