package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.rbac.ClusterRoleAggregation;
import io.kubepekko.api.auth.rbac.PolicyRule;
import io.kubepekko.api.auth.rbac.RbacRole;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.WatchEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * kube's clusterrole-aggregation controller: a ClusterRole with an {@code aggregationRule} gets as
 * {@code rules} the union of the rules of the ClusterRoles its selectors match ({@link
 * ClusterRoleAggregation}). An informer on ClusterRoles keeps every role; any change queues every
 * aggregating role (a label or rule change anywhere may change what one aggregates), and a queued
 * role whose rules differ is written with the object's resourceVersion. A 409 (the role changed
 * since the informer saw it) is retried after a back-off, by then from the informer's newer copy.
 * Chains settle by themselves: writing {@code view} is a change that queues {@code edit}.
 */
public final class ClusterRoleAggregationController
        extends AbstractBehavior<ClusterRoleAggregationController.Command> {

    /** The controller's protocol: informer events and the results of its own writes. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    private record Worked(String name, Throwable failure) implements Command {}

    private record Requeue(String name) implements Command {}

    /**
     * @param workers roles worked on at once
     * @param informer the informer's back-off
     * @param retry back-off of a role whose write failed
     */
    public record Settings(int workers, Backoff informer, Backoff retry) {
        /** {@code kubepekko.controllers.clusterrole-aggregation} of the server's config. */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")));
        }
    }

    private final ControllerClient client;
    private final ResourceType clusterRoles;
    private final WorkQueue queue;

    /** Every ClusterRole by name, as last observed, whole (it is written back whole). */
    private final Map<String, ObjectNode> objects = new HashMap<>();

    private final Map<String, RbacRole> roles = new HashMap<>();
    private boolean synced;

    public static Behavior<Command> create(ControllerClient client, Settings settings) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new ClusterRoleAggregationController(
                                                ctx,
                                                client,
                                                settings,
                                                new WorkQueue(
                                                        settings.workers(),
                                                        settings.retry(),
                                                        (name, delay) ->
                                                                timers.startSingleTimer(
                                                                        name,
                                                                        new Requeue(name),
                                                                        delay)))));
    }

    private ClusterRoleAggregationController(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            WorkQueue queue) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.clusterRoles =
                controlPlane
                        .registry()
                        .find(new GroupResource("rbac.authorization.k8s.io", "clusterroles"))
                        .orElseThrow();
        this.queue = queue;
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane),
                        clusterRoles,
                        ctx.messageAdapter(Informer.Event.class, Observed::new),
                        settings.informer()),
                "informer-clusterroles");
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
        if (observed.event() instanceof Informer.Synced s) {
            objects.clear();
            roles.clear();
            s.objects().forEach(this::remember);
            synced = true;
        } else if (observed.event() instanceof Informer.Changed c) {
            String name = ObjectMeta.name(c.object());
            if (c.change() == WatchEvent.Type.DELETED) {
                objects.remove(name);
                roles.remove(name);
                queue.forget(name);
            } else {
                remember(c.object());
            }
        }
        if (synced) {
            roles.values().stream().filter(RbacRole::aggregated).forEach(r -> queue.add(r.name()));
            drain();
        }
        return this;
    }

    private void remember(ObjectNode obj) {
        String name = ObjectMeta.name(obj);
        objects.put(name, obj);
        roles.put(name, RbacRole.fromJson(obj));
    }

    private void drain() {
        for (String name = queue.next(); name != null; name = queue.next()) {
            String started = name;
            getContext().pipeToSelf(sync(name), (v, e) -> new Worked(started, e));
        }
    }

    /** Writes the role's aggregated rules when they differ from what it holds. */
    private CompletionStage<Void> sync(String name) {
        RbacRole target = roles.get(name);
        if (target == null) {
            return CompletableFuture.completedFuture(null);
        }
        Optional<List<PolicyRule>> rules =
                ClusterRoleAggregation.update(target, List.copyOf(roles.values()));
        if (rules.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        // The informer's copy carries the resourceVersion: a role changed since is a 409.
        ObjectNode updated = objects.get(name).deepCopy();
        ArrayNode array = updated.putArray("rules");
        rules.get().forEach(r -> array.add(r.toJson()));
        return client.update(clusterRoles, "", name, updated, null).thenApply(written -> null);
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null && ControllerClient.code(worked.failure()) != 404) {
            getContext()
                    .getLog()
                    .debug(
                            "aggregation into ClusterRole {} not written, retrying: {}",
                            worked.name(),
                            worked.failure().toString());
            queue.failed(worked.name());
        } else {
            queue.done(worked.name());
        }
        drain();
        return this;
    }
}
