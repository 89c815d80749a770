package io.kubepekko.agent.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.worker.EventSink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The kubelet's event recorder (client-go's broadcaster recording to a sink): posts core/v1 {@code
 * Event}s about pods as {@code source.component: kubelet} of the node, one write at a time in the
 * order they were recorded, aggregated by {@link EventAggregator} (a repeat within ten minutes
 * patches {@code count} and {@code lastTimestamp} of the earlier one).
 *
 * <p>As client-go: nothing waits for it and at most {@link #MAX_QUEUED} events wait (more are
 * dropped); a repeat whose earlier Event is gone (the patch answers 404) is created whole under the
 * same name; an event the server rejects is given up; one that does not reach the server is tried
 * again after {@link #RETRY_INTERVAL} (the first time after a random part of it), at most {@link
 * #MAX_TRIES} times, while the events behind it wait.
 */
public final class EventRecorder extends AbstractBehavior<EventRecorder.Command> {

    /** The recorder's protocol. */
    public sealed interface Command {}

    /** Record an event about {@code pod} (see {@link EventSink#event}). */
    public record Record(JsonNode pod, String fieldPath, String type, String reason, String message)
            implements Command {}

    /** The write of {@code attempt} ended; {@code failure} null when it succeeded. */
    private record Written(Attempt attempt, ApiError failure) implements Command {}

    enum Retry implements Command {
        INSTANCE
    }

    /** client-go's {@code maxQueuedEvents}. */
    static final int MAX_QUEUED = 1000;

    /** client-go's {@code maxTriesPerEvent}. */
    static final int MAX_TRIES = 12;

    /** client-go's {@code defaultSleepDuration}. */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(10);

    private record Queued(Record record, Instant at) {}

    /**
     * The event being written: what aggregation decided, whether the whole object is sent (a new
     * event, or a repeat whose earlier object is gone), and the tries so far.
     */
    private record Attempt(
            EventAggregator.Key key,
            Queued event,
            EventAggregator.Decision decision,
            boolean whole,
            int tries) {}

    public static Behavior<Command> create(ApiClient client, String nodeName, Clock clock) {
        return create(EventWriter.of(client), nodeName, clock, RETRY_INTERVAL);
    }

    static Behavior<Command> create(
            EventWriter writer, String nodeName, Clock clock, Duration retryInterval) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new EventRecorder(
                                                ctx,
                                                timers,
                                                writer,
                                                nodeName,
                                                clock,
                                                retryInterval)));
    }

    /** A sink that tells the recorder; never blocks. */
    public static EventSink sink(ActorRef<Command> recorder) {
        return (pod, fieldPath, type, reason, message) ->
                recorder.tell(new Record(pod, fieldPath, type, reason, message));
    }

    private final TimerScheduler<Command> timers;
    private final EventWriter writer;
    private final String nodeName;
    private final Clock clock;
    private final Duration retryInterval;
    private final EventAggregator aggregator = new EventAggregator();
    private final Deque<Queued> queue = new ArrayDeque<>();
    private Attempt current;
    private long lastNanos;

    private EventRecorder(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            EventWriter writer,
            String nodeName,
            Clock clock,
            Duration retryInterval) {
        super(ctx);
        this.timers = timers;
        this.writer = writer;
        this.nodeName = nodeName;
        this.clock = clock;
        this.retryInterval = retryInterval;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Record.class, this::onRecord)
                .onMessage(Written.class, this::onWritten)
                .onMessageEquals(Retry.INSTANCE, this::onRetry)
                .build();
    }

    private Behavior<Command> onRecord(Record r) {
        if (queue.size() >= MAX_QUEUED) {
            getContext().getLog().debug("event {} {} dropped: queue full", r.reason(), r.message());
            return this;
        }
        queue.add(new Queued(r, clock.instant()));
        writeNext();
        return this;
    }

    private void writeNext() {
        if (current != null || queue.isEmpty()) {
            return;
        }
        Queued q = queue.poll();
        Record r = q.record();
        JsonNode meta = r.pod().path("metadata");
        EventAggregator.Key key =
                new EventAggregator.Key(
                        EventObjects.namespace(r.pod()),
                        meta.path("uid").asText(),
                        r.fieldPath(),
                        r.type(),
                        r.reason(),
                        r.message());
        EventAggregator.Decision decision =
                aggregator.record(key, q.at(), () -> name(meta.path("name").asText(), q.at()));
        write(
                new Attempt(
                        key, q, decision, decision instanceof EventAggregator.Decision.Create, 1));
    }

    private void write(Attempt a) {
        current = a;
        Queued q = a.event();
        String namespace = a.key().namespace();
        CompletionStage<?> call;
        if (a.decision() instanceof EventAggregator.Decision.Patch p) {
            call =
                    a.whole()
                            ? writer.create(
                                    namespace,
                                    EventObjects.event(
                                            p.name(),
                                            q.record(),
                                            nodeName,
                                            p.count(),
                                            p.firstTimestamp(),
                                            q.at()))
                            : writer.patch(
                                    namespace, p.name(), EventObjects.repeat(p.count(), q.at()));
        } else {
            EventAggregator.Decision.Create c = (EventAggregator.Decision.Create) a.decision();
            ObjectNode event =
                    EventObjects.event(c.name(), q.record(), nodeName, 1, q.at(), q.at());
            call = writer.create(namespace, event);
        }
        getContext().pipeToSelf(call, (v, t) -> new Written(a, t == null ? null : ApiError.of(t)));
    }

    private Behavior<Command> onWritten(Written w) {
        Attempt a = w.attempt();
        if (a != current) {
            return this;
        }
        ApiError failure = w.failure();
        if (failure == null) {
            done();
        } else if (failure instanceof ApiError.Answered) {
            if (!a.whole() && failure.isNotFound()) {
                // The repeated event's object is gone (deleted, or expired): create it whole.
                write(new Attempt(a.key(), a.event(), a.decision(), true, a.tries()));
            } else {
                giveUp(a, "rejected: " + failure);
            }
        } else if (a.tries() >= MAX_TRIES) {
            giveUp(a, "retry limit exceeded: " + failure);
        } else {
            current = new Attempt(a.key(), a.event(), a.decision(), a.whole(), a.tries() + 1);
            Duration delay =
                    a.tries() == 1
                            ? Duration.ofNanos(
                                    (long)
                                            (retryInterval.toNanos()
                                                    * ThreadLocalRandom.current().nextDouble()))
                            : retryInterval;
            timers.startSingleTimer(Retry.INSTANCE, delay);
        }
        return this;
    }

    private Behavior<Command> onRetry() {
        if (current != null) {
            write(current);
        }
        return this;
    }

    private void giveUp(Attempt a, String why) {
        aggregator.forget(a.key());
        Record r = a.event().record();
        getContext().getLog().debug("event {} {} not recorded: {}", r.reason(), r.message(), why);
        done();
    }

    private void done() {
        current = null;
        writeNext();
    }

    /**
     * client-go's name: the object's name, a dot, the time in hex nanoseconds (kept unique here).
     */
    private String name(String objectName, Instant now) {
        long nanos = Math.max(now.getEpochSecond() * 1_000_000_000L + now.getNano(), lastNanos + 1);
        lastNanos = nanos;
        return objectName + "." + Long.toHexString(nanos);
    }
}
