package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.gc.DeletionState;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.namespace.ContentRemaining;
import io.kubepekko.api.namespace.NamespaceDeletion;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.Failures;
import io.kubepekko.api.store.Timestamps;
import io.kubepekko.api.watch.ReadOptions;
import io.kubepekko.api.watch.WatchEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The namespace controller, after kube's {@code namespacedResourcesDeleter}: a namespace being
 * deleted that still has {@code kubernetes} in {@code spec.finalizers} gets phase {@code
 * Terminating}, then every object of every namespaced kind in it is deleted (objects with
 * finalizers stay until those are removed), what remains is reported in the namespace's conditions,
 * and once nothing remains the token is removed through {@code namespaces/{name}/finalize}. A
 * namespace whose content is held by finalizers is looked at again after kube's estimate (15 s) or
 * {@link Settings#contentRecheck}, whichever is shorter; one whose pass failed, after a back-off.
 * An informer on namespaces says which ones to look at.
 */
public final class NamespaceController extends AbstractBehavior<NamespaceController.Command> {

    /** The controller's protocol: informer events and the results of its own passes. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    /** A pass ended: failed, or done ({@code recheckAfter} null) or to be repeated after a wait. */
    private record Worked(String name, Throwable failure, Duration recheckAfter)
            implements Command {}

    private record Requeue(String name) implements Command {}

    /**
     * @param workers namespaces worked on at once
     * @param informer the namespace informer's back-off
     * @param retry back-off of a namespace whose pass failed
     * @param contentRecheck longest wait before looking again at content held by finalizers
     */
    public record Settings(int workers, Backoff informer, Backoff retry, Duration contentRecheck) {
        /**
         * The settings of {@code config}, {@code kubepekko.controllers.namespace-controller} of the
         * server's.
         */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")),
                    config.getDuration("content-recheck"));
        }
    }

    private final ControllerClient client;
    private final ResourceType namespaces;
    private final List<ResourceType> content;
    private final Settings settings;
    private final Clock clock;
    private final TimerScheduler<Command> timers;
    private final WorkQueue queue;

    public static Behavior<Command> create(
            ControllerClient client, Settings settings, Clock clock) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new NamespaceController(
                                                ctx, client, settings, clock, timers)));
    }

    private NamespaceController(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            Clock clock,
            TimerScheduler<Command> timers) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.namespaces =
                controlPlane.registry().find(new GroupResource("", "namespaces")).orElseThrow();
        this.content = deletableNamespacedKinds(controlPlane);
        this.settings = settings;
        this.clock = clock;
        this.timers = timers;
        this.queue =
                new WorkQueue(
                        settings.workers(),
                        settings.retry(),
                        (name, delay) -> timers.startSingleTimer(name, new Requeue(name), delay));
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane),
                        namespaces,
                        ctx.messageAdapter(Informer.Event.class, Observed::new),
                        settings.informer()),
                "informer-namespaces");
    }

    /**
     * Every namespaced kind that can be listed and deleted, once per group-resource (kube:
     * discovery's "delete"), in its storage version: a version stored as another (events.k8s.io
     * Events) is deleted with it.
     */
    private static List<ResourceType> deletableNamespacedKinds(ControlPlane controlPlane) {
        Set<GroupResource> seen = new HashSet<>();
        List<ResourceType> out = new ArrayList<>();
        for (ResourceType t : controlPlane.registry().stored()) {
            if (t.namespaced()
                    && t.supports("delete")
                    && t.supports("list")
                    && seen.add(t.groupResource())) {
                out.add(t);
            }
        }
        return out;
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Observed.class, this::onObserved)
                .onMessage(Worked.class, this::onWorked)
                .onMessage(
                        Requeue.class,
                        r -> {
                            queue.add(r.name());
                            drain();
                            return this;
                        })
                .build();
    }

    private Behavior<Command> onObserved(Observed observed) {
        if (observed.event() instanceof Informer.Synced synced) {
            synced.objects().forEach(this::consider);
        } else if (observed.event() instanceof Informer.Changed changed
                && changed.change() != WatchEvent.Type.DELETED) {
            consider(changed.object());
        }
        drain();
        return this;
    }

    private void consider(ObjectNode ns) {
        if (NamespaceDeletion.needsContentDeletion(ns)) {
            queue.add(ObjectMeta.name(ns));
        }
    }

    private void drain() {
        for (String name = queue.next(); name != null; name = queue.next()) {
            String started = name;
            getContext()
                    .pipeToSelf(
                            sync(name),
                            (recheck, e) -> new Worked(started, e, e == null ? recheck : null));
        }
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null && ControllerClient.code(worked.failure()) != 404) {
            getContext()
                    .getLog()
                    .info(
                            "deletion of namespace {} not finished, retrying: {}",
                            worked.name(),
                            message(worked.failure()));
            queue.failed(worked.name());
        } else {
            queue.done(worked.name());
            if (worked.recheckAfter() != null) {
                timers.startSingleTimer(
                        worked.name(), new Requeue(worked.name()), worked.recheckAfter());
            }
        }
        drain();
        return this;
    }

    /** One pass over a namespace; answers when to look again (null: nothing more to do). */
    private CompletionStage<Duration> sync(String name) {
        return client.get(namespaces, "", name)
                .thenCompose(
                        found -> {
                            if (found.isEmpty() || !DeletionState.beingDeleted(found.get())) {
                                return CompletableFuture.completedFuture(null);
                            }
                            return markTerminating(found.get())
                                    .thenCompose(
                                            ns ->
                                                    NamespaceDeletion.needsContentDeletion(ns)
                                                            ? deleteContent(ns)
                                                            : CompletableFuture.completedFuture(
                                                                    null));
                        });
    }

    private CompletionStage<ObjectNode> markTerminating(ObjectNode ns) {
        ObjectNode terminating = NamespaceDeletion.terminating(ns);
        if (terminating == null) {
            return CompletableFuture.completedFuture(ns);
        }
        return client.update(namespaces, "", ObjectMeta.name(ns), terminating, "status")
                .thenApply(r -> Json.parseTrusted(r.body()));
    }

    private CompletionStage<Duration> deleteContent(ObjectNode ns) {
        String name = ObjectMeta.name(ns);
        List<CompletableFuture<ContentRemaining>> passes = new ArrayList<>();
        for (ResourceType type : content) {
            passes.add(deleteAll(type, name).toCompletableFuture());
        }
        return CompletableFuture.allOf(passes.toArray(CompletableFuture[]::new))
                .thenCompose(
                        v -> {
                            NamespaceDeletion.Pass pass =
                                    NamespaceDeletion.summarize(
                                            passes.stream().map(CompletableFuture::join).toList());
                            return reportConditions(name, pass)
                                    .thenCompose(
                                            x -> {
                                                if (!pass.errors().isEmpty()) {
                                                    throw new CompletionException(
                                                            new IllegalStateException(
                                                                    String.join(
                                                                            ", ", pass.errors())));
                                                }
                                                if (pass.estimateSeconds() > 0) {
                                                    Duration estimate =
                                                            Duration.ofSeconds(
                                                                    pass.estimateSeconds());
                                                    return CompletableFuture.completedFuture(
                                                            estimate.compareTo(
                                                                                    settings
                                                                                            .contentRecheck())
                                                                            < 0
                                                                    ? estimate
                                                                    : settings.contentRecheck());
                                                }
                                                return finalizeNamespace(name)
                                                        .thenApply(r -> (Duration) null);
                                            });
                        });
    }

    /**
     * Deletes what of {@code type} is in the namespace and is not going yet, then counts what is
     * left.
     */
    private CompletionStage<ContentRemaining> deleteAll(ResourceType type, String namespace) {
        return list(type, namespace)
                .thenCompose(
                        items -> {
                            List<CompletableFuture<?>> deletes = new ArrayList<>();
                            for (ObjectNode item : items) {
                                if (!DeletionState.beingDeleted(item)) {
                                    deletes.add(
                                            client.delete(
                                                            type,
                                                            namespace,
                                                            ObjectMeta.name(item),
                                                            ObjectMeta.uid(item),
                                                            PropagationPolicy.BACKGROUND)
                                                    .toCompletableFuture()
                                                    .exceptionally(
                                                            e -> {
                                                                int code = ControllerClient.code(e);
                                                                if (code == 404 || code == 409) {
                                                                    return null; // gone, or
                                                                    // replaced by
                                                                    // another object:
                                                                    // the next list
                                                                    // tells
                                                                }
                                                                throw new CompletionException(e);
                                                            }));
                                }
                            }
                            return CompletableFuture.allOf(
                                    deletes.toArray(CompletableFuture[]::new));
                        })
                .thenCompose(v -> list(type, namespace))
                .thenApply(left -> ContentRemaining.of(type, namespace, left))
                .exceptionally(e -> ContentRemaining.failed(type, message(e)));
    }

    private CompletionStage<List<ObjectNode>> list(ResourceType type, String namespace) {
        ReadOptions all =
                new ReadOptions(
                        ReadOptions.Verb.LIST,
                        ReadOptions.MOST_RECENT,
                        0,
                        false,
                        false,
                        null,
                        "",
                        "");
        return client.controlPlane()
                .list(type, namespace, all)
                .thenApply(
                        chunk -> {
                            List<ObjectNode> out = new ArrayList<>(chunk.items().size());
                            chunk.items().forEach(item -> out.add(Json.parseTrusted(item)));
                            return out;
                        });
    }

    /**
     * Writes the pass's conditions onto the latest namespace when they changed; a failure is only
     * logged (the next pass writes them again), as kube's controller does.
     */
    private CompletionStage<Void> reportConditions(String name, NamespaceDeletion.Pass pass) {
        return client.get(namespaces, "", name)
                .thenCompose(
                        found -> {
                            ArrayNode merged =
                                    found.map(
                                                    ns ->
                                                            NamespaceDeletion.mergeConditions(
                                                                    ns,
                                                                    pass.conditions(),
                                                                    Timestamps.format(
                                                                            clock.instant())))
                                            .orElse(null);
                            if (merged == null) {
                                return CompletableFuture.<Void>completedFuture(null);
                            }
                            ObjectNode updated = found.get().deepCopy();
                            updated.with("status").set("conditions", merged);
                            return client.update(namespaces, "", name, updated, "status")
                                    .thenApply(r -> (Void) null);
                        })
                .exceptionally(
                        e -> {
                            getContext()
                                    .getLog()
                                    .debug(
                                            "couldn't update status conditions of namespace {}: {}",
                                            name,
                                            message(e));
                            return null;
                        });
    }

    /** Removes the {@code kubernetes} token through the finalize subresource. */
    private CompletionStage<Void> finalizeNamespace(String name) {
        return client.get(namespaces, "", name)
                .thenCompose(
                        found -> {
                            Optional<ObjectNode> ns =
                                    found.filter(NamespaceDeletion::needsContentDeletion);
                            if (ns.isEmpty()) {
                                return CompletableFuture.<Void>completedFuture(null);
                            }
                            return client.update(
                                            namespaces,
                                            "",
                                            name,
                                            NamespaceDeletion.finalized(ns.get()),
                                            "finalize")
                                    .thenApply(r -> (Void) null);
                        });
    }

    private static String message(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        return t instanceof ApiException api
                ? api.status().message()
                : String.valueOf(t.getMessage());
    }
}
