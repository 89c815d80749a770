package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchEvent;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.UniqueKillSwitch;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.typed.javadsl.ActorSink;

/**
 * A list-watch client of one resource type's watch cache, as a client-go informer: it lists
 * everything (through {@link ControlPlane#list}), tells its consumer the complete state ({@link
 * Synced}), then watches from the list's resourceVersion and relays each change ({@link Changed}).
 * A watch that ends is resumed from the last version seen; a 410 (or any failure) means a new list,
 * after a back-off that grows with consecutive failures.
 *
 * <p>The watch stream feeds this actor with backpressure (one event at a time), so the only buffer
 * is the watch cache's bounded per-watcher queue; a consumer too slow for it gets cut off there
 * with a 410 and catches up by the relist.
 */
public final class Informer extends AbstractBehavior<Informer.Command> {

    /** What a consumer receives. */
    public sealed interface Event {
        ResourceType type();
    }

    /**
     * The complete current state of {@code type}: after the first list and every relist. Its
     * objects are parsed as they are read, so a consumer that keeps a few fields of each never
     * holds every parsed object at once (four pod informers of a restart with 100,000 pods did, and
     * the server ran out of its 2 GiB heap); each read parses again, so read each object once.
     */
    public record Synced(ResourceType type, List<ObjectNode> objects) implements Event {}

    /** One committed change, in resourceVersion order, after the last {@link Synced}. */
    public record Changed(ResourceType type, WatchEvent.Type change, ObjectNode object)
            implements Event {}

    /** Where an informer lists and watches: the control plane's watch caches (a fake in tests). */
    public interface ListWatch {
        /**
         * Every object of {@code type}, consistent ("Most Recent"), with the list's
         * resourceVersion.
         */
        CompletionStage<ListChunk> list(ResourceType type);

        /**
         * The changes of {@code type} after {@code resourceVersion}; a 410 is the stream's Failure
         * event.
         */
        CompletionStage<Source<StreamEvent, NotUsed>> watch(
                ResourceType type, long resourceVersion);

        /** Lists and watches through {@code controlPlane}, across all namespaces. */
        static ListWatch of(ControlPlane controlPlane) {
            return of(controlPlane, "");
        }

        /**
         * Lists and watches through {@code controlPlane}, across all namespaces, only the objects
         * {@code fieldSelector} selects: the watch cache filters on the fields it keeps for each
         * object, so the others never reach the informer's stream nor its parser.
         */
        static ListWatch of(ControlPlane controlPlane, String fieldSelector) {
            return new ListWatch() {
                @Override
                public CompletionStage<ListChunk> list(ResourceType type) {
                    return controlPlane.list(
                            type,
                            null,
                            new ReadOptions(
                                    ReadOptions.Verb.LIST,
                                    ReadOptions.MOST_RECENT,
                                    0,
                                    false,
                                    false,
                                    null,
                                    "",
                                    fieldSelector));
                }

                @Override
                public CompletionStage<Source<StreamEvent, NotUsed>> watch(
                        ResourceType type, long resourceVersion) {
                    return controlPlane.watch(
                            type,
                            null,
                            new ReadOptions(
                                    ReadOptions.Verb.WATCH,
                                    new ReadOptions.Mode.Exact(resourceVersion),
                                    0,
                                    true,
                                    false,
                                    null,
                                    "",
                                    fieldSelector));
                }
            };
        }
    }

    /** The informer's protocol; only its own stream and timers send these. */
    public sealed interface Command {}

    private record Listed(List<byte[]> items, long resourceVersion) implements Command {}

    private record Started(long run, Source<StreamEvent, NotUsed> events) implements Command {}

    private record Failed(long run, Throwable cause) implements Command {}

    private record StreamInit(long run, ActorRef<Ack> ackTo) implements Command {}

    private record Element(long run, ActorRef<Ack> ackTo, StreamEvent event) implements Command {}

    private record StreamEnded(long run, Throwable cause) implements Command {}

    private enum Retry implements Command {
        RELIST,
        REWATCH
    }

    /** The stream's acknowledgement: the informer is ready for the next event. */
    enum Ack {
        ACK
    }

    private final ListWatch source;
    private final ResourceType type;
    private final ActorRef<Event> consumer;
    private final Backoff backoff;
    private final TimerScheduler<Command> timers;
    private final Function<byte[], ObjectNode> reader;
    private long resourceVersion;

    /** Every list or watch attempt gets a number; messages of older ones are ignored. */
    private long run;

    private int failures;
    private UniqueKillSwitch stream;

    /** An informer of {@code type} telling {@code consumer} the objects, parsed whole. */
    public static Behavior<Command> create(
            ListWatch source, ResourceType type, ActorRef<Event> consumer, Backoff backoff) {
        return create(source, type, consumer, backoff, Json::parseTrusted);
    }

    /**
     * An informer whose objects are what {@code reader} makes of the stored JSON: a consumer that
     * needs only metadata parses only metadata (it sees every write of the kind).
     */
    public static Behavior<Command> create(
            ListWatch source,
            ResourceType type,
            ActorRef<Event> consumer,
            Backoff backoff,
            Function<byte[], ObjectNode> reader) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new Informer(
                                                ctx, source, type, consumer, backoff, reader,
                                                timers)));
    }

    private Informer(
            ActorContext<Command> ctx,
            ListWatch source,
            ResourceType type,
            ActorRef<Event> consumer,
            Backoff backoff,
            Function<byte[], ObjectNode> reader,
            TimerScheduler<Command> timers) {
        super(ctx);
        this.reader = reader;
        this.source = source;
        this.type = type;
        this.consumer = consumer;
        this.backoff = backoff;
        this.timers = timers;
        list();
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Listed.class, this::onListed)
                .onMessage(Started.class, this::onStarted)
                .onMessage(Failed.class, this::onFailed)
                .onMessage(StreamInit.class, this::onStreamInit)
                .onMessage(Element.class, this::onElement)
                .onMessage(StreamEnded.class, this::onStreamEnded)
                .onMessageEquals(
                        Retry.RELIST,
                        () -> {
                            list();
                            return this;
                        })
                .onMessageEquals(
                        Retry.REWATCH,
                        () -> {
                            watch();
                            return this;
                        })
                .onSignal(
                        PostStop.class,
                        s -> {
                            stopStream();
                            return this;
                        })
                .build();
    }

    private void list() {
        stopStream();
        long attempt = ++run;
        getContext()
                .pipeToSelf(
                        source.list(type),
                        (chunk, e) ->
                                e != null
                                        ? new Failed(attempt, e)
                                        : new Listed(chunk.items(), chunk.resourceVersion()));
    }

    private Behavior<Command> onListed(Listed listed) {
        resourceVersion = listed.resourceVersion();
        failures = 0;
        consumer.tell(new Synced(type, new ParsedOnRead(listed.items(), reader)));
        watch();
        return this;
    }

    /**
     * A list's stored objects, each parsed by the informer's reader when it is read. The bytes are
     * the watch cache's own (immutable and shared), so the list costs a reference per object.
     */
    private static final class ParsedOnRead extends AbstractList<ObjectNode>
            implements RandomAccess {
        private final List<byte[]> items;
        private final Function<byte[], ObjectNode> reader;

        ParsedOnRead(List<byte[]> items, Function<byte[], ObjectNode> reader) {
            this.items = items;
            this.reader = reader;
        }

        @Override
        public ObjectNode get(int index) {
            return reader.apply(items.get(index));
        }

        @Override
        public int size() {
            return items.size();
        }
    }

    private void watch() {
        stopStream();
        long attempt = ++run;
        getContext()
                .pipeToSelf(
                        source.watch(type, resourceVersion),
                        (events, e) ->
                                e != null ? new Failed(attempt, e) : new Started(attempt, events));
    }

    private Behavior<Command> onStarted(Started started) {
        if (started.run() != run) {
            return this;
        }
        long attempt = started.run();
        stream =
                started.events()
                        .viaMat(KillSwitches.single(), Keep.right())
                        .toMat(
                                ActorSink.<StreamEvent, Command, Ack>actorRefWithBackpressure(
                                        getContext().getSelf(),
                                        (ackTo, event) -> new Element(attempt, ackTo, event),
                                        ackTo -> new StreamInit(attempt, ackTo),
                                        Ack.ACK,
                                        new StreamEnded(attempt, null),
                                        cause -> new StreamEnded(attempt, cause)),
                                Keep.left())
                        .run(getContext().getSystem());
        return this;
    }

    private Behavior<Command> onStreamInit(StreamInit init) {
        init.ackTo().tell(Ack.ACK);
        return this;
    }

    private Behavior<Command> onElement(Element element) {
        if (element.run() != run) {
            element.ackTo().tell(Ack.ACK);
            return this;
        }
        StreamEvent event = element.event();
        if (!(event instanceof StreamEvent.Failure)) {
            failures = 0;
        }
        if (event instanceof Delivery d) {
            resourceVersion = d.resourceVersion();
            consumer.tell(new Changed(type, d.type(), reader.apply(d.object().json())));
        } else if (event instanceof StreamEvent.Bookmark b) {
            resourceVersion = Math.max(resourceVersion, b.resourceVersion());
        } else if (event instanceof StreamEvent.Failure f) {
            // 410 Expired (or a watcher cut off): what was missed is only in a new list.
            getContext()
                    .getLog()
                    .debug(
                            "watch of {} failed ({}); relisting",
                            type.groupResource(),
                            f.status().message());
            retry(Retry.RELIST);
            return this;
        }
        element.ackTo().tell(Ack.ACK);
        return this;
    }

    private Behavior<Command> onStreamEnded(StreamEnded ended) {
        if (ended.run() != run) {
            return this;
        }
        stream = null;
        if (ended.cause() != null) {
            retry(Retry.RELIST);
        } else {
            // An ended watch (a timeout, a closed stream) resumes where it was.
            retry(Retry.REWATCH);
        }
        return this;
    }

    private Behavior<Command> onFailed(Failed failed) {
        if (failed.run() == run) {
            getContext()
                    .getLog()
                    .debug(
                            "list/watch of {} failed: {}",
                            type.groupResource(),
                            failed.cause().toString());
            retry(Retry.RELIST);
        }
        return this;
    }

    private void retry(Retry what) {
        stopStream();
        run++; // whatever is still under way belongs to an attempt given up
        timers.startSingleTimer(Retry.RELIST, what, backoff.after(failures++));
    }

    private void stopStream() {
        if (stream != null) {
            stream.shutdown();
            stream = null;
        }
    }
}
