package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.node.NodeGraph;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link NodeGraph} current, as kube-apiserver's node-authorizer graph populator: one
 * {@link Informer} per resource the graph is built from ({@link NodeGraph#SOURCES}: pods,
 * persistent volumes, volume attachments, resource slices, those the registry serves) relays each
 * relist as a {@link NodeGraph#replace} and each change as a put or remove. Every API server runs
 * its own (not a cluster singleton): its Node authorizer reads its own graph.
 *
 * <p>The graph lags the store by the watch's delay, as kube's does: a pod bound a moment ago may
 * not yet give its node its secrets, and the kubelet retries.
 */
public final class NodeGraphSource {

    private NodeGraphSource() {}

    /** A source feeding {@code graph} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, NodeGraph graph, Backoff backoff) {
        return create(Informer.ListWatch.of(controlPlane), controlPlane.registry(), graph, backoff);
    }

    /** A source feeding {@code graph} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source, Registry registry, NodeGraph graph, Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    for (GroupResource gr : NodeGraph.SOURCES) {
                        registry.find(gr)
                                .ifPresent(
                                        type ->
                                                ctx.spawn(
                                                        Informer.create(
                                                                source,
                                                                type,
                                                                ctx.getSelf(),
                                                                backoff,
                                                                PartialJson.keeping(
                                                                                NodeGraph.FIELDS
                                                                                        .get(gr))
                                                                        ::parse),
                                                        "informer-" + gr));
                    }
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        graph.replace(
                                                synced.type().groupResource(), synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        GroupResource gr = changed.type().groupResource();
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            graph.remove(gr, changed.object());
                                        } else {
                                            graph.put(gr, changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }
}
