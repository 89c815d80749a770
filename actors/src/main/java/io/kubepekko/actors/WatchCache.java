package io.kubepekko.actors;

import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.watch.CacheState;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.Page;
import io.kubepekko.api.watch.Retention;
import io.kubepekko.api.watch.Selection;
import io.kubepekko.api.watch.WatchEvent;
import io.kubepekko.persistence.CborSerializable;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The node-local cache of one group-resource (work in progress for the list/watch issue: not yet
 * used by the request path). It subscribes to the ordered stream of its {@link Revisions}, loads
 * the collections' objects, catches up with the stream ({@link CacheState#warmStart}), and then
 * serves reads that must reflect at least a given version, parking them (bounded) until the cache
 * has caught up.
 */
public final class WatchCache {
    private WatchCache() {}

    /** Parked reads beyond this answer 429. */
    static final int MAX_PARKED = 10_000;
    /** Stream batches buffered while loading; beyond this the load starts over. */
    static final int MAX_BUFFERED = 10_000;

    /** Protocol of {@link WatchCache}. */
    public sealed interface Command extends CborSerializable permits Stream, Loaded, LoadFailed, ReadLatest {}

    /** Internal: a batch of the ordered stream. */
    public record Stream(Revisions.Published batch) implements Command {}

    /** Internal: the collections' objects, read after the stream had been released up to {@code startVersion}. */
    public record Loaded(long startVersion, List<byte[]> objects) implements Command {}

    /** Internal: loading failed; it starts over. */
    public record LoadFailed(String reason) implements Command {}

    /**
     * Lists the objects selected in {@code namespace} (null: all) once the cache reflects at least
     * {@code atLeast}.
     */
    public record ReadLatest(long atLeast, String namespace, String labelSelector, String fieldSelector,
                             ActorRef<ReadReply> replyTo) implements Command {}

    /** The answer to a {@link ReadLatest}. */
    public sealed interface ReadReply extends CborSerializable permits Listed, ReadFailed {}

    public record Listed(long resourceVersion, List<byte[]> items) implements ReadReply {}

    public record ReadFailed(ApiStatus status) implements ReadReply {}

    /** Where the cache reads from: its Revisions and a full read of the group-resource's collections. */
    public interface Sources {
        RecipientRef<Revisions.Command> revisions();

        /** Asks Revisions for its published version L, then reads every collection's objects. */
        CompletionStage<Loaded> load();
    }

    public static Behavior<Command> create(ResourceType type, Sources sources, Retention retention, Clock clock) {
        return Behaviors.setup(ctx -> new Instance(ctx, type, sources, retention, clock).loading());
    }

    private static final class Instance {
        private final ActorContext<Command> ctx;
        private final ResourceType type;
        private final Sources sources;
        private final Retention retention;
        private final Clock clock;
        private final ArrayDeque<ReadLatest> parked = new ArrayDeque<>();
        private final List<Revisions.Published> buffered = new ArrayList<>();
        private String epoch;
        private CacheState state;

        Instance(ActorContext<Command> ctx, ResourceType type, Sources sources, Retention retention, Clock clock) {
            this.ctx = ctx;
            this.type = type;
            this.sources = sources;
            this.retention = retention;
            this.clock = clock;
            ActorRef<Revisions.Published> stream = ctx.messageAdapter(Revisions.Published.class, Stream::new);
            sources.revisions().tell(new Revisions.Subscribe(stream));
        }

        /** Subscribed: buffer the stream while the objects are read. */
        Behavior<Command> loading() {
            buffered.clear();
            state = null;
            epoch = null; // the first batch after (re)loading names the epoch the load belongs to
            ctx.pipeToSelf(sources.load(), (loaded, error) -> loaded != null ? loaded
                    : new LoadFailed(String.valueOf(error == null ? null : error.getMessage())));
            return Behaviors.receive(Command.class)
                    .onMessage(Stream.class, s -> {
                        if (buffered.size() >= MAX_BUFFERED) {
                            return loading();
                        }
                        buffered.add(s.batch());
                        return Behaviors.same();
                    })
                    .onMessage(Loaded.class, this::onLoaded)
                    .onMessage(LoadFailed.class, f -> {
                        ctx.getLog().warn("loading the {} cache failed, starting over: {}", type.groupResource(), f.reason());
                        return loading();
                    })
                    .onMessage(ReadLatest.class, this::park)
                    .build();
        }

        private Behavior<Command> onLoaded(Loaded loaded) {
            state = CacheState.warmStart(type, retention, loaded.objects(), loaded.startVersion());
            for (Revisions.Published batch : buffered) {
                if (!sameEpoch(batch)) {
                    return loading();
                }
                apply(batch);
            }
            buffered.clear();
            answerParked();
            return running();
        }

        Behavior<Command> running() {
            return Behaviors.receive(Command.class)
                    .onMessage(Stream.class, s -> {
                        if (!sameEpoch(s.batch())) {
                            ctx.getLog().info("{}: Revisions restarted, rebuilding the cache", type.groupResource());
                            return loading();
                        }
                        apply(s.batch());
                        answerParked();
                        return Behaviors.same();
                    })
                    .onMessage(ReadLatest.class, r -> {
                        if (state.ready() && state.resourceVersion() >= r.atLeast()) {
                            answer(r);
                            return Behaviors.same();
                        }
                        return park(r);
                    })
                    .onMessage(Loaded.class, l -> Behaviors.same())
                    .onMessage(LoadFailed.class, l -> Behaviors.same())
                    .build();
        }

        private boolean sameEpoch(Revisions.Published batch) {
            if (epoch == null) {
                epoch = batch.epoch();
            }
            return epoch.equals(batch.epoch());
        }

        private void apply(Revisions.Published batch) {
            for (PublishedEvent e : batch.events()) {
                WatchEvent.Type t = WatchEvent.Type.valueOf(e.type());
                state = state.catchUp(new WatchEvent(t, e.resourceVersion(), new ObjectKey(e.namespace(), e.name()),
                        e.object(), e.previous()), clock.instant());
            }
            if (batch.upTo() > state.resourceVersion()) {
                state = state.advance(batch.upTo(), clock.instant());
            }
        }

        private Behavior<Command> park(ReadLatest r) {
            if (parked.size() >= MAX_PARKED) {
                r.replyTo().tell(new ReadFailed(ApiStatus.tooManyRequests(
                        "too many reads wait for the " + type.groupResource() + " cache", 1)));
            } else {
                parked.add(r);
            }
            return Behaviors.same();
        }

        private void answerParked() {
            if (state == null || !state.ready()) {
                return;
            }
            for (Iterator<ReadLatest> it = parked.iterator(); it.hasNext(); ) {
                ReadLatest r = it.next();
                if (state.resourceVersion() >= r.atLeast()) {
                    it.remove();
                    answer(r);
                }
            }
        }

        private void answer(ReadLatest r) {
            try {
                Selection selection = Selection.parse(type, r.labelSelector(), r.fieldSelector());
                Page page = state.snapshotLatest().list(r.namespace(), selection, 0, null);
                r.replyTo().tell(new Listed(state.resourceVersion(), page.items()));
            } catch (ApiException e) {
                r.replyTo().tell(new ReadFailed(e.status()));
            }
        }
    }
}
