package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.typesafe.config.Config;
import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.gc.DeletionState;
import io.kubepekko.api.gc.DependentAction;
import io.kubepekko.api.gc.GarbageCollection;
import io.kubepekko.api.gc.MetadataPatches;
import io.kubepekko.api.gc.OwnerLocation;
import io.kubepekko.api.gc.OwnerReference;
import io.kubepekko.api.gc.OwnerState;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The garbage collector: deletes objects whose owners are gone, after Kubernetes' GC controller. An
 * {@link Informer} per listable kind keeps its graph of owner references (by uid) current; a change
 * that can matter to an object queues it: a dependent whose owner is not in the graph where the
 * reference points, the dependents of a deleted owner or of an owner starting foreground deletion,
 * an owner with the {@code orphan} or {@code foregroundDeletion} finalizer. Each queued object is
 * then looked at against live reads (the graph may lag) and the decision is {@link
 * GarbageCollection}'s. Work starts once every informer has listed, so an owner's dependents are
 * all known before its finalizer is removed.
 *
 * <p>Bounded work: the queue is a set of observed uids (at most one entry per object), at most
 * {@link Settings#workers} objects are worked on at once, and an object whose work fails is retried
 * after a back-off doubling per consecutive failure.
 */
public final class GarbageCollector extends AbstractBehavior<GarbageCollector.Command> {

    /** The collector's protocol: informer events and the results of its own work. */
    public sealed interface Command {}

    private record Observed(Informer.Event event) implements Command {}

    private record Worked(String uid, Throwable failure) implements Command {}

    private record Requeue(String uid) implements Command {}

    /**
     * @param workers objects worked on at once
     * @param informer the informers' back-off
     * @param retry back-off of an object whose work failed (doubling, capped)
     */
    public record Settings(int workers, Backoff informer, Backoff retry) {
        /**
         * The settings of {@code config}, {@code kubepekko.controllers.garbage-collector} of the
         * server's.
         */
        static Settings fromConfig(Config config) {
            return new Settings(
                    config.getInt("workers"),
                    Backoff.fromConfig(config.getConfig("informer-backoff")),
                    Backoff.fromConfig(config.getConfig("retry-backoff")));
        }
    }

    /** What the graph knows of one object. */
    private record Node(
            ResourceType type,
            String namespace,
            String name,
            String uid,
            List<OwnerReference> owners,
            boolean beingDeleted,
            boolean deletingDependents,
            boolean orphaning) {
        static Node of(ResourceType type, ObjectNode obj) {
            return new Node(
                    type,
                    type.namespaced() ? ObjectMeta.namespace(obj) : "",
                    ObjectMeta.name(obj),
                    ObjectMeta.uid(obj),
                    OwnerReference.of(obj),
                    DeletionState.beingDeleted(obj),
                    DeletionState.deletingDependents(obj),
                    DeletionState.orphaningDependents(obj));
        }

        boolean blocks(String ownerUid) {
            return owners.stream()
                    .anyMatch(o -> o.uid().equals(ownerUid) && o.blockOwnerDeletion());
        }
    }

    /**
     * What the graph needs of an object. The collector sees every write of every kind, so it parses
     * only these instead of whole objects (managedFields alone are often most of one).
     */
    private static final PartialJson OWNERSHIP =
            PartialJson.keeping(
                    Set.of(
                            "apiVersion",
                            "kind",
                            "metadata.name",
                            "metadata.namespace",
                            "metadata.uid",
                            "metadata.ownerReferences",
                            "metadata.finalizers",
                            "metadata.deletionTimestamp"));

    private final Registry registry;
    private final ControllerClient client;
    private final Settings settings;
    private final Map<String, Node> nodes = new HashMap<>();

    /** Owner uid to the uids of objects naming it, whether or not the owner is observed. */
    private final Map<String, Set<String>> dependents = new HashMap<>();

    private final Map<GroupResource, Set<String>> byType = new HashMap<>();
    private final Set<GroupResource> unsynced = new HashSet<>();
    private final WorkQueue queue;

    public static Behavior<Command> create(ControllerClient client, Settings settings) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new GarbageCollector(
                                                ctx,
                                                client,
                                                settings,
                                                new WorkQueue(
                                                        settings.workers(),
                                                        settings.retry(),
                                                        (uid, delay) ->
                                                                timers.startSingleTimer(
                                                                        uid,
                                                                        new Requeue(uid),
                                                                        delay)))));
    }

    private GarbageCollector(
            ActorContext<Command> ctx,
            ControllerClient client,
            Settings settings,
            WorkQueue queue) {
        super(ctx);
        this.client = client;
        ControlPlane controlPlane = client.controlPlane();
        this.registry = controlPlane.registry();
        this.settings = settings;
        this.queue = queue;
        var events = ctx.messageAdapter(Informer.Event.class, Observed::new);
        Informer.ListWatch source = Informer.ListWatch.of(controlPlane);
        for (ResourceType type : registry.stored()) {
            // One informer per stored group-resource, in its storage version.
            if (type.supports("list")
                    && type.supports("watch")
                    && unsynced.add(type.groupResource())) {
                ctx.spawn(
                        Informer.create(
                                source, type, events, settings.informer(), OWNERSHIP::parse),
                        "informer-" + type.groupResource().toString().replace('/', '.'));
            }
        }
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessage(
                        Observed.class,
                        o -> {
                            observe(o.event());
                            drain();
                            return this;
                        })
                .onMessage(Worked.class, this::onWorked)
                .onMessage(
                        Requeue.class,
                        r -> {
                            queue.add(r.uid());
                            drain();
                            return this;
                        })
                .build();
    }

    private void observe(Informer.Event event) {
        if (event instanceof Informer.Synced synced) {
            Set<String> listed = new HashSet<>();
            for (ObjectNode obj : synced.objects()) {
                listed.add(ObjectMeta.uid(obj));
                upsert(synced.type(), obj);
            }
            for (String uid :
                    new ArrayList<>(byType.getOrDefault(synced.type().groupResource(), Set.of()))) {
                if (!listed.contains(uid)) {
                    remove(uid);
                }
            }
            unsynced.remove(synced.type().groupResource());
        } else if (event instanceof Informer.Changed changed) {
            if (changed.change() == WatchEvent.Type.DELETED) {
                remove(ObjectMeta.uid(changed.object()));
            } else {
                upsert(changed.type(), changed.object());
            }
        }
    }

    private void upsert(ResourceType type, ObjectNode obj) {
        Node node = Node.of(type, obj);
        Node old = nodes.put(node.uid(), node);
        byType.computeIfAbsent(type.groupResource(), k -> new HashSet<>()).add(node.uid());
        if (old != null) {
            for (OwnerReference was : old.owners()) {
                if (node.owners().stream().noneMatch(o -> o.uid().equals(was.uid()))) {
                    unlink(was.uid(), node.uid());
                }
            }
        }
        node.owners()
                .forEach(
                        o ->
                                dependents
                                        .computeIfAbsent(o.uid(), k -> new HashSet<>())
                                        .add(node.uid()));
        if (node.deletingDependents()) {
            queue.add(node.uid());
            if (old == null || !old.deletingDependents()) {
                dependentsOf(node.uid()).forEach(queue::add);
            }
        }
        if (node.orphaning()) {
            queue.add(node.uid());
        }
        if (!node.beingDeleted() && needsOwnerCheck(node)) {
            queue.add(node.uid());
        }
    }

    /**
     * Whether an owner is missing from the graph where the reference points, or waits for its
     * dependents.
     */
    private boolean needsOwnerCheck(Node node) {
        boolean check = false;
        for (OwnerReference ref : node.owners()) {
            OwnerLocation location = OwnerLocation.of(registry, node.namespace(), ref);
            if (!(location instanceof OwnerLocation.At at)) {
                return false; // never collected: nothing to check
            }
            Node owner = nodes.get(ref.uid());
            check |=
                    owner == null
                            || owner.deletingDependents()
                            || !owner.type().groupResource().equals(at.type().groupResource())
                            || !owner.namespace().equals(at.namespace())
                            || !owner.name().equals(at.name());
        }
        return check;
    }

    private void remove(String uid) {
        Node node = nodes.remove(uid);
        if (node == null) {
            return;
        }
        byType.getOrDefault(node.type().groupResource(), Set.of()).remove(uid);
        // Its dependents lost an owner; owners waiting for it may go on.
        dependentsOf(uid).forEach(queue::add);
        for (OwnerReference ref : node.owners()) {
            unlink(ref.uid(), uid);
            Node owner = nodes.get(ref.uid());
            if (owner != null && (owner.deletingDependents() || owner.orphaning())) {
                queue.add(owner.uid());
            }
        }
    }

    private void unlink(String ownerUid, String dependentUid) {
        Set<String> deps = dependents.get(ownerUid);
        if (deps != null && deps.remove(dependentUid) && deps.isEmpty()) {
            dependents.remove(ownerUid);
        }
    }

    private List<String> dependentsOf(String uid) {
        return List.copyOf(dependents.getOrDefault(uid, Set.of()));
    }

    private void drain() {
        if (!unsynced.isEmpty()) {
            return;
        }
        for (String uid = queue.next(); uid != null; uid = queue.next()) {
            String started = uid;
            getContext().pipeToSelf(work(uid), (v, e) -> new Worked(started, e));
        }
    }

    private Behavior<Command> onWorked(Worked worked) {
        if (worked.failure() != null && ControllerClient.code(worked.failure()) != 404) {
            getContext()
                    .getLog()
                    .debug(
                            "garbage collection of {} failed, retrying: {}",
                            worked.uid(),
                            worked.failure().toString());
            queue.failed(worked.uid());
        } else {
            queue.done(worked.uid());
        }
        drain();
        return this;
    }

    /**
     * The work one queued object needs, started from the actor's thread with what the graph knows.
     */
    private CompletionStage<Void> work(String uid) {
        Node node = nodes.get(uid);
        if (node == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (node.deletingDependents()) {
            List<Node> blocking = new ArrayList<>();
            for (String dep : dependentsOf(uid)) {
                Node d = nodes.get(dep);
                if (d != null && d.blocks(uid)) {
                    blocking.add(d);
                }
            }
            if (blocking.isEmpty()) {
                return removeFinalizer(node, DeletionState.FOREGROUND_FINALIZER);
            }
            blocking.stream().filter(d -> !d.deletingDependents()).forEach(d -> queue.add(d.uid()));
            return CompletableFuture.completedFuture(null);
        }
        if (node.orphaning()) {
            return orphanDependents(
                    node,
                    dependentsOf(uid).stream().map(nodes::get).filter(d -> d != null).toList());
        }
        if (node.beingDeleted() || node.owners().isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return attemptToDelete(node, dependents.containsKey(uid));
    }

    private CompletionStage<Void> attemptToDelete(Node node, boolean hasDependents) {
        return client.get(node.type(), node.namespace(), node.name())
                .thenCompose(
                        found -> {
                            ObjectNode latest =
                                    found.filter(o -> node.uid().equals(ObjectMeta.uid(o)))
                                            .orElse(null);
                            if (latest == null) {
                                return CompletableFuture.completedFuture(null);
                            }
                            return ownerStates(node, latest)
                                    .thenCompose(
                                            states ->
                                                    act(
                                                            node,
                                                            latest,
                                                            GarbageCollection.forDependent(
                                                                    latest,
                                                                    states,
                                                                    hasDependents)));
                        });
    }

    /** Each resolvable owner reference's state, read live; unresolvable ones are left out. */
    private CompletionStage<Map<String, OwnerState>> ownerStates(Node node, ObjectNode latest) {
        Map<String, OwnerState> states = new ConcurrentHashMap<>();
        List<CompletableFuture<?>> reads = new ArrayList<>();
        for (OwnerReference ref : OwnerReference.of(latest)) {
            if (OwnerLocation.of(registry, node.namespace(), ref) instanceof OwnerLocation.At at) {
                reads.add(
                        client.get(at.type(), at.namespace(), at.name())
                                .toCompletableFuture()
                                .thenAccept(
                                        owner ->
                                                states.put(
                                                        ref.uid(),
                                                        OwnerState.classify(
                                                                ref, owner.orElse(null)))));
            }
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(v -> states);
    }

    private CompletionStage<Void> act(Node node, ObjectNode latest, DependentAction action) {
        if (action instanceof DependentAction.Delete delete && node.type().supports("delete")) {
            return client.delete(
                            node.type(),
                            node.namespace(),
                            node.name(),
                            node.uid(),
                            delete.propagationPolicy())
                    .thenApply(r -> null);
        }
        if (action instanceof DependentAction.RemoveOwnerReferences remove
                && node.type().supports("patch")) {
            return patch(node, MetadataPatches.withoutOwnerReferences(latest, remove.ownerUids()));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Releases every dependent from {@code owner}, then lets the owner go. */
    private CompletionStage<Void> orphanDependents(Node owner, List<Node> deps) {
        List<CompletableFuture<Void>> patches = new ArrayList<>();
        for (Node dep : deps) {
            patches.add(
                    client.get(dep.type(), dep.namespace(), dep.name())
                            .thenCompose(
                                    found ->
                                            found.filter(
                                                            o ->
                                                                    dep.uid()
                                                                                    .equals(
                                                                                            ObjectMeta
                                                                                                    .uid(
                                                                                                            o))
                                                                            && dep.type()
                                                                                    .supports(
                                                                                            "patch"))
                                                    .map(
                                                            o ->
                                                                    patch(
                                                                            dep,
                                                                            MetadataPatches
                                                                                    .withoutOwnerReferences(
                                                                                            o,
                                                                                            List.of(
                                                                                                    owner
                                                                                                            .uid()))))
                                                    .orElse(
                                                            CompletableFuture.completedFuture(
                                                                    null)))
                            .toCompletableFuture());
        }
        return CompletableFuture.allOf(patches.toArray(CompletableFuture[]::new))
                .thenCompose(v -> removeFinalizer(owner, DeletionState.ORPHAN_FINALIZER));
    }

    private CompletionStage<Void> removeFinalizer(Node node, String finalizer) {
        if (!node.type().supports("patch")) {
            return CompletableFuture.completedFuture(null);
        }
        return client.get(node.type(), node.namespace(), node.name())
                .thenCompose(
                        found ->
                                found.filter(o -> node.uid().equals(ObjectMeta.uid(o)))
                                        .map(
                                                o ->
                                                        patch(
                                                                node,
                                                                MetadataPatches.withoutFinalizer(
                                                                        o, finalizer)))
                                        .orElse(CompletableFuture.completedFuture(null)));
    }

    private CompletionStage<Void> patch(Node node, Optional<byte[]> patch) {
        if (patch.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return client.mergePatch(node.type(), node.namespace(), node.name(), patch.get())
                .thenApply(r -> null);
    }
}
