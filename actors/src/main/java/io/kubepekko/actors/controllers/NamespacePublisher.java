package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.namespace.PublishedObject;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.Failures;
import io.kubepekko.api.watch.WatchEvent;
import java.util.HashMap;
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
 * A controller keeping one {@link PublishedObject} in every active namespace: kube's
 * serviceaccounts controller (the {@code default} ServiceAccount) and its root CA publisher ({@code
 * kube-root-ca.crt}). An informer on namespaces queues each namespace added or changed, an informer
 * on the object's resource queues the namespace of each copy changed or deleted; a queued active
 * namespace without the object gets it created, one whose copy differs gets it written back with
 * the copy's resourceVersion. A create refused because the namespace is gone or being deleted is
 * done, as kube's controllers take it; any other failure is retried after a back-off.
 */
public final class NamespacePublisher extends AbstractBehavior<NamespacePublisher.Command> {

    /** The controller's protocol: informer events and the results of its own writes. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    private record Worked(String namespace, Throwable failure) implements Command {}

    private record Requeue(String namespace) implements Command {}

    /**
     * @param workers namespaces worked on at once
     * @param informer the informers' back-off
     * @param retry back-off of a namespace whose write failed
     */
    public record Settings(int workers, Backoff informer, Backoff retry) {
        /** {@code kubepekko.controllers.namespace-publishers} of the server's config. */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")));
        }
    }

    private final ControllerClient client;
    private final PublishedObject published;
    private final ResourceType namespaces;
    private final ResourceType type;
    private final WorkQueue queue;

    /** Every namespace by name, as last observed. */
    private final Map<String, ObjectNode> namespaceObjects = new HashMap<>();

    /** The published object's copy in each namespace that has one, as last observed. */
    private final Map<String, ObjectNode> copies = new HashMap<>();

    private boolean namespacesSynced;
    private boolean copiesSynced;

    public static Behavior<Command> create(
            ControllerClient client, Settings settings, PublishedObject published) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new NamespacePublisher(
                                                ctx,
                                                client,
                                                settings,
                                                published,
                                                new WorkQueue(
                                                        settings.workers(),
                                                        settings.retry(),
                                                        (ns, delay) ->
                                                                timers.startSingleTimer(
                                                                        ns,
                                                                        new Requeue(ns),
                                                                        delay)))));
    }

    private NamespacePublisher(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            PublishedObject published,
            WorkQueue queue) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.published = published;
        this.namespaces =
                controlPlane.registry().find(new GroupResource("", "namespaces")).orElseThrow();
        this.type = controlPlane.registry().find(published.resource()).orElseThrow();
        this.queue = queue;
        var events = ctx.messageAdapter(Informer.Event.class, Observed::new);
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane),
                        namespaces,
                        events,
                        settings.informer()),
                "informer-" + namespaces.resource());
        // Of the published kind only the copies matter: selecting them by name keeps every other
        // object of the kind (each ConfigMap a user writes) out of this controller's stream.
        ctx.spawn(
                Informer.create(
                        Informer.ListWatch.of(controlPlane, "metadata.name=" + published.name()),
                        type,
                        events,
                        settings.informer()),
                "informer-" + type.resource());
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(Observed.class, this::onObserved)
                .onMessage(Worked.class, this::onWorked)
                .onMessage(
                        Requeue.class,
                        r -> {
                            queue.add(r.namespace());
                            drain();
                            return this;
                        })
                .build();
    }

    private Behavior<Command> onObserved(Observed observed) {
        boolean ofNamespaces = observed.event().type().equals(namespaces);
        if (observed.event() instanceof Informer.Synced s) {
            if (ofNamespaces) {
                namespaceObjects.clear();
                s.objects().forEach(ns -> namespaceObjects.put(ObjectMeta.name(ns), ns));
                namespacesSynced = true;
            } else {
                copies.clear();
                s.objects().forEach(this::rememberCopy);
                copiesSynced = true;
            }
            // A relist may have missed deletions and creations alike: look at every namespace.
            namespaceObjects.keySet().forEach(queue::add);
        } else if (observed.event() instanceof Informer.Changed c) {
            boolean deleted = c.change() == WatchEvent.Type.DELETED;
            if (ofNamespaces) {
                String name = ObjectMeta.name(c.object());
                if (deleted) {
                    namespaceObjects.remove(name);
                    queue.forget(name);
                } else {
                    namespaceObjects.put(name, c.object());
                    queue.add(name);
                }
            } else if (published.name().equals(ObjectMeta.name(c.object()))) {
                String namespace = ObjectMeta.namespace(c.object());
                if (deleted) {
                    copies.remove(namespace);
                } else {
                    copies.put(namespace, c.object());
                }
                queue.add(namespace);
            }
        }
        drain();
        return this;
    }

    private void rememberCopy(ObjectNode obj) {
        if (published.name().equals(ObjectMeta.name(obj))) {
            copies.put(ObjectMeta.namespace(obj), obj);
        }
    }

    private void drain() {
        if (!namespacesSynced || !copiesSynced) {
            return;
        }
        for (String ns = queue.next(); ns != null; ns = queue.next()) {
            String started = ns;
            getContext().pipeToSelf(sync(ns), (v, e) -> new Worked(started, e));
        }
    }

    private CompletionStage<Void> sync(String namespace) {
        ObjectNode ns = namespaceObjects.get(namespace);
        if (ns == null || !PublishedObject.active(ns)) {
            return CompletableFuture.completedFuture(null);
        }
        ObjectNode copy = copies.get(namespace);
        if (copy == null) {
            return client.create(type, namespace, published.created())
                    .handle(
                            (created, failure) -> {
                                if (failure != null && !settled(failure)) {
                                    throw new IllegalStateException(failure);
                                }
                                return null;
                            });
        }
        Optional<ObjectNode> corrected = published.corrected(copy);
        if (corrected.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        // The informer's copy carries the resourceVersion: a copy changed since is a 409, retried.
        return client.update(type, namespace, published.name(), corrected.get(), null)
                .thenApply(written -> null);
    }

    /**
     * Whether a refused create leaves nothing to do: the object exists already (the informer lags),
     * or the namespace is gone or being deleted (kube's NamespaceTerminating cause).
     */
    private static boolean settled(Throwable failure) {
        int code = ControllerClient.code(failure);
        if (code == 409 || code == 404) {
            return true;
        }
        return code == 403
                && Failures.unwrap(failure) instanceof ApiException api
                && api.status().details() != null
                && api.status().details().causes().stream()
                        .anyMatch(cause -> "NamespaceTerminating".equals(cause.reason()));
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null) {
            getContext()
                    .getLog()
                    .debug(
                            "{} {} in namespace {} not written, retrying: {}",
                            published.resource(),
                            published.name(),
                            worked.namespace(),
                            worked.failure().toString());
            queue.failed(worked.namespace());
        } else {
            queue.done(worked.namespace());
        }
        drain();
        return this;
    }
}
