package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.worker.StatusSink;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The node's status manager (the kubelet's {@code pkg/kubelet/status}): takes the statuses pod
 * workers compute and writes each to {@code pods/{name}/status}, one write in flight per pod uid
 * and only the newest status: it reads the pod, drops the write when the pod is gone or has another
 * uid, merges the node's fields into the server's status ({@link StatusPatch}) and sends a merge
 * patch guarded by the uid, nothing when nothing differs. A failed write is retried with back-off
 * (0.8 s doubling to 30 s); a status equal to the last one written is not sent again. {@link
 * Forget} drops what it knows of a uid once its pod is gone.
 */
public final class StatusManager extends AbstractBehavior<StatusManager.Command> {

    /** The status manager's protocol. */
    public sealed interface Command {}

    /** A worker's newest status of pod {@code uid}. */
    public record Write(String namespace, String name, String uid, ObjectNode status)
            implements Command {}

    /** The pod {@code uid} is gone: forget its statuses. */
    public record Forget(String uid) implements Command {}

    private record Written(String uid, long seq, ObjectNode status) implements Command {}

    private record Dropped(String uid, long seq, String why) implements Command {}

    private record Failed(String uid, long seq, ApiError error) implements Command {}

    private record Retry(String uid) implements Command {}

    /** A {@link StatusSink} that hands statuses to {@code manager} (never blocks the worker). */
    public static StatusSink sink(ActorRef<Command> manager) {
        return (namespace, name, uid, status) ->
                manager.tell(new Write(namespace, name, uid, status));
    }

    public static Behavior<Command> create(ApiClient client) {
        return Behaviors.setup(
                ctx -> Behaviors.withTimers(timers -> new StatusManager(ctx, timers, client)));
    }

    /** What is known of one pod uid. */
    private static final class PodEntry {
        String namespace;
        String name;
        ObjectNode written;
        ObjectNode wanted;

        /** Which write is in flight (0: none); a result of another is stale. */
        long inFlight;

        Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);
    }

    private final TimerScheduler<Command> timers;
    private final ApiClient client;
    private final Map<String, PodEntry> pods = new HashMap<>();
    private long seq;

    private StatusManager(
            ActorContext<Command> ctx, TimerScheduler<Command> timers, ApiClient client) {
        super(ctx);
        this.timers = timers;
        this.client = client;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Write.class, this::onWrite)
                .onMessage(Forget.class, this::onForget)
                .onMessage(Written.class, this::onWritten)
                .onMessage(Dropped.class, this::onDropped)
                .onMessage(Failed.class, this::onFailed)
                .onMessage(
                        Retry.class,
                        r -> {
                            PodEntry e = pods.get(r.uid());
                            if (e != null && e.inFlight == 0) {
                                send(r.uid(), e);
                            }
                            return this;
                        })
                .build();
    }

    private Behavior<Command> onWrite(Write w) {
        PodEntry e = pods.computeIfAbsent(w.uid(), u -> new PodEntry());
        e.namespace = w.namespace();
        e.name = w.name();
        e.wanted = w.status();
        if (e.inFlight == 0 && !timers.isTimerActive(w.uid())) {
            send(w.uid(), e);
        }
        return this;
    }

    private Behavior<Command> onForget(Forget f) {
        pods.remove(f.uid());
        timers.cancel(f.uid());
        return this;
    }

    private void send(String uid, PodEntry e) {
        if (e.wanted == null || e.wanted.equals(e.written)) {
            e.wanted = null;
            return;
        }
        long mine = ++seq;
        e.inFlight = mine;
        ObjectNode status = e.wanted;
        String ns = e.namespace;
        String name = e.name;
        var done =
                client.get(Resource.PODS.object(ns, name))
                        .thenCompose(
                                pod -> {
                                    if (!uid.equals(PodChange.uid(pod))) {
                                        return CompletableFuture.<Command>completedFuture(
                                                new Dropped(
                                                        uid,
                                                        mine,
                                                        "the pod now has uid "
                                                                + PodChange.uid(pod)));
                                    }
                                    ObjectNode patch =
                                            StatusPatch.diff(
                                                    pod.path("status"),
                                                    StatusPatch.merge(pod.path("status"), status));
                                    if (patch.isEmpty()) {
                                        return CompletableFuture.<Command>completedFuture(
                                                new Written(uid, mine, status));
                                    }
                                    return client.patch(
                                                    Resource.PODS.subresource(ns, name, "status"),
                                                    PatchType.MERGE,
                                                    StatusPatch.body(uid, patch))
                                            .thenApply(
                                                    x -> (Command) new Written(uid, mine, status));
                                });
        getContext()
                .pipeToSelf(
                        done,
                        (m, t) -> {
                            if (t == null) {
                                return m;
                            }
                            ApiError error = ApiError.of(t);
                            // 404: the pod is gone; 409 on a uid-guarded patch: another pod of that
                            // name. Neither is worth retrying.
                            if (error.isNotFound() || error.isConflict()) {
                                return new Dropped(uid, mine, error.toString());
                            }
                            return new Failed(uid, mine, error);
                        });
    }

    private Optional<PodEntry> current(String uid, long seq) {
        PodEntry e = pods.get(uid);
        if (e == null || e.inFlight != seq) {
            return Optional.empty();
        }
        e.inFlight = 0;
        return Optional.of(e);
    }

    private Behavior<Command> onWritten(Written w) {
        current(w.uid(), w.seq())
                .ifPresent(
                        e -> {
                            if (e.backoff.failures() > 0) {
                                getContext()
                                        .getLog()
                                        .info(
                                                "status of pod {}/{} written again after {} failures",
                                                e.namespace,
                                                e.name,
                                                e.backoff.failures());
                            }
                            e.backoff = e.backoff.succeeded();
                            e.written = w.status();
                            getContext()
                                    .getLog()
                                    .debug(
                                            "status of pod {}/{} written, phase {}",
                                            e.namespace,
                                            e.name,
                                            w.status().path("phase").asText());
                            send(w.uid(), e);
                        });
        return this;
    }

    private Behavior<Command> onDropped(Dropped d) {
        current(d.uid(), d.seq())
                .ifPresent(
                        e -> {
                            getContext()
                                    .getLog()
                                    .info(
                                            "status of pod {}/{} (uid {}) not written: {}",
                                            e.namespace,
                                            e.name,
                                            d.uid(),
                                            d.why());
                            e.wanted = null;
                        });
        return this;
    }

    private Behavior<Command> onFailed(Failed f) {
        current(f.uid(), f.seq())
                .ifPresent(
                        e -> {
                            e.backoff = e.backoff.failed();
                            if (e.backoff.firstOfStreak()) {
                                getContext()
                                        .getLog()
                                        .warn(
                                                "status of pod {}/{} not written, retrying with back-off: {}",
                                                e.namespace,
                                                e.name,
                                                f.error());
                            }
                            timers.startSingleTimer(f.uid(), new Retry(f.uid()), e.backoff.delay());
                        });
        return this;
    }
}
