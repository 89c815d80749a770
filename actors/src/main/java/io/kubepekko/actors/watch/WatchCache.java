package io.kubepekko.actors.watch;

import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.BookmarkSchedule;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.CachedEvent;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.Retention;
import io.kubepekko.api.watch.Snapshot;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.api.watch.WatchFilter;
import io.kubepekko.api.watch.WatchStart;
import org.apache.pekko.Done;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.persistence.query.Offset;
import org.apache.pekko.japi.pf.PFBuilder;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Source;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The node-local cache of one group-resource: the current objects and a window of recent events,
 * fed in resourceVersion order by its {@link Revisions}. It serves list and get snapshots
 * ({@link Read}) and watches ({@link Watch}); both wait (bounded) until the cache has reached the
 * version they need.
 *
 * <p>Start: it subscribes to the ordered stream; the acknowledgement names the version L released so
 * far, every later change arrives through the stream. It then reads every collection (which may
 * already be newer than L), catches up with the stream ({@link CacheState#warmStart}) and serves.
 * A batch with a new epoch (Revisions restarted) means events may be missing: the cache ends every
 * watch with 410 Expired and loads again. A cache that hears nothing for a while subscribes again.
 * A load that fails is tried again with back-off until it succeeds; a cache that does not serve for
 * long says why in the log (rate-limited) and, when its stream does not reach what it loaded,
 * subscribes again although it is not silent.
 *
 * <p>Watchers get a bounded queue each; one that cannot keep up is cut off with a 410 Expired
 * event, never buffered without limit.
 */
public final class WatchCache {
    private WatchCache() {}

    /** Parked reads and watches beyond this answer 429. */
    static final int MAX_PARKED = 10_000;
    /** Stream batches buffered while loading; beyond this the load starts over. */
    static final int MAX_BUFFERED = 10_000;
    /**
     * How long a failed load waits before the next attempt: doubling from 1 s up to 30 s, so a storage
     * outage costs the storage a few reads per cache and minute, and a cache loads soon after it is back.
     */
    static final Backoff LOAD_BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    /**
     * How long a cache may wait for its stream to reach the version it loaded before it warns and subscribes
     * again: longer than a normal catch-up, shorter than Revisions' 45 s resolve deadline plus a rebuild.
     */
    static final Duration CATCH_UP_PATIENCE = Duration.ofSeconds(30);
    /** At most one warning per cache per interval about why it does not serve. */
    static final Duration WARN_INTERVAL = Duration.ofMinutes(1);

    /**
     * How a cache behaves.
     *
     * @param retention           how much history the window keeps
     * @param continueTokenTtl    how long a continue token's snapshot stays readable once superseded
     * @param waitLimit           how long a read at a version the cache has not reached waits (then 504)
     * @param consistentWaitLimit how long a consistent read waits for the latest committed version
     * @param watcherBuffer       events queued per watcher before it is cut off
     * @param bookmarkInterval    how often a quiet watcher that accepts bookmarks gets one
     * @param progressBookmarks   EfficientWatchResumption: bookmarks carry the cache's progress, not
     *                            only the last change's version
     * @param tick                how often timers (bookmarks, wait deadlines, window age) are checked
     * @param resubscribeAfter    silence from Revisions after which the cache subscribes again
     * @param history             how watches older than the window resume from the journal
     */
    public record Settings(Retention retention, Duration continueTokenTtl, Duration waitLimit,
                           Duration consistentWaitLimit, int watcherBuffer, Duration bookmarkInterval,
                           boolean progressBookmarks, Duration tick, Duration resubscribeAfter,
                           HistorySettings history) {

        /**
         * The settings {@code kubepekko.watch} of {@code config} sets (the actors' reference.conf holds every
         * default), with the values of the server's flags.
         *
         * @param window            {@code --watch-cache-window}: how long the window keeps events
         * @param continueTokenTtl  {@code --continue-token-ttl}
         * @param historyRetention  {@code --watch-history-retention}
         * @param progressBookmarks the EfficientWatchResumption feature gate
         */
        public static Settings fromConfig(Config config, Duration window, Duration continueTokenTtl,
                                          Duration historyRetention, boolean progressBookmarks) {
            Config watch = config.getConfig("kubepekko.watch");
            long retainedBytes = watch.getBytes("max-retained-bytes");
            Retention retention = new Retention(window, watch.getInt("max-events"),
                    retainedBytes > 0 ? retainedBytes : Math.max(1, Runtime.getRuntime().maxMemory() / 20));
            return new Settings(retention, continueTokenTtl, watch.getDuration("wait-limit"),
                    watch.getDuration("consistent-wait-limit"), watch.getInt("watcher-buffer"),
                    watch.getDuration("bookmark-interval"), progressBookmarks, watch.getDuration("tick"),
                    watch.getDuration("resubscribe-after"),
                    new HistorySettings(historyRetention, watch.getInt("max-history-events"),
                            watch.getDuration("checkpoint-interval"), watch.getDuration("checkpoint-margin")));
        }

        public Settings withRetention(Retention r) {
            return new Settings(r, continueTokenTtl, waitLimit, consistentWaitLimit, watcherBuffer, bookmarkInterval,
                    progressBookmarks, tick, resubscribeAfter, history);
        }

        public Settings withBookmarkInterval(Duration d) {
            return new Settings(retention, continueTokenTtl, waitLimit, consistentWaitLimit, watcherBuffer, d,
                    progressBookmarks, tick, resubscribeAfter, history);
        }

        public Settings withWatcherBuffer(int n) {
            return new Settings(retention, continueTokenTtl, waitLimit, consistentWaitLimit, n, bookmarkInterval,
                    progressBookmarks, tick, resubscribeAfter, history);
        }

        public Settings withProgressBookmarks(boolean on) {
            return new Settings(retention, continueTokenTtl, waitLimit, consistentWaitLimit, watcherBuffer,
                    bookmarkInterval, on, tick, resubscribeAfter, history);
        }
    }

    /**
     * Journal-backed resume.
     *
     * @param retention          how long after a change a watch may still resume from before it
     *                           ({@code --watch-history-retention}); older is 410
     * @param maxEvents          the most events one resume reads from the journal; more is 410 (a
     *                           relist is then cheaper)
     * @param checkpointInterval how often the cache notes where the journal is, so a resume reads
     *                           from near its version instead of from the beginning
     * @param checkpointMargin   how long after noting a journal position the cache pairs it with its
     *                           version: longer than a committed change can wait to be published
     */
    public record HistorySettings(Duration retention, int maxEvents, Duration checkpointInterval,
                                  Duration checkpointMargin) {}

    /** Protocol of {@link WatchCache}. Node-local: its replies carry snapshots and stream sources. */
    public sealed interface Command permits Stream, Loaded, LoadFailed, Tick, Read, Watch, WatcherGone, PositionRead {}

    /** Internal: where the journal was at {@code at} (a checkpoint once the margin has passed). */
    public record PositionRead(Instant at, Offset offset) implements Command {}

    /** Internal: a batch of the ordered stream. */
    public record Stream(Revisions.Published batch) implements Command {}

    /** Internal: the collections' objects, read after the subscription was acknowledged. */
    public record Loaded(long generation, Contents contents) implements Command {}

    /** Internal: loading failed; it starts over. */
    public record LoadFailed(long generation, String reason) implements Command {}

    /** Internal: check timers. */
    public enum Tick implements Command { INSTANCE }

    /** Internal: a watcher's stream ended. */
    public record WatcherGone(long id) implements Command {}

    /**
     * Asks for the snapshot a list or get is served from; waits up to {@code maxWait} for the cache to
     * reach the version {@code read} needs.
     */
    public record Read(CacheRead read, Duration maxWait, ActorRef<ReadReply> replyTo) implements Command {}

    /** The answer to a {@link Read}. */
    public sealed interface ReadReply permits Snapshotted, ReadFailed {}

    public record Snapshotted(Snapshot snapshot) implements ReadReply {}

    public record ReadFailed(ApiStatus status) implements ReadReply {}

    /**
     * Starts a watch of what {@code filter} selects from {@code start}; waits up to {@code maxWait} for
     * the cache to reach the version it needs.
     *
     * @param bookmarks        whether the watcher accepts BOOKMARK events
     * @param initialEventsEnd whether the initial events end with the WatchList bookmark
     * @param timeout          how long the watch stays open once started (the caller ends the stream then),
     *                         or zero when it has no deadline: a watcher that accepts bookmarks gets one
     *                         shortly before it ({@link BookmarkSchedule})
     */
    public record Watch(WatchStart start, WatchFilter filter, boolean bookmarks, boolean initialEventsEnd,
                        Duration maxWait, Duration timeout, ActorRef<WatchReply> replyTo) implements Command {
        /** A watch without a deadline. */
        public Watch(WatchStart start, WatchFilter filter, boolean bookmarks, boolean initialEventsEnd,
                     Duration maxWait, ActorRef<WatchReply> replyTo) {
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

    /** Where the cache reads from: its Revisions and a full read of the group-resource's collections. */
    public interface Sources {
        RecipientRef<Revisions.Command> revisions();

        /** Reads every collection's objects (called after the subscription was acknowledged). */
        CompletionStage<Contents> load();

        /** The journal's history of the group-resource, for watches older than the window; none by default. */
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
         * The committed changes with versions in ({@code after}, {@code upTo}], read from
         * {@code from} on, in version order; empty when there are more than {@code max}.
         */
        CompletionStage<Optional<List<Historic>>> between(long after, long upTo, Offset from, int max);
    }

    /** A journal position paired with the cache's version: every change after the version is after it. */
    private record Checkpoint(long version, Offset offset, Instant at) {}

    public static Behavior<Command> create(ResourceType type, Sources sources, Settings settings, Clock clock,
                                           AtomicBoolean ready) {
        return create(type, sources, settings, clock, ready, StorageQuota.unlimited());
    }

    /** @param quota where the cache reports the bytes of the objects it holds, after every change */
    public static Behavior<Command> create(ResourceType type, Sources sources, Settings settings, Clock clock,
                                           AtomicBoolean ready, StorageQuota quota) {
        Behavior<Command> cache = Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
            timers.startTimerWithFixedDelay(Tick.INSTANCE, settings.tick());
            return new Instance(ctx, type, sources, settings, clock, ready, quota).loading();
        }));
        return Behaviors.supervise(cache).onFailure(SupervisorStrategy.restart());
    }

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
        final long id;
        final WatchFilter filter;
        final boolean bookmarks;
        final BookmarkSchedule bookmarkSchedule;
        final BoundedSourceQueue<StreamEvent> queue;
        /** Live events up to this version are not for this watcher (it got them otherwise, or started after them). */
        final long liveAfter;
        /** The version the watch started from: like kube-apiserver, bookmarks are only sent above it. */
        final long startVersion;
        Instant lastSent;

        Watcher(long id, WatchFilter filter, boolean bookmarks, BookmarkSchedule bookmarkSchedule,
                BoundedSourceQueue<StreamEvent> queue, long liveAfter, long startVersion, Instant now) {
            this.id = id;
            this.filter = filter;
            this.bookmarks = bookmarks;
            this.bookmarkSchedule = bookmarkSchedule;
            this.queue = queue;
            this.liveAfter = liveAfter;
            this.startVersion = startVersion;
            this.lastSent = now;
        }
    }

    /** A read or watch waiting for the cache to reach its version. */
    private record Parked(Command request, Instant deadline) {}

    private static final class Instance {
        private final ActorContext<Command> ctx;
        private final ResourceType type;
        private final Sources sources;
        private final Settings settings;
        private final Clock clock;
        private final AtomicBoolean ready;
        private final StorageQuota quota;
        private final Materializer materializer;
        private final ActorRef<Revisions.Published> stream;
        private final List<Parked> parked = new ArrayList<>();
        private final List<Revisions.Published> buffered = new ArrayList<>();
        private final Map<Long, Watcher> watchers = new HashMap<>();
        private long generation;
        private long nextWatcherId;
        private String epoch;
        /** The {@code upTo} of the last batch received in this epoch: the next one must follow on from it. */
        private long streamUpTo;
        private long startVersion;
        private CacheState state;
        /** Checkpoints by version (ascending), and a journal position waiting for its margin to pass. */
        private final java.util.TreeMap<Long, Checkpoint> checkpoints = new java.util.TreeMap<>();
        private PositionRead pendingPosition;
        private Instant lastPositionRequest = Instant.MIN;
        /** The version of the last change applied: bookmarks carry it when progress bookmarks are off. */
        private long lastChangeVersion;
        private Instant lastHeard;
        private Instant lastSubscribed;
        /** Whether the load of the current {@code generation} is under way. */
        private boolean loadInFlight;
        /** Loads failed in a row, and when the next may start. */
        private int loadFailures;
        private Instant loadAfter = Instant.MIN;
        /** Since when the cache has not served (null while it serves). */
        private Instant unreadySince;
        private final RateLimitedWarning notServing = new RateLimitedWarning(WARN_INTERVAL);

        Instance(ActorContext<Command> ctx, ResourceType type, Sources sources, Settings settings, Clock clock,
                 AtomicBoolean ready, StorageQuota quota) {
            this.quota = quota;
            this.ctx = ctx;
            ctx.setLoggerName(WatchCache.class);
            this.type = type;
            this.sources = sources;
            this.settings = settings;
            this.clock = clock;
            this.ready = ready;
            this.materializer = Materializer.createMaterializer(ctx);
            this.stream = ctx.messageAdapter(Revisions.Published.class, Stream::new);
            subscribe();
        }

        private void subscribe() {
            lastHeard = clock.instant();
            lastSubscribed = lastHeard;
            sources.revisions().tell(new Revisions.Subscribe(stream));
        }

        /** Waiting for the subscription's acknowledgement, then for the collections' objects. */
        Behavior<Command> loading() {
            generation++;
            buffered.clear();
            state = null;
            epoch = null; // the next batch (the acknowledgement) names the epoch and the start version
            loadInFlight = false;
            updateReady();
            return Behaviors.receive(Command.class)
                    .onMessage(Stream.class, s -> {
                        lastHeard = clock.instant();
                        Revisions.Published batch = s.batch();
                        if (epoch == null || !epoch.equals(batch.epoch())) {
                            epoch = batch.epoch();
                            startVersion = batch.upTo();
                            streamUpTo = batch.upTo();
                            buffered.clear();
                            load();
                        } else if (buffered.size() >= MAX_BUFFERED || batch.after() > streamUpTo) {
                            return loading(); // too far behind, or a batch was lost: start over
                        } else {
                            buffered.add(batch);
                            streamUpTo = Math.max(streamUpTo, batch.upTo());
                        }
                        return Behaviors.same();
                    })
                    .onMessage(Loaded.class, this::onLoaded)
                    .onMessage(LoadFailed.class, this::onLoadFailed)
                    .onMessage(Read.class, r -> park(r, r.maxWait()))
                    .onMessage(Watch.class, w -> park(w, w.maxWait()))
                    .onMessage(Tick.class, t -> onTick())
                    .onMessage(WatcherGone.class, g -> Behaviors.same())
                    .onMessage(PositionRead.class, p -> Behaviors.same())
                    .onSignal(PreRestart.class, s -> stopAll())
                    .onSignal(PostStop.class, s -> stopAll())
                    .build();
        }

        /** Loads the collections now, or once the back-off after failed loads is over ({@link #onTick}). */
        private void load() {
            generation++; // a load still under way belongs to an earlier start: its answer is ignored
            loadInFlight = false;
            if (!clock.instant().isBefore(loadAfter)) {
                startLoad();
            }
        }

        private void startLoad() {
            long g = generation;
            loadInFlight = true;
            ctx.pipeToSelf(sources.load(), (contents, error) -> contents != null ? new Loaded(g, contents)
                    : new LoadFailed(g, String.valueOf(error == null ? null : error.getMessage())));
        }

        /**
         * A failed load is tried again after a back-off, from the same start: the stream's batches since the
         * acknowledgement stay buffered, and objects read later may only be newer, which the catch-up allows.
         */
        private Behavior<Command> onLoadFailed(LoadFailed f) {
            if (f.generation() != generation) {
                return Behaviors.same();
            }
            Instant now = clock.instant();
            loadInFlight = false;
            Duration wait = LOAD_BACKOFF.after(loadFailures++);
            loadAfter = now.plus(wait);
            notServing.warn(ctx.getLog(), now, "the {} cache cannot load its collections ({} failed attempts in a row),"
                    + " trying again in {}: {}", type.groupResource(), loadFailures, wait, f.reason());
            return Behaviors.same();
        }

        private Behavior<Command> onLoaded(Loaded loaded) {
            if (loaded.generation() != generation) {
                return Behaviors.same();
            }
            loadInFlight = false;
            loadFailures = 0;
            loadAfter = Instant.MIN;
            Contents c = loaded.contents();
            state = CacheState.warmStart(type, settings.retention(), c.objects(), startVersion, c.readVersion());
            lastChangeVersion = state.resourceVersion();
            for (Revisions.Published batch : buffered) {
                apply(batch);
            }
            buffered.clear();
            quota.record(type.groupResource(), state.bytes());
            updateReady();
            answerParked();
            return running();
        }

        Behavior<Command> running() {
            return Behaviors.receive(Command.class)
                    .onMessage(Stream.class, s -> {
                        lastHeard = clock.instant();
                        boolean newEpoch = !epoch.equals(s.batch().epoch());
                        if (newEpoch || s.batch().after() > streamUpTo) {
                            ctx.getLog().info(newEpoch ? "{}: the change stream has a new epoch, rebuilding the cache"
                                    : "{}: changes after {} were lost on their way, rebuilding the cache",
                                    type.groupResource(), streamUpTo);
                            cutOffAll(ApiStatus.expired("the watch cache of " + type.groupResource()
                                    + " is rebuilding; list again and watch from the new resourceVersion"));
                            Behavior<Command> next = loading();
                            // This batch acknowledges the new epoch: load from its version.
                            epoch = s.batch().epoch();
                            startVersion = s.batch().upTo();
                            streamUpTo = s.batch().upTo();
                            load();
                            return next;
                        }
                        streamUpTo = Math.max(streamUpTo, s.batch().upTo());
                        apply(s.batch());
                        updateReady();
                        answerParked();
                        return Behaviors.same();
                    })
                    .onMessage(Read.class, r -> {
                        onRead(r);
                        return Behaviors.same();
                    })
                    .onMessage(Watch.class, w -> {
                        onWatch(w);
                        return Behaviors.same();
                    })
                    .onMessage(WatcherGone.class, g -> {
                        watchers.remove(g.id());
                        return Behaviors.same();
                    })
                    .onMessage(Tick.class, t -> onTick())
                    .onMessage(PositionRead.class, p -> {
                        pendingPosition = p.offset() == null ? null : p; // a failed read: try again next interval
                        return Behaviors.same();
                    })
                    .onMessage(Loaded.class, l -> Behaviors.same())
                    .onMessage(LoadFailed.class, l -> Behaviors.same())
                    .onSignal(PreRestart.class, s -> stopAll())
                    .onSignal(PostStop.class, s -> stopAll())
                    .build();
        }

        private Behavior<Command> stopAll() {
            cutOffAll(ApiStatus.expired("the watch cache of " + type.groupResource()
                    + " restarted; list again and watch from the new resourceVersion"));
            ready.set(false);
            return Behaviors.same();
        }

        private void apply(Revisions.Published batch) {
            Instant now = clock.instant();
            for (PublishedEvent e : batch.events()) {
                CacheState before = state;
                state = state.catchUp(new WatchEvent(e.type(), e.resourceVersion(), new ObjectKey(e.namespace(), e.name()),
                        e.object(), e.previous()), now);
                Optional<CachedEvent> applied = state.latestEvent();
                if (state != before && applied.isPresent() && applied.get().resourceVersion() == e.resourceVersion()) {
                    lastChangeVersion = e.resourceVersion();
                    deliver(applied.get(), now);
                }
            }
            if (batch.upTo() > state.resourceVersion()) {
                state = state.advance(batch.upTo(), now);
            }
            quota.record(type.groupResource(), state.bytes());
        }

        private void deliver(CachedEvent event, Instant now) {
            if (watchers.isEmpty()) {
                return;
            }
            for (Iterator<Watcher> it = watchers.values().iterator(); it.hasNext(); ) {
                Watcher w = it.next();
                if (event.resourceVersion() <= w.liveAfter) {
                    continue;
                }
                Optional<Delivery> d = w.filter.deliver(event);
                if (d.isPresent() && !offer(w, d.get(), now)) {
                    it.remove();
                }
            }
        }

        /** Queues one event for a watcher; false when the watcher is gone or has just been cut off. */
        private boolean offer(Watcher w, StreamEvent event, Instant now) {
            QueueOfferResult result = w.queue.offer(event);
            if (result == QueueOfferResult.enqueued()) {
                w.lastSent = now;
                return true;
            }
            if (result == QueueOfferResult.dropped()) {
                cutOff(w, ApiStatus.expired("the watcher of " + type.groupResource()
                        + " could not keep up; watch again from the last resourceVersion it received"));
            }
            return false;
        }

        private void cutOffAll(ApiStatus status) {
            for (Watcher w : watchers.values()) {
                cutOff(w, status);
            }
            watchers.clear();
        }

        /** Ends a watcher's stream with {@code status}; a stream that already ended stays ended. */
        private static void cutOff(Watcher w, ApiStatus status) {
            try {
                w.queue.fail(new CutOff(status));
            } catch (IllegalStateException alreadyEnded) {
                // the client went away, or the stream was stopped with the actor system
            }
        }

        private Behavior<Command> park(Command request, Duration wait) {
            if (parked.size() >= MAX_PARKED) {
                ApiStatus busy = ApiStatus.tooManyRequests("too many requests wait for the " + type.groupResource()
                        + " cache", 1);
                if (request instanceof Read r) {
                    r.replyTo().tell(new ReadFailed(busy));
                } else {
                    ((Watch) request).replyTo().tell(new WatchFailed(busy));
                }
            } else {
                parked.add(new Parked(request, clock.instant().plus(wait)));
            }
            return Behaviors.same();
        }

        private void answerParked() {
            if (parked.isEmpty() || state == null || !state.ready()) {
                return;
            }
            List<Parked> waiting = new ArrayList<>(parked);
            parked.clear();
            for (Parked p : waiting) {
                if (p.request() instanceof Read r) {
                    if (!tryRead(r)) {
                        parked.add(p);
                    }
                } else if (!tryWatch((Watch) p.request())) {
                    parked.add(p);
                }
            }
        }

        private void onRead(Read r) {
            if (!tryRead(r)) {
                park(r, r.maxWait());
            }
        }

        /** Answers the read if the cache can; false when it must wait. */
        private boolean tryRead(Read r) {
            CacheRead.Outcome o = r.read().resolve(state, clock.instant(), settings.continueTokenTtl());
            if (o instanceof CacheRead.Outcome.Ready ready) {
                r.replyTo().tell(new Snapshotted(ready.snapshot()));
                return true;
            }
            if (o instanceof CacheRead.Outcome.Failed failed) {
                r.replyTo().tell(new ReadFailed(failed.status()));
                return true;
            }
            return false;
        }

        private void onWatch(Watch w) {
            if (!tryWatch(w)) {
                park(w, w.maxWait());
            }
        }

        /** Starts the watch if the cache can; false when it must wait. */
        private boolean tryWatch(Watch w) {
            WatchStart.Outcome o = w.start().resolve(state, w.filter());
            if (o instanceof WatchStart.Outcome.Wait) {
                return false;
            }
            if (o instanceof WatchStart.Outcome.TooOld tooOld) {
                Optional<History> history = sources.history();
                w.replyTo().tell(new Watching(history.isPresent()
                        ? resumeFromJournal(w, history.get(), tooOld.status())
                        : Source.single(new StreamEvent.Failure(tooOld.status()))));
                return true;
            }
            WatchStart.Outcome.Ready ready = (WatchStart.Outcome.Ready) o;
            w.replyTo().tell(new Watching(register(w, ready, ready.startVersion())));
            return true;
        }

        /** Registers the watcher for live events and returns its whole stream; it started at {@code startVersion}. */
        private Source<StreamEvent, NotUsed> register(Watch w, WatchStart.Outcome.Ready ready, long startVersion) {
            long id = ++nextWatcherId;
            Pair<BoundedSourceQueue<StreamEvent>, Source<StreamEvent, NotUsed>> queue =
                    Source.<StreamEvent>queue(settings.watcherBuffer()).preMaterialize(materializer);
            Instant now = clock.instant();
            watchers.put(id, new Watcher(id, w.filter(), w.bookmarks(),
                    BookmarkSchedule.of(settings.bookmarkInterval(), now, w.timeout()), queue.first(),
                    ready.liveAfter(), startVersion, now));
            Source<StreamEvent, NotUsed> initial = Source.from(ready.initial()).map(d -> (StreamEvent) d);
            if (w.initialEventsEnd()) {
                initial = initial.concat(Source.single(new StreamEvent.Bookmark(ready.startVersion(), true)));
            }
            ActorRef<Command> self = ctx.getSelf();
            Source<StreamEvent, NotUsed> live = queue.second()
                    .recover(new PFBuilder<Throwable, StreamEvent>()
                            .match(CutOff.class, e -> new StreamEvent.Failure(e.status)).build());
            return initial
                    .concat(Source.from(ready.replay()).map(d -> (StreamEvent) d))
                    .concat(live)
                    .watchTermination((notUsed, done) -> {
                        done.whenComplete((Done d, Throwable t) -> self.tell(new WatcherGone(id)));
                        return NotUsed.getInstance();
                    });
        }

        /**
         * A watch from before the window: the journal's events up to the window's start, then the
         * window's, then live ones. The watcher is registered now, so nothing between the parts is
         * lost; its queue holds the live events while the journal is read (bounded as always).
         */
        private Source<StreamEvent, NotUsed> resumeFromJournal(Watch w, History history, ApiStatus tooOld) {
            long from = w.start().version();
            long windowStart = state.oldestVersion();
            Instant now = clock.instant();
            Instant horizon = now.minus(settings.history().retention());
            Map.Entry<Long, Checkpoint> floor = checkpoints.floorEntry(from);
            Map.Entry<Long, Checkpoint> first = checkpoints.firstEntry();
            if (floor == null && first != null && first.getValue().at().isBefore(horizon)) {
                // The cache was already past this version before the retention horizon.
                return Source.single(new StreamEvent.Failure(tooOld));
            }
            Offset offset = floor == null ? Offset.noOffset() : floor.getValue().offset();
            ctx.getLog().debug("{}: a watch from {} resumes from the journal at {} (the window starts at {})",
                    type.groupResource(), from, offset, windowStart);
            WatchStart.Outcome.Ready window = (WatchStart.Outcome.Ready)
                    new WatchStart(WatchStart.Target.AFTER, windowStart, false).resolve(state, w.filter());
            Source<StreamEvent, NotUsed> journal = Source.completionStage(
                            history.between(from, windowStart, offset, settings.history().maxEvents()))
                    .mapConcat(events -> journalDeliveries(events, w.filter(), horizon, tooOld));
            Source<StreamEvent, NotUsed> rest = register(w, window, from);
            return journal.concat(rest).takeWhile(e -> !(e instanceof StreamEvent.Failure), true);
        }

        /** The journal's events as the watcher sees them, or 410 when they are too many or too old. */
        private List<StreamEvent> journalDeliveries(Optional<List<Historic>> events, WatchFilter filter,
                                                    Instant horizon, ApiStatus tooOld) {
            if (events.isEmpty()
                    || !events.get().isEmpty() && Instant.ofEpochMilli(events.get().get(0).committedAt()).isBefore(horizon)) {
                return List.of(new StreamEvent.Failure(tooOld));
            }
            io.kubepekko.api.watch.CachedObjectReader reader = new io.kubepekko.api.watch.CachedObjectReader(type);
            List<StreamEvent> out = new ArrayList<>();
            for (Historic h : events.get()) {
                PublishedEvent e = h.event();
                io.kubepekko.api.watch.CachedObject object = reader.read(e.object(),
                        new ObjectKey(e.namespace(), e.name()), e.resourceVersion());
                io.kubepekko.api.watch.CachedObject previous = e.previous() == null ? null : reader.read(e.previous());
                filter.deliver(new CachedEvent(e.type(), e.resourceVersion(), object, previous))
                        .ifPresent(out::add);
            }
            return out;
        }

        /** Notes where the journal is now and then, and pairs each position with the version reached a margin later. */
        private void checkpoint(Instant now) {
            Optional<History> history = sources.history();
            if (history.isEmpty() || state == null || !state.ready()) {
                return;
            }
            HistorySettings h = settings.history();
            if (pendingPosition != null && !now.isBefore(pendingPosition.at().plus(h.checkpointMargin()))) {
                checkpoints.put(state.resourceVersion(),
                        new Checkpoint(state.resourceVersion(), pendingPosition.offset(), now));
                pendingPosition = null;
            }
            if (pendingPosition == null && !now.isBefore(lastPositionRequest.plus(h.checkpointInterval()))) {
                lastPositionRequest = now;
                ctx.pipeToSelf(history.get().position(), (offset, error) -> offset != null
                        ? new PositionRead(now, offset) : new PositionRead(now, null));
            }
            // Keep those inside the retention and the newest one older: it proves older versions expired.
            Instant horizon = now.minus(h.retention());
            while (checkpoints.size() > 1) {
                Map.Entry<Long, Checkpoint> oldest = checkpoints.firstEntry();
                Map.Entry<Long, Checkpoint> next = checkpoints.higherEntry(oldest.getKey());
                if (next == null || !next.getValue().at().isBefore(horizon)) {
                    break;
                }
                checkpoints.pollFirstEntry();
            }
        }

        private Behavior<Command> onTick() {
            Instant now = clock.instant();
            checkpoint(now);
            if (now.isAfter(lastHeard.plus(settings.resubscribeAfter()))) {
                ctx.getLog().debug("{}: no word from Revisions for {}, subscribing again", type.groupResource(),
                        settings.resubscribeAfter());
                subscribe();
            }
            if (state == null && epoch != null && !loadInFlight && !now.isBefore(loadAfter)) {
                startLoad(); // the back-off after a failed load is over
            }
            checkServing(now);
            if (state != null) {
                state = state.expire(now);
                if (state.ready()) {
                    sendBookmarks(now);
                }
            }
            expireParked(now);
            return Behaviors.same();
        }

        /** Publishes whether the cache serves ({@code /readyz}), and says so in the log once it serves again. */
        private void updateReady() {
            boolean serving = state != null && state.ready();
            ready.set(serving);
            Instant now = clock.instant();
            if (!serving) {
                if (unreadySince == null) {
                    unreadySince = now;
                }
            } else if (unreadySince != null) {
                if (notServing.clear()) {
                    ctx.getLog().info("the {} cache serves again, after {} without", type.groupResource(),
                            Duration.between(unreadySince, now));
                }
                unreadySince = null;
            }
        }

        /**
         * A cache that has loaded but not caught up for long waits for a version its stream does not reach:
         * its sequencer has not resolved a version below it (it gives one up after 45 s and starts a new
         * epoch, or its storage is down). It says so, and subscribes again now and then even though the
         * stream is not silent: the acknowledgement comes from whoever sequences the group-resource now, so
         * a stream that stopped moving (or a sequencer that was replaced) shows as a new epoch or a gap.
         * One that gets no answer to its subscription says so too. A load that fails says why itself.
         */
        private void checkServing(Instant now) {
            if (unreadySince == null || now.isBefore(unreadySince.plus(CATCH_UP_PATIENCE))) {
                return;
            }
            Duration waited = Duration.between(unreadySince, now);
            if (state != null && !state.ready()) {
                notServing.warn(ctx.getLog(), now, "the {} cache has not served for {}: it waits for the change"
                                + " stream to reach resourceVersion {} (the newest its collections held when read),"
                                + " but the stream of epoch {} is at {}, last heard from {} ago; an earlier version"
                                + " is unresolved (is the storage down?); subscribing again",
                        type.groupResource(), waited, state.readyAt(), epoch, state.resourceVersion(),
                        Duration.between(lastHeard, now));
                if (!now.isBefore(lastSubscribed.plus(settings.resubscribeAfter()))) {
                    subscribe();
                }
            } else if (epoch == null) {
                notServing.warn(ctx.getLog(), now, "the {} cache has not served for {}: its sequencer (Revisions) has"
                        + " not answered its subscription (is the storage down?); subscribing again every {}",
                        type.groupResource(), waited, settings.resubscribeAfter());
            }
        }

        private void sendBookmarks(Instant now) {
            long version = settings.progressBookmarks() ? state.resourceVersion() : lastChangeVersion;
            StreamEvent bookmark = new StreamEvent.Bookmark(version, false);
            for (Iterator<Watcher> it = watchers.values().iterator(); it.hasNext(); ) {
                Watcher w = it.next();
                if (w.bookmarks && version > w.startVersion && w.bookmarkSchedule.due(w.lastSent, now)
                        && !offer(w, bookmark, now)) {
                    it.remove();
                }
            }
        }

        private void expireParked(Instant now) {
            if (parked.isEmpty()) {
                return;
            }
            for (Iterator<Parked> it = parked.iterator(); it.hasNext(); ) {
                Parked p = it.next();
                if (p.deadline().isAfter(now)) {
                    continue;
                }
                it.remove();
                if (p.request() instanceof Read r) {
                    r.replyTo().tell(new ReadFailed(r.read().timedOut(state)));
                } else {
                    Watch w = (Watch) p.request();
                    w.replyTo().tell(new Watching(Source.single(new StreamEvent.Failure(w.start().timedOut(state)))));
                }
            }
        }
    }
}
