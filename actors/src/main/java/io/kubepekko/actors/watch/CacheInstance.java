package io.kubepekko.actors.watch;

import io.kubepekko.actors.PublishedEvent;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.actors.watch.WatchCache.Command;
import io.kubepekko.actors.watch.WatchCache.Contents;
import io.kubepekko.actors.watch.WatchCache.LoadFailed;
import io.kubepekko.actors.watch.WatchCache.Loaded;
import io.kubepekko.actors.watch.WatchCache.PositionRead;
import io.kubepekko.actors.watch.WatchCache.Read;
import io.kubepekko.actors.watch.WatchCache.ReadFailed;
import io.kubepekko.actors.watch.WatchCache.Settings;
import io.kubepekko.actors.watch.WatchCache.Snapshotted;
import io.kubepekko.actors.watch.WatchCache.Sources;
import io.kubepekko.actors.watch.WatchCache.Stream;
import io.kubepekko.actors.watch.WatchCache.Tick;
import io.kubepekko.actors.watch.WatchCache.Watch;
import io.kubepekko.actors.watch.WatchCache.WatchFailed;
import io.kubepekko.actors.watch.WatchCache.WatcherGone;
import io.kubepekko.actors.watch.WatchCache.Watching;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.CacheRead;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.CachedEvent;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.StreamFollower;
import io.kubepekko.api.watch.WaitingRequests;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.api.watch.WatchStart;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.PreRestart;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Source;

/**
 * One running {@link WatchCache} (see there for how it starts, follows its stream and rebuilds):
 * the state it holds and the order in which it handles its messages. The decisions are pure values
 * of {@code api.watch} ({@link StreamFollower}, {@link WaitingRequests}, {@link CacheRead}, {@link
 * WatchStart}); the work is done by its collaborators: {@link CollectionLoads} (loading with
 * back-off), {@link Watchers} (fan-out, bookmarks, cut-off), {@link JournalResume} (watches older
 * than the window) and {@link CacheServing} (whether it serves, and the warnings why not).
 */
final class CacheInstance {

    /** Parked reads and watches beyond this answer 429. */
    static final int MAX_PARKED = 10_000;

    /** Stream batches buffered while loading; beyond this the load starts over. */
    static final int MAX_BUFFERED = 10_000;

    private final ActorContext<Command> ctx;
    private final ResourceType type;
    private final Sources sources;
    private final Settings settings;
    private final Clock clock;
    private final StorageQuota quota;
    private final ActorRef<RevisionsProtocol.Published> stream;
    private final StoreMetrics.CacheEvents received;
    private final WaitingRequests<Command> parked = new WaitingRequests<>(MAX_PARKED);
    private final List<RevisionsProtocol.Published> buffered = new ArrayList<>();
    private final Watchers watchers;

    /** Present when the cache has the journal's history to resume old watches from. */
    private final Optional<JournalResume> journal;

    private final CollectionLoads loads;
    private final StreamFollower follower = new StreamFollower();
    private CacheState state;

    /**
     * The version of the last change applied: bookmarks carry it when progress bookmarks are off.
     */
    private long lastChangeVersion;

    private Instant lastHeard;
    private Instant lastSubscribed;
    private final CacheServing serving;

    CacheInstance(
            ActorContext<Command> ctx,
            ResourceType type,
            Sources sources,
            Settings settings,
            Clock clock,
            AtomicBoolean ready,
            StorageQuota quota) {
        this.quota = quota;
        this.ctx = ctx;
        ctx.setLoggerName(WatchCache.class);
        this.type = type;
        this.sources = sources;
        this.settings = settings;
        this.clock = clock;
        this.serving = new CacheServing(type.groupResource(), ready, ctx.getLog());
        this.watchers =
                new Watchers(
                        type.groupResource(),
                        settings.watcherBuffer(),
                        settings.bookmarkInterval(),
                        Materializer.createMaterializer(ctx),
                        ctx.getSelf());
        this.loads = new CollectionLoads(ctx, sources::load, clock);
        this.journal =
                sources.history().map(h -> new JournalResume(ctx, type, h, settings.history()));
        this.stream = ctx.messageAdapter(RevisionsProtocol.Published.class, Stream::new);
        this.received =
                StoreMetrics.get(ctx.getSystem()).recorder().cacheEvents(type.groupResource());
        subscribe();
    }

    private void subscribe() {
        lastHeard = clock.instant();
        lastSubscribed = lastHeard;
        sources.revisions().tell(new RevisionsProtocol.Subscribe(stream));
    }

    /** Waiting for the subscription's acknowledgement, then for the collections' objects. */
    Behavior<Command> loading() {
        loads.restart();
        buffered.clear();
        state = null;
        follower.forget(); // the next batch (the acknowledgement) names the epoch and the start
        // version
        updateReady();
        return Behaviors.receive(Command.class)
                .onMessage(
                        Stream.class,
                        s -> {
                            lastHeard = clock.instant();
                            RevisionsProtocol.Published batch = s.batch();
                            StreamFollower.Batch kind =
                                    follower.classify(batch.epoch(), batch.after());
                            if (kind == StreamFollower.Batch.NEW_EPOCH) {
                                follower.acknowledged(batch.epoch(), batch.upTo());
                                buffered.clear();
                                loads.load();
                            } else if (buffered.size() >= MAX_BUFFERED
                                    || kind == StreamFollower.Batch.GAP) {
                                return loading(); // too far behind, or a batch was lost: start over
                            } else {
                                buffered.add(batch);
                                follower.followed(batch.upTo());
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

    /**
     * A failed load is tried again after a back-off, from the same start: the stream's batches
     * since the acknowledgement stay buffered, and objects read later may only be newer, which the
     * catch-up allows.
     */
    private Behavior<Command> onLoadFailed(LoadFailed f) {
        if (!loads.current(f.generation())) {
            return Behaviors.same();
        }
        Instant now = clock.instant();
        Duration wait = loads.failed(now);
        serving.loadFailed(now, loads.failures(), wait, f.reason());
        return Behaviors.same();
    }

    private Behavior<Command> onLoaded(Loaded loaded) {
        if (!loads.current(loaded.generation())) {
            return Behaviors.same();
        }
        loads.succeeded();
        Contents c = loaded.contents();
        state =
                CacheState.warmStart(
                        type,
                        settings.retention(),
                        c.objects(),
                        follower.startVersion(),
                        c.readVersion());
        lastChangeVersion = state.resourceVersion();
        for (RevisionsProtocol.Published batch : buffered) {
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
                .onMessage(
                        Stream.class,
                        s -> {
                            lastHeard = clock.instant();
                            StreamFollower.Batch kind =
                                    follower.classify(s.batch().epoch(), s.batch().after());
                            if (kind != StreamFollower.Batch.FOLLOWS) {
                                ctx.getLog()
                                        .info(
                                                kind == StreamFollower.Batch.NEW_EPOCH
                                                        ? "{}: the change stream has a new epoch, rebuilding the cache"
                                                        : "{}: changes after {} were lost on their way, rebuilding the cache",
                                                type.groupResource(),
                                                follower.upTo());
                                watchers.cutOffAll(
                                        ApiStatus.expired(
                                                "the watch cache of "
                                                        + type.groupResource()
                                                        + " is rebuilding; list again and watch from the new resourceVersion"));
                                Behavior<Command> next = loading();
                                // This batch acknowledges the new epoch: load from its version.
                                follower.acknowledged(s.batch().epoch(), s.batch().upTo());
                                loads.load();
                                return next;
                            }
                            follower.followed(s.batch().upTo());
                            apply(s.batch());
                            updateReady();
                            answerParked();
                            return Behaviors.same();
                        })
                .onMessage(Read.class, r -> tryRead(r) ? Behaviors.same() : park(r, r.maxWait()))
                .onMessage(Watch.class, w -> tryWatch(w) ? Behaviors.same() : park(w, w.maxWait()))
                .onMessage(
                        WatcherGone.class,
                        g -> {
                            watchers.remove(g.id());
                            return Behaviors.same();
                        })
                .onMessage(Tick.class, t -> onTick())
                .onMessage(
                        PositionRead.class,
                        p -> {
                            journal.ifPresent(j -> j.positionRead(p));
                            return Behaviors.same();
                        })
                .onMessage(Loaded.class, l -> Behaviors.same())
                .onMessage(LoadFailed.class, l -> Behaviors.same())
                .onSignal(PreRestart.class, s -> stopAll())
                .onSignal(PostStop.class, s -> stopAll())
                .build();
    }

    private Behavior<Command> stopAll() {
        watchers.cutOffAll(
                ApiStatus.expired(
                        "the watch cache of "
                                + type.groupResource()
                                + " restarted; list again and watch from the new resourceVersion"));
        serving.stopped();
        return Behaviors.same();
    }

    private void apply(RevisionsProtocol.Published batch) {
        Instant now = clock.instant();
        received.received(batch.events().size());
        for (PublishedEvent e : batch.events()) {
            CacheState before = state;
            state =
                    state.catchUp(
                            new WatchEvent(
                                    e.type(),
                                    e.resourceVersion(),
                                    new ObjectKey(e.namespace(), e.name()),
                                    e.object(),
                                    e.previous()),
                            now);
            Optional<CachedEvent> applied = state.latestEvent();
            if (state != before
                    && applied.isPresent()
                    && applied.get().resourceVersion() == e.resourceVersion()) {
                lastChangeVersion = e.resourceVersion();
                watchers.deliver(applied.get(), now);
            }
        }
        if (batch.upTo() > state.resourceVersion()) {
            state = state.advance(batch.upTo(), now);
        }
        quota.record(type.groupResource(), state.bytes());
    }

    private Behavior<Command> park(Command request, Duration wait) {
        if (!parked.park(request, clock.instant().plus(wait))) {
            ApiStatus busy =
                    ApiStatus.tooManyRequests(
                            "too many requests wait for the " + type.groupResource() + " cache", 1);
            if (request instanceof Read r) {
                r.replyTo().tell(new ReadFailed(busy));
            } else {
                ((Watch) request).replyTo().tell(new WatchFailed(busy));
            }
        }
        return Behaviors.same();
    }

    private void answerParked() {
        if (parked.isEmpty() || state == null || !state.ready()) {
            return;
        }
        parked.retry(p -> p instanceof Read r ? tryRead(r) : tryWatch((Watch) p));
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

    /** Starts the watch if the cache can; false when it must wait. */
    private boolean tryWatch(Watch w) {
        WatchStart.Outcome o = w.start().resolve(state, w.filter());
        if (o instanceof WatchStart.Outcome.Wait) {
            return false;
        }
        if (o instanceof WatchStart.Outcome.TooOld tooOld) {
            w.replyTo()
                    .tell(
                            new Watching(
                                    journal.isPresent()
                                            ? journal.get()
                                                    .resume(
                                                            w.start(),
                                                            w.filter(),
                                                            state,
                                                            tooOld.status(),
                                                            clock.instant(),
                                                            window ->
                                                                    watchers.register(
                                                                            w,
                                                                            window,
                                                                            w.start().version(),
                                                                            clock.instant()))
                                            : Source.single(
                                                    new StreamEvent.Failure(tooOld.status()))));
            return true;
        }
        WatchStart.Outcome.Ready ready = (WatchStart.Outcome.Ready) o;
        w.replyTo()
                .tell(
                        new Watching(
                                watchers.register(
                                        w, ready, ready.startVersion(), clock.instant())));
        return true;
    }

    private Behavior<Command> onTick() {
        Instant now = clock.instant();
        if (journal.isPresent() && state != null && state.ready()) {
            journal.get().tick(now, state.resourceVersion());
        }
        if (now.isAfter(lastHeard.plus(settings.resubscribeAfter()))) {
            ctx.getLog()
                    .debug(
                            "{}: no word from Revisions for {}, subscribing again",
                            type.groupResource(),
                            settings.resubscribeAfter());
            subscribe();
        }
        if (state == null && follower.epoch() != null) {
            loads.retryDue(now);
        }
        if (serving.check(
                now,
                state,
                follower.epoch(),
                lastHeard,
                lastSubscribed,
                settings.resubscribeAfter())) {
            subscribe();
        }
        if (state != null) {
            state = state.expire(now);
            if (state.ready()) {
                watchers.sendBookmarks(
                        settings.progressBookmarks() ? state.resourceVersion() : lastChangeVersion,
                        now);
            }
        }
        expireParked(now);
        return Behaviors.same();
    }

    /** Publishes whether the cache serves ({@code /readyz}). */
    private void updateReady() {
        serving.update(state != null && state.ready(), clock.instant());
    }

    private void expireParked(Instant now) {
        if (parked.isEmpty()) {
            return;
        }
        for (Command request : parked.expire(now)) {
            if (request instanceof Read r) {
                r.replyTo().tell(new ReadFailed(r.read().timedOut(state)));
            } else {
                Watch w = (Watch) request;
                w.replyTo()
                        .tell(
                                new Watching(
                                        Source.single(
                                                new StreamEvent.Failure(
                                                        w.start().timedOut(state)))));
            }
        }
    }
}
