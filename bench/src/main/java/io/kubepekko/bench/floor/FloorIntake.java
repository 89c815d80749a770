package io.kubepekko.bench.floor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.cluster.sharding.typed.javadsl.EntityRef;

/**
 * Gathers one namespace's creates while its collection writes the batch before, so that concurrent
 * creates share a journal write (as our server's batch intake does): at most one batch in flight,
 * of at most {@value #BATCH_OBJECTS} objects and about {@value #BATCH_BYTES} bytes. What waits is
 * bounded too: a create that would make more than {@value #WAITING_BYTES} bytes wait is refused
 * with {@link Busy} at once.
 */
final class FloorIntake extends AbstractBehavior<FloorIntake.Message> {
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(30);
    static final int BATCH_OBJECTS = 1000;
    static final int BATCH_BYTES = 4 << 20;
    static final long WAITING_BYTES = 64L << 20;

    /** The create was refused because too much is waiting to be written (a 429). */
    static final class Busy extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Busy() {
            super("too many creates waiting to be written", null, false, false);
        }
    }

    /** The intake's messages. */
    sealed interface Message {}

    /** A create; {@code done} completes with the object's revision once it is written. */
    record Offer(FloorCollection.Create create, CompletableFuture<Long> done) implements Message {}

    private record Written(List<Offer> batch, Long lastRevision, Throwable failure)
            implements Message {}

    private final EntityRef<FloorCollection.Command> collection;
    private final List<Offer> waiting = new ArrayList<>();
    private long waitingBytes;
    private boolean writing;

    private FloorIntake(
            ActorContext<Message> context, EntityRef<FloorCollection.Command> collection) {
        super(context);
        this.collection = collection;
    }

    static Behavior<Message> create(EntityRef<FloorCollection.Command> collection) {
        return Behaviors.setup(context -> new FloorIntake(context, collection));
    }

    @Override
    public Receive<Message> createReceive() {
        return newReceiveBuilder()
                .onMessage(Offer.class, this::onOffer)
                .onMessage(Written.class, this::onWritten)
                .build();
    }

    private Behavior<Message> onOffer(Offer offer) {
        int bytes = offer.create().json().length;
        if (waitingBytes + bytes > WAITING_BYTES) {
            offer.done().completeExceptionally(new Busy());
            return this;
        }
        waiting.add(offer);
        waitingBytes += bytes;
        if (!writing) {
            write();
        }
        return this;
    }

    private Behavior<Message> onWritten(Written written) {
        List<Offer> batch = written.batch();
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<Long> done = batch.get(i).done();
            if (written.failure() != null) {
                done.completeExceptionally(written.failure());
            } else {
                done.complete(written.lastRevision() - (batch.size() - 1 - i));
            }
        }
        writing = false;
        if (!waiting.isEmpty()) {
            write();
        }
        return this;
    }

    private void write() {
        int count = 0;
        long bytes = 0;
        while (count < waiting.size()
                && count < BATCH_OBJECTS
                && (count == 0 || bytes < BATCH_BYTES)) {
            bytes += waiting.get(count).create().json().length;
            count++;
        }
        List<Offer> batch = List.copyOf(waiting.subList(0, count));
        waiting.subList(0, count).clear();
        waitingBytes -= bytes;
        writing = true;
        List<FloorCollection.Create> creates = batch.stream().map(Offer::create).toList();
        getContext()
                .pipeToSelf(
                        collection.<Long>ask(
                                replyTo -> new FloorCollection.Batch(creates, replyTo),
                                ASK_TIMEOUT),
                        (revision, failure) -> new Written(batch, revision, failure));
    }
}
