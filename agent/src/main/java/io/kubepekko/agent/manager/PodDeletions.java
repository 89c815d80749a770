package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.Resource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Deletes the API objects of pods whose workers are done, inside the {@link PodManager}'s actor:
 * grace period 0 with a {@code preconditions.uid} guard, as the kubelet's status manager does once
 * a pod can be deleted. A failed delete is retried with back-off until it is {@linkplain #gone
 * done} or {@linkplain #cancel cancelled}.
 */
final class PodDeletions {

    /** Results of this helper's own calls and timers, delivered to the pod manager's actor. */
    sealed interface Command {}

    private record Answered(String uid, Optional<ApiError> error) implements Command {}

    private record Retry(String uid) implements Command {}

    private static final class State {
        final JsonNode pod;
        Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);

        State(JsonNode pod) {
            this.pod = pod;
        }
    }

    private final ActorContext<?> ctx;
    private final ApiClient client;
    private final ActorRef<Command> self;
    private final Map<String, State> pending = new HashMap<>();

    PodDeletions(ActorContext<?> ctx, ApiClient client, ActorRef<Command> self) {
        this.ctx = ctx;
        this.client = client;
        this.self = self;
    }

    /** Deletes {@code pod} (uid {@code uid}) until the API says it is gone. */
    void delete(String uid, JsonNode pod) {
        State s = new State(pod);
        pending.put(uid, s);
        call(uid, s);
    }

    /** Whether a delete of {@code uid} is under way. */
    boolean pending(String uid) {
        return pending.containsKey(uid);
    }

    /** Stops retrying {@code uid}'s delete (the object is gone anyway). */
    void cancel(String uid) {
        pending.remove(uid);
    }

    /**
     * Handles one of this helper's messages; {@code deleted} gets a uid once its object is gone.
     */
    void on(Command c, Consumer<String> deleted) {
        if (c instanceof Answered a) {
            State s = pending.get(a.uid());
            if (s == null) {
                return;
            }
            if (gone(a.error())) {
                pending.remove(a.uid());
                ctx.getLog().info("pod {} (uid {}) deleted", PodChange.key(s.pod), a.uid());
                deleted.accept(a.uid());
                return;
            }
            s.backoff = s.backoff.failed();
            if (s.backoff.firstOfStreak()) {
                ctx.getLog()
                        .warn(
                                "pod {}: delete failed, retrying with back-off: {}",
                                PodChange.key(s.pod),
                                a.error().get());
            }
            ctx.scheduleOnce(s.backoff.delay(), self, new Retry(a.uid()));
        } else if (c instanceof Retry r) {
            State s = pending.get(r.uid());
            if (s != null) {
                call(r.uid(), s);
            }
        }
    }

    /**
     * Whether a delete's answer ends it: done, 404 (already gone) or 409 (the uid precondition
     * failed: the name has another pod now). Anything else is retried.
     */
    static boolean gone(Optional<ApiError> error) {
        return error.isEmpty() || error.get().isNotFound() || error.get().isConflict();
    }

    private void call(String uid, State s) {
        String ns = s.pod.path("metadata").path("namespace").asText("");
        String name = s.pod.path("metadata").path("name").asText("");
        client.delete(Resource.PODS.object(ns, name), DeleteOptions.immediate(uid))
                .whenComplete(
                        (o, t) ->
                                self.tell(
                                        new Answered(
                                                uid,
                                                t == null
                                                        ? Optional.empty()
                                                        : Optional.of(ApiError.of(t)))));
    }
}
