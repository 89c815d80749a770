package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.policy.DisruptionStatus;
import io.kubepekko.api.policy.StaleDisruptionConditions;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.Failures;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * kube-controller-manager's disruption controller: keeps each PodDisruptionBudget's status (the
 * pods it expects, how many are healthy and must be, the disruptions it allows, its {@code
 * DisruptionAllowed} condition, the evictions still pending) from the pods its selector matches.
 * Informers on pods (only the fields it reads) and budgets say which budgets to look at: a budget's
 * change, and a change of a pod it selects. A sync computes the status ({@link DisruptionStatus})
 * with the pods' controllers' scales read live ({@link ControllerScales}) and writes it when it
 * differs, with the budget's resourceVersion; a 409 is retried after a back-off from the informer's
 * newer copy. A budget whose status cannot be computed gets kube's fail-safe status: no disruption
 * allowed, reason {@code SyncFailed}. A budget with pending evictions is looked at again when the
 * first of them expires. A pod whose {@code DisruptionTarget} condition an eviction set but which
 * is still not being deleted after {@code stale-pod-disruption-timeout} gets the condition reset to
 * {@code False} ({@link StaleDisruptionConditions}), as kube's stale-pod-disruption worker does.
 */
public final class DisruptionController extends AbstractBehavior<DisruptionController.Command> {

    /** The controller's protocol: informer events and the results of its own syncs. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    /** A sync ended: failed, or done (with when to look again, or null). */
    private record Worked(String key, Throwable failure, Instant recheckAt) implements Command {}

    private record Requeue(String key) implements Command {}

    /** Time to look at the pod {@code namespace/name}'s DisruptionTarget condition again. */
    private record StaleCheck(String key) implements Command {}

    /** A stale condition's reset was written, or failed. */
    private record StaleReset(String key, Throwable failure) implements Command {}

    /**
     * @param workers budgets synced at once
     * @param informer the informers' back-off
     * @param retry back-off of a budget whose sync failed (and of a failed condition reset)
     * @param staleTimeout how long a pod may keep an eviction's DisruptionTarget condition without
     *     being deleted
     */
    public record Settings(int workers, Backoff informer, Backoff retry, Duration staleTimeout) {
        /** {@code kubepekko.controllers.disruption-controller} of the server's config. */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")),
                    config.getDuration("stale-pod-disruption-timeout"));
        }
    }

    /** What a sync reads of a pod: its labels, controller, deletion, phase and conditions. */
    private static final PartialJson POD_FIELDS =
            PartialJson.keeping(
                    Set.of(
                            "metadata.name",
                            "metadata.namespace",
                            "metadata.uid",
                            "metadata.resourceVersion",
                            "metadata.labels",
                            "metadata.ownerReferences",
                            "metadata.deletionTimestamp",
                            "status.phase",
                            "status.conditions"));

    private final ControllerClient client;
    private final ControllerScales scales;
    private final ResourceType podType;
    private final ResourceType budgetType;
    private final Clock clock;
    private final TimerScheduler<Command> timers;
    private final WorkQueue queue;
    private final Settings settings;

    /** Every budget by {@code namespace/name}, whole (its status is written back whole). */
    private final Map<String, ObjectNode> budgets = new HashMap<>();

    /** Every pod's read fields, by namespace, then name, kept as bytes (a few hundred each). */
    private final CompactObjects pods = new CompactObjects();

    private boolean podsSynced;
    private boolean budgetsSynced;

    public static Behavior<Command> create(
            ControllerClient client, Settings settings, Clock clock) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new DisruptionController(
                                                ctx, client, settings, clock, timers)));
    }

    private DisruptionController(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            Clock clock,
            TimerScheduler<Command> timers) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.scales = new ControllerScales(client, controlPlane.registry());
        this.podType = controlPlane.registry().find(new GroupResource("", "pods")).orElseThrow();
        this.budgetType =
                controlPlane
                        .registry()
                        .find(new GroupResource("policy", "poddisruptionbudgets"))
                        .orElseThrow();
        this.clock = clock;
        this.timers = timers;
        this.settings = settings;
        this.queue =
                new WorkQueue(
                        settings.workers(),
                        settings.retry(),
                        (key, delay) -> timers.startSingleTimer(key, new Requeue(key), delay));
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane),
                        budgetType,
                        ctx.messageAdapter(Informer.Event.class, Observed::new),
                        settings.informer()),
                "informer-poddisruptionbudgets");
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane),
                        podType,
                        ctx.messageAdapter(Informer.Event.class, Observed::new),
                        settings.informer(),
                        POD_FIELDS::parse),
                "informer-pods");
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Observed.class, this::onObserved)
                .onMessage(Worked.class, this::onWorked)
                .onMessage(
                        Requeue.class,
                        r -> {
                            queue.add(r.key());
                            drain();
                            return this;
                        })
                .onMessage(StaleCheck.class, c -> onStaleCheck(c.key()))
                .onMessage(StaleReset.class, this::onStaleReset)
                .build();
    }

    private Behavior<Command> onObserved(Observed observed) {
        Informer.Event event = observed.event();
        boolean ofBudgets = event.type().groupResource().equals(budgetType.groupResource());
        if (event instanceof Informer.Synced s) {
            if (ofBudgets) {
                budgets.clear();
                s.objects().forEach(b -> budgets.put(key(b), b));
                budgetsSynced = true;
            } else {
                pods.clear();
                s.objects().forEach(this::rememberPod);
                podsSynced = true;
            }
            budgets.keySet().forEach(queue::add);
        } else if (event instanceof Informer.Changed c) {
            if (ofBudgets) {
                String key = key(c.object());
                if (c.change() == WatchEvent.Type.DELETED) {
                    budgets.remove(key);
                    queue.forget(key);
                } else {
                    budgets.put(key, c.object());
                    queue.add(key);
                }
            } else {
                onPodChanged(c);
            }
        }
        drain();
        return this;
    }

    /** Queues the budgets that select the pod as it was and as it is. */
    private void onPodChanged(Informer.Changed c) {
        ObjectNode pod = c.object();
        ObjectNode before = pods.get(ObjectMeta.namespace(pod), ObjectMeta.name(pod)).orElse(null);
        if (c.change() == WatchEvent.Type.DELETED) {
            pods.remove(ObjectMeta.namespace(pod), ObjectMeta.name(pod));
        } else {
            rememberPod(pod);
        }
        for (Map.Entry<String, ObjectNode> b : budgets.entrySet()) {
            if (DisruptionStatus.selects(b.getValue(), pod)
                    || (before != null && DisruptionStatus.selects(b.getValue(), before))) {
                queue.add(b.getKey());
            }
        }
    }

    private void rememberPod(ObjectNode pod) {
        pods.put(pod);
        staleCheck(key(pod), pod);
    }

    // ---------------------------------------------------------------- stale DisruptionTarget

    /** Resets the pod's condition if it is stale now, else looks again when it will be. */
    private Behavior<Command> onStaleCheck(String key) {
        return staleCheck(key, pod(key));
    }

    private Behavior<Command> staleCheck(String key, ObjectNode pod) {
        String timer = "stale-" + key;
        Optional<Duration> staleIn =
                pod == null
                        ? Optional.empty()
                        : StaleDisruptionConditions.staleIn(
                                pod, clock.instant(), settings.staleTimeout());
        if (staleIn.isEmpty()) {
            timers.cancel(timer);
        } else if (staleIn.get().isZero()) {
            timers.cancel(timer);
            getContext()
                    .pipeToSelf(
                            client.mergePatch(
                                    podType,
                                    ObjectMeta.namespace(pod),
                                    ObjectMeta.name(pod),
                                    "status",
                                    Json.bytes(
                                            StaleDisruptionConditions.resetPatch(
                                                    pod, clock.instant()))),
                            (done, e) -> new StaleReset(key, e));
        } else {
            timers.startSingleTimer(timer, new StaleCheck(key), staleIn.get());
        }
        return this;
    }

    private Behavior<Command> onStaleReset(StaleReset reset) {
        if (reset.failure() == null) {
            getContext()
                    .getLog()
                    .debug("reset stale DisruptionTarget condition of pod {}", reset.key());
        } else if (ControllerClient.code(reset.failure()) != 404
                && ControllerClient.code(reset.failure()) != 409) {
            // A 409: the pod changed, and its informer event checks it again.
            timers.startSingleTimer(
                    "stale-" + reset.key(),
                    new StaleCheck(reset.key()),
                    settings.retry().initial());
        }
        return this;
    }

    private ObjectNode pod(String key) {
        int slash = key.indexOf('/');
        return pods.get(key.substring(0, slash), key.substring(slash + 1)).orElse(null);
    }

    private void drain() {
        if (!podsSynced || !budgetsSynced) {
            return;
        }
        for (String key = queue.next(); key != null; key = queue.next()) {
            String started = key;
            ObjectNode budget = budgets.get(key);
            CompletionStage<Instant> sync =
                    budget == null
                            ? CompletableFuture.completedFuture(null)
                            : sync(budget, podsOf(budget));
            getContext().pipeToSelf(sync, (recheck, e) -> new Worked(started, e, recheck));
        }
    }

    private List<JsonNode> podsOf(ObjectNode budget) {
        return pods.inNamespace(ObjectMeta.namespace(budget));
    }

    /**
     * kube's {@code sync}: the budget's status from its pods, written if it changed, or its
     * fail-safe status when it cannot be computed; answers when to look again, or null.
     */
    private CompletionStage<Instant> sync(ObjectNode budget, List<JsonNode> namespacePods) {
        List<JsonNode> selected;
        try {
            selected = DisruptionStatus.selectedPods(budget, namespacePods);
        } catch (IllegalArgumentException e) {
            return failSafe(budget, e.getMessage());
        }
        List<JsonNode> refs = DisruptionStatus.controllersToResolve(budget, selected);
        return scales.of(ObjectMeta.namespace(budget), refs)
                .thenCompose(
                        found -> {
                            Instant now = clock.instant();
                            DisruptionStatus.Expectation expected =
                                    DisruptionStatus.expectation(budget, selected, found);
                            DisruptionStatus.Disrupted disrupted =
                                    DisruptionStatus.disrupted(budget, selected, now);
                            int healthy = DisruptionStatus.currentHealthy(selected, disrupted, now);
                            Optional<ObjectNode> updated =
                                    DisruptionStatus.updated(
                                            budget, healthy, expected, disrupted, now);
                            CompletionStage<?> written =
                                    updated.isEmpty()
                                            ? CompletableFuture.completedFuture(null)
                                            : write(updated.get());
                            return written.thenApply(w -> disrupted.recheckAt());
                        })
                .exceptionallyCompose(
                        e -> {
                            Throwable cause = Failures.unwrap(e);
                            if (cause instanceof IllegalArgumentException) {
                                return failSafe(budget, cause.getMessage());
                            }
                            return CompletableFuture.failedFuture(cause);
                        });
    }

    private CompletionStage<Instant> failSafe(ObjectNode budget, String message) {
        return write(DisruptionStatus.failSafe(budget, message, clock.instant()))
                .thenApply(w -> null);
    }

    private CompletionStage<?> write(ObjectNode budget) {
        return client.update(
                budgetType,
                ObjectMeta.namespace(budget),
                ObjectMeta.name(budget),
                budget,
                "status");
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null && ControllerClient.code(worked.failure()) != 404) {
            getContext()
                    .getLog()
                    .debug(
                            "status of PodDisruptionBudget {} not written, retrying: {}",
                            worked.key(),
                            worked.failure().toString());
            queue.failed(worked.key());
        } else {
            queue.done(worked.key());
            if (worked.recheckAt() != null) {
                Duration wait = Duration.between(clock.instant(), worked.recheckAt());
                timers.startSingleTimer(
                        "recheck-" + worked.key(),
                        new Requeue(worked.key()),
                        wait.isNegative() ? Duration.ZERO : wait);
            }
        }
        drain();
        return this;
    }

    private static String key(ObjectNode obj) {
        return ObjectMeta.namespace(obj) + "/" + ObjectMeta.name(obj);
    }
}
