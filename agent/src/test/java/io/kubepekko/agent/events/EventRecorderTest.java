package io.kubepekko.agent.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiCallFailed;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.testkit.typed.Effect;
import org.apache.pekko.actor.testkit.typed.javadsl.BehaviorTestKit;
import org.junit.jupiter.api.Test;

/**
 * The recorder writes as client-go's broadcaster does: one write at a time, so a repeat never
 * patches an Event whose create is still on its way; a gone Event is created whole; a rejected
 * event does not silence the ones after it; an unreachable server holds the queue and is retried.
 * Driven synchronously (BehaviorTestKit), so nothing depends on timing.
 */
class EventRecorderTest {

    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final Duration RETRY = Duration.ofSeconds(10);

    /** One write the recorder made, answered when the test says. */
    private record Call(
            String verb,
            String namespace,
            String name,
            ObjectNode body,
            CompletableFuture<Object> answer) {
        void ok() {
            answer.complete(body);
        }

        void fail(ApiError error) {
            answer.completeExceptionally(new ApiCallFailed(error));
        }
    }

    private final List<Call> calls = new ArrayList<>();
    private final EventWriter writer =
            new EventWriter() {
                @Override
                public CompletionStage<?> create(String namespace, ObjectNode event) {
                    return call(
                            "create",
                            namespace,
                            event.path("metadata").path("name").asText(),
                            event);
                }

                @Override
                public CompletionStage<?> patch(String namespace, String name, ObjectNode patch) {
                    return call("patch", namespace, name, patch);
                }

                private CompletionStage<?> call(
                        String verb, String namespace, String name, ObjectNode body) {
                    Call c = new Call(verb, namespace, name, body, new CompletableFuture<>());
                    calls.add(c);
                    return c.answer();
                }
            };

    private final BehaviorTestKit<EventRecorder.Command> kit =
            BehaviorTestKit.create(
                    EventRecorder.create(writer, "node-a", Clock.fixed(T0, ZoneOffset.UTC), RETRY));

    private static EventRecorder.Record event(String reason, String message) {
        ObjectNode pod = JsonNodeFactory.instance.objectNode();
        pod.putObject("metadata").put("name", "web").put("namespace", "ns").put("uid", "u1");
        return new EventRecorder.Record(pod, "spec.containers{app}", "Normal", reason, message);
    }

    private static final EventRecorder.Record PULLED = event("Pulled", "pulled");
    private static final EventRecorder.Record KILLING = event("Killing", "Stopping container app");

    private static ApiError answered(ApiStatus status) {
        return new ApiError.Answered(status);
    }

    /** Delivers the outcome of the last answered write to the recorder. */
    private void deliver() {
        kit.runOne();
    }

    private Call last() {
        return calls.get(calls.size() - 1);
    }

    @Test
    void aRepeatWaitsForTheCreateOfItsEventAndThenPatchesIt() {
        kit.run(PULLED);
        kit.run(PULLED);
        assertEquals(1, calls.size(), "the repeat waits for the create: " + calls);
        Call create = calls.get(0);
        assertEquals("create", create.verb());
        assertEquals(1, create.body().path("count").asInt());

        create.ok();
        deliver();
        assertEquals(2, calls.size());
        Call patch = last();
        assertEquals("patch", patch.verb());
        assertEquals(create.name(), patch.name());
        assertEquals(2, patch.body().path("count").asInt());
        assertEquals("ns", patch.namespace());
    }

    @Test
    void aRepeatWhoseEventIsGoneCreatesItWholeUnderTheSameName() {
        kit.run(PULLED);
        calls.get(0).ok();
        deliver();
        kit.run(PULLED);
        Call patch = last();
        patch.fail(answered(ApiStatus.notFound(new GroupResource("", "events"), patch.name())));
        deliver();

        Call whole = last();
        assertEquals("create", whole.verb());
        assertEquals(patch.name(), whole.name());
        JsonNode body = whole.body();
        assertEquals(2, body.path("count").asInt());
        assertEquals("Pulled", body.path("reason").asText());
        assertEquals("u1", body.path("involvedObject").path("uid").asText());
        assertEquals("kubelet", body.path("source").path("component").asText());
    }

    @Test
    void aRejectedEventIsGivenUpAndTheNextIsStillWritten() {
        kit.run(PULLED);
        kit.run(KILLING);
        calls.get(0).fail(answered(ApiStatus.badRequest("no")));
        deliver();

        assertEquals(2, calls.size(), "the next event is written at once: " + calls);
        assertEquals("Killing", last().body().path("reason").asText());
        assertTrue(kit.getAllEffects().stream().noneMatch(Effect.TimerScheduled.class::isInstance));
        last().ok();
        deliver();

        // Given up, the rejected event is forgotten: its repeat is a new object.
        kit.run(PULLED);
        assertEquals("create", last().verb());
        assertEquals("Pulled", last().body().path("reason").asText());
    }

    @Test
    void anUnreachableServerIsRetriedWhileTheEventsBehindWait() {
        kit.run(PULLED);
        kit.run(KILLING);
        calls.get(0).fail(new ApiError.Unreachable("ConnectException: refused"));
        deliver();
        assertEquals(1, calls.size(), "nothing more is sent until the retry: " + calls);
        assertTrue(
                kit.getAllEffects().stream().anyMatch(Effect.TimerScheduled.class::isInstance),
                "a retry is scheduled");

        kit.run(EventRecorder.Retry.INSTANCE);
        assertEquals(2, calls.size());
        assertEquals(calls.get(0).name(), last().name(), "the same event again");
        last().ok();
        deliver();
        assertEquals("Killing", last().body().path("reason").asText(), "then the next one");
    }

    @Test
    void afterTwelveTriesAnEventIsGivenUp() {
        kit.run(PULLED);
        kit.run(KILLING);
        for (int i = 1; i < EventRecorder.MAX_TRIES; i++) {
            last().fail(new ApiError.Unreachable("timeout"));
            deliver();
            kit.run(EventRecorder.Retry.INSTANCE);
        }
        assertEquals(EventRecorder.MAX_TRIES, calls.size());
        assertTrue(calls.stream().allMatch(c -> c.body().path("reason").asText().equals("Pulled")));
        last().fail(new ApiError.Unreachable("timeout"));
        deliver();
        assertEquals("Killing", last().body().path("reason").asText());
    }

    @Test
    void atMostAThousandEventsWaitAndMoreAreDropped() {
        kit.run(PULLED); // in flight
        for (int i = 0; i <= EventRecorder.MAX_QUEUED; i++) {
            kit.run(event("Created", "event " + i));
        }
        for (int i = 0; i < calls.size(); i++) {
            calls.get(i).ok();
            deliver();
        }
        assertEquals(1 + EventRecorder.MAX_QUEUED, calls.size());
        assertEquals(
                "event " + (EventRecorder.MAX_QUEUED - 1), last().body().path("message").asText());
    }
}
