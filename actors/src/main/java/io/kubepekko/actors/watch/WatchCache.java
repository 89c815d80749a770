package io.kubepekko.actors.watch;

import com.typesafe.config.Config;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.BookmarkSchedule;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.Retention;
import io.kubepekko.api.watch.Snapshot;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.stream.javadsl.Source;

/**
 * The node-local cache of one group-resource: the current objects and a window of recent events,
 * fed in resourceVersion order by its {@link Revisions}. It serves list and get snapshots ({@link
 * Read}) and watches ({@link Watch}); both wait (bounded) until the cache has reached the version
 * they need.
 *
 * <p>Start: it subscribes to the ordered stream; the acknowledgement names the version L released
 * so far, every later change arrives through the stream. It then reads every collection (which may
 * already be newer than L), catches up with the stream ({@link CacheState#warmStart}) and serves. A
 * batch with a new epoch (Revisions restarted) means events may be missing: the cache ends every
 * watch with 410 Expired and loads again. A cache that hears nothing for a while subscribes again.
 * A load that fails is tried again with back-off until it succeeds; a cache that does not serve for
 * long says why in the log (rate-limited) and, when its stream does not reach what it loaded,
 * subscribes again although it is not silent.
 *
 * <p>Watchers get a bounded queue each; one that cannot keep up is cut off with a 410 Expired
 * event, never buffered without limit.
 *
 * <p>This class is the cache's protocol, settings and sources; {@link CacheInstance} is the running
 * actor, with {@link Watchers} (fan-out, bookmarks, cut-off) and {@link JournalResume}
 * (checkpoints, watches older than the window) as its collaborators.
 */
public final class WatchCache {
    private WatchCache() {}

    /**
     * How a cache behaves.
     *
     * @param retention how much history the window keeps
     * @param continueTokenTtl how long a continue token's snapshot stays readable once superseded
     * @param waitLimit how long a read at a version the cache has not reached waits (then 504)
     * @param consistentWaitLimit how long a consistent read waits for the latest committed version
     * @param watcherBuffer events queued per watcher before it is cut off
     * @param bookmarkInterval how often a quiet watcher that accepts bookmarks gets one
     * @param progressBookmarks EfficientWatchResumption: bookmarks carry the cache's progress, not
     *     only the last change's version
     * @param tick how often timers (bookmarks, wait deadlines, window age) are checked
     * @param resubscribeAfter silence from Revisions after which the cache subscribes again
     * @param history how watches older than the window resume from the journal
     */
    public record Settings(
            Retention retention,
            Duration continueTokenTtl,
            Duration waitLimit,
            Duration consistentWaitLimit,
            int watcherBuffer,
            Duration bookmarkInterval,
            boolean progressBookmarks,
            Duration tick,
            Duration resubscribeAfter,
            HistorySettings history) {

        /**
         * The settings {@code kubepekko.watch} of {@code config} sets (the actors' reference.conf
         * holds every default), with the values of the server's flags.
         *
         * @param window {@code --watch-cache-window}: how long the window keeps events
         * @param continueTokenTtl {@code --continue-token-ttl}
         * @param historyRetention {@code --watch-history-retention}
         * @param progressBookmarks EfficientWatchResumption (always on in the server: kube removed
         *     its gate in 1.33)
         */
        public static Settings fromConfig(
                Config config,
                Duration window,
                Duration continueTokenTtl,
                Duration historyRetention,
                boolean progressBookmarks) {
            Config watch = config.getConfig("kubepekko.watch");
            long retainedBytes = watch.getBytes("max-retained-bytes");
            Retention retention =
                    new Retention(
                            window,
                            watch.getInt("max-events"),
                            retainedBytes > 0
                                    ? retainedBytes
                                    : Math.max(1, Runtime.getRuntime().maxMemory() / 20));
            return new Settings(
                    retention,
                    continueTokenTtl,
                    watch.getDuration("wait-limit"),
                    watch.getDuration("consistent-wait-limit"),
                    watch.getInt("watcher-buffer"),
                    watch.getDuration("bookmark-interval"),
                    progressBookmarks,
                    watch.getDuration("tick"),
                    watch.getDuration("resubscribe-after"),
                    new HistorySettings(
                            historyRetention,
                            watch.getInt("max-history-events"),
                            watch.getDuration("checkpoint-interval"),
                            watch.getDuration("checkpoint-margin")));
        }

        public Settings withRetention(Retention r) {
            return new Settings(
                    r,
                    continueTokenTtl,
                    waitLimit,
                    consistentWaitLimit,
                    watcherBuffer,
                    bookmarkInterval,
                    progressBookmarks,
                    tick,
                    resubscribeAfter,
                    history);
        }

        public Settings withBookmarkInterval(Duration d) {
            return new Settings(
                    retention,
                    continueTokenTtl,
                    waitLimit,
                    consistentWaitLimit,
                    watcherBuffer,
                    d,
                    progressBookmarks,
                    tick,
                    resubscribeAfter,
                    history);
        }

        public Settings withWatcherBuffer(int n) {
            return new Settings(
                    retention,
                    continueTokenTtl,
                    waitLimit,
                    consistentWaitLimit,
                    n,
                    bookmarkInterval,
                    progressBookmarks,
                    tick,
                    resubscribeAfter,
                    history);
        }

        public Settings withProgressBookmarks(boolean on) {
            return new Settings(
                    retention,
                    continueTokenTtl,
                    waitLimit,
                    consistentWaitLimit,
                    watcherBuffer,
                    bookmarkInterval,
                    on,
                    tick,
                    resubscribeAfter,
                    history);
        }
    }

    /**
     * Journal-backed resume.
     *
     * @param retention how long after a change a watch may still resume from before it ({@code
     *     --watch-history-retention}); older is 410
     * @param maxEvents the most events one resume reads from the journal; more is 410 (a relist is
     *     then cheaper)
     * @param checkpointInterval how often the cache notes where the journal is, so a resume reads
     *     from near its version instead of from the beginning
     * @param checkpointMargin how long after noting a journal position the cache pairs it with its
     *     version: longer than a committed change can wait to be published
     */
    public record HistorySettings(
            Duration retention,
            int maxEvents,
            Duration checkpointInterval,
            Duration checkpointMargin) {}

    /**
     * Protocol of {@link WatchCache}. Node-local: its replies carry snapshots and stream sources.
     */
    public sealed interface Command
            permits Stream, Loaded, LoadFailed, Tick, Read, Watch, WatcherGone, PositionRead {}

    /** Internal: where the journal was at {@code at} (a checkpoint once the margin has passed). */
    public record PositionRead(Instant at, Offset offset) implements Command {}

    /** Internal: a batch of the ordered stream. */
    public record Stream(RevisionsProtocol.Published batch) implements Command {}

    /** Internal: the collections' objects, read after the subscription was acknowledged. */
    public record Loaded(long generation, Contents contents) implements Command {}

    /** Internal: loading failed; it starts over. */
    public record LoadFailed(long generation, String reason) implements Command {}

    /** Internal: check timers. */
    public enum Tick implements Command {
        INSTANCE
    }

    /** Internal: a watcher's stream ended. */
    public record WatcherGone(long id) implements Command {}

    /**
     * Asks for the snapshot a list or get is served from; waits up to {@code maxWait} for the cache
     * to reach the version {@code read} needs.
     */
    public record Read(CacheRead read, Duration maxWait, ActorRef<ReadReply> replyTo)
            implements Command {}

    /** The answer to a {@link Read}. */
    public sealed interface ReadReply permits Snapshotted, ReadFailed {}

    public record Snapshotted(Snapshot snapshot) implements ReadReply {}

    public record ReadFailed(ApiStatus status) implements ReadReply {}

    /**
     * Starts a watch of what {@code filter} selects from {@code start}; waits up to {@code maxWait}
     * for the cache to reach the version it needs.
     *
     * @param bookmarks whether the watcher accepts BOOKMARK events
     * @param initialEventsEnd whether the initial events end with the WatchList bookmark
     * @param timeout how long the watch stays open once started (the caller ends the stream then),
     *     or zero when it has no deadline: a watcher that accepts bookmarks gets one shortly before
     *     it ({@link BookmarkSchedule})
     */
    public record Watch(
            WatchStart start,
            WatchFilter filter,
            boolean bookmarks,
            boolean initialEventsEnd,
            Duration maxWait,
            Duration timeout,
            ActorRef<WatchReply> replyTo)
            implements Command {
        /** A watch without a deadline. */
        public Watch(
                WatchStart start,
                WatchFilter filter,
                boolean bookmarks,
                boolean initialEventsEnd,
                Duration maxWait,
                ActorRef<WatchReply> replyTo) {
            this(start, filter, bookmarks, initialEventsEnd, maxWait, Duration.ZERO, replyTo);
        }
    }

    /** The answer to a {@link Watch}. */
    public sealed interface WatchReply permits Watching, WatchFailed {}

    /** The watch's events; the stream ends after a {@link StreamEvent.Failure}. */
    public record Watching(Source<StreamEvent, NotUsed> events) implements WatchReply {}

    public record WatchFailed(ApiStatus status) implements WatchReply {}

    /**
     * Every object of the group-resource's collections, and the highest version of a change they
     * had applied when read.
     */
    public record Contents(List<byte[]> objects, long readVersion) {}

    /**
     * Where the cache reads from: its Revisions and a full read of the group-resource's
     * collections.
     */
    public interface Sources {
        RecipientRef<RevisionsProtocol.Command> revisions();

        /** Reads every collection's objects (called after the subscription was acknowledged). */
        CompletionStage<Contents> load();

        /**
         * The journal's history of the group-resource, for watches older than the window; none by
         * default.
         */
        default Optional<History> history() {
            return Optional.empty();
        }
    }

    /** One change read back from the journal, with when it was committed (epoch milliseconds). */
    public record Historic(PublishedEvent event, long committedAt) {}

    /** A group-resource's history as the journal holds it. */
    public interface History {
        /** Where the journal is now: every change persisted later is read from this position. */
        CompletionStage<Offset> position();

        /**
         * The committed changes with versions in ({@code after}, {@code upTo}], read from {@code
         * from} on, in version order; empty when there are more than {@code max}.
         */
        CompletionStage<Optional<List<Historic>>> between(
                long after, long upTo, Offset from, int max);
    }

    public static Behavior<Command> create(
            ResourceType type,
            Sources sources,
            Settings settings,
            Clock clock,
            AtomicBoolean ready) {
        return create(type, sources, settings, clock, ready, StorageQuota.unlimited());
    }

    /**
     * @param quota where the cache reports the bytes of the objects it holds, after every change
     */
    public static Behavior<Command> create(
            ResourceType type,
            Sources sources,
            Settings settings,
            Clock clock,
            AtomicBoolean ready,
            StorageQuota quota) {
        Behavior<Command> cache =
                Behaviors.setup(
                        ctx ->
                                Behaviors.withTimers(
                                        timers -> {
                                            timers.startTimerWithFixedDelay(
                                                    Tick.INSTANCE, settings.tick());
                                            return new CacheInstance(
                                                            ctx, type, sources, settings, clock,
                                                            ready, quota)
                                                    .loading();
                                        }));
        return Behaviors.supervise(cache).onFailure(SupervisorStrategy.restart());
    }
}
