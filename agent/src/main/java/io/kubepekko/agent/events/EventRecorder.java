package io.kubepekko.agent.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.worker.EventSink;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The kubelet's event recorder: posts core/v1 {@code Event}s about pods to {@code
 * /api/v1/namespaces/{ns}/events} as {@code source.component: kubelet} of the node, aggregated by
 * {@link EventAggregator} (a repeat within ten minutes patches {@code count} and {@code
 * lastTimestamp}). Best effort: nothing waits for it; at most {@link #MAX_IN_FLIGHT} requests are
 * outstanding and a failed one makes it drop events for {@link #QUIET_AFTER_FAILURE}.
 */
public final class EventRecorder extends AbstractBehavior<EventRecorder.Command> {

    /** The recorder's protocol. */
    public sealed interface Command {}

    /** Record an event about {@code pod} (see {@link EventSink#event}). */
    public record Record(JsonNode pod, String fieldPath, String type, String reason, String message)
            implements Command {}

    private record Sent(EventAggregator.Key key, boolean ok, String why) implements Command {}

    static final int MAX_IN_FLIGHT = 64;
    static final Duration QUIET_AFTER_FAILURE = Duration.ofSeconds(10);
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

    public static Behavior<Command> create(ApiClient client, String nodeName, Clock clock) {
        return Behaviors.setup(ctx -> new EventRecorder(ctx, client, nodeName, clock));
    }

    /** A sink that tells the recorder; never blocks. */
    public static EventSink sink(ActorRef<Command> recorder) {
        return (pod, fieldPath, type, reason, message) ->
                recorder.tell(new Record(pod, fieldPath, type, reason, message));
    }

    private final ApiClient client;
    private final String nodeName;
    private final Clock clock;
    private final EventAggregator aggregator = new EventAggregator();
    private int inFlight;
    private Instant quietUntil = Instant.MIN;
    private long lastNanos;

    private EventRecorder(
            ActorContext<Command> ctx, ApiClient client, String nodeName, Clock clock) {
        super(ctx);
        this.client = client;
        this.nodeName = nodeName;
        this.clock = clock;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Record.class, this::onRecord)
                .onMessage(Sent.class, this::onSent)
                .build();
    }

    private Behavior<Command> onRecord(Record r) {
        Instant now = clock.instant();
        if (inFlight >= MAX_IN_FLIGHT || now.isBefore(quietUntil)) {
            return this; // events are best effort
        }
        JsonNode meta = r.pod().path("metadata");
        String namespace = meta.path("namespace").asText("default");
        EventAggregator.Key key =
                new EventAggregator.Key(
                        namespace,
                        meta.path("uid").asText(),
                        r.fieldPath(),
                        r.type(),
                        r.reason(),
                        r.message());
        EventAggregator.Decision decision =
                aggregator.record(key, now, () -> name(meta.path("name").asText(), now));
        String collection = "/api/v1/namespaces/" + namespace + "/events";
        CompletionStage<ObjectNode> call;
        if (decision instanceof EventAggregator.Decision.Patch patch) {
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.put("count", patch.count())
                    .put("lastTimestamp", RFC3339.format(now.truncatedTo(ChronoUnit.SECONDS)));
            call = client.patch(collection + "/" + patch.name(), PatchType.MERGE, body);
        } else {
            call =
                    client.create(
                            collection,
                            event(((EventAggregator.Decision.Create) decision).name(), r, now));
        }
        inFlight++;
        getContext().pipeToSelf(call, (v, t) -> new Sent(key, t == null, String.valueOf(t)));
        return this;
    }

    private Behavior<Command> onSent(Sent sent) {
        inFlight--;
        if (!sent.ok()) {
            aggregator.forget(sent.key());
            quietUntil = clock.instant().plus(QUIET_AFTER_FAILURE);
            getContext()
                    .getLog()
                    .debug(
                            "event {} {} not recorded: {}",
                            sent.key().reason(),
                            sent.key().message(),
                            sent.why());
        }
        return this;
    }

    /**
     * client-go's name: the object's name, a dot, the time in hex nanoseconds (kept unique here).
     */
    private String name(String objectName, Instant now) {
        long nanos = Math.max(now.getEpochSecond() * 1_000_000_000L + now.getNano(), lastNanos + 1);
        lastNanos = nanos;
        return objectName + "." + Long.toHexString(nanos);
    }

    private ObjectNode event(String name, Record r, Instant now) {
        JsonNode meta = r.pod().path("metadata");
        ObjectNode e = JsonNodeFactory.instance.objectNode();
        e.put("apiVersion", "v1").put("kind", "Event");
        e.putObject("metadata")
                .put("name", name)
                .put("namespace", meta.path("namespace").asText("default"));
        ObjectNode involved = e.putObject("involvedObject");
        involved.put("kind", "Pod")
                .put("namespace", meta.path("namespace").asText("default"))
                .put("name", meta.path("name").asText())
                .put("uid", meta.path("uid").asText())
                .put("apiVersion", "v1");
        if (!meta.path("resourceVersion").asText("").isEmpty()) {
            involved.put("resourceVersion", meta.path("resourceVersion").asText());
        }
        if (!r.fieldPath().isEmpty()) {
            involved.put("fieldPath", r.fieldPath());
        }
        e.put("reason", r.reason()).put("message", r.message()).put("type", r.type());
        e.putObject("source").put("component", "kubelet").put("host", nodeName);
        String ts = RFC3339.format(now.truncatedTo(ChronoUnit.SECONDS));
        e.put("firstTimestamp", ts).put("lastTimestamp", ts).put("count", 1);
        e.put("reportingComponent", "kubelet").put("reportingInstance", nodeName);
        return e;
    }
}
