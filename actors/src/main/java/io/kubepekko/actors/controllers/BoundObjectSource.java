package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.serviceaccount.BoundObjectIndex;
import io.kubepekko.api.auth.serviceaccount.BoundObjects;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import java.util.Map;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link BoundObjectIndex} current for the service-account token authenticator: one {@link
 * Informer} per resource a token can name ({@link BoundObjectIndex#SOURCES}), each relist a replace
 * and each change a put or remove. Every API server runs its own, so checking a token never waits
 * on another actor. A token whose pod was deleted stops working once the deletion reaches this
 * server's watch, as in kube.
 */
public final class BoundObjectSource {

    private static final PartialJson FIELDS = PartialJson.keeping(BoundObjectIndex.FIELDS);

    private BoundObjectSource() {}

    /** A source feeding {@code index} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, BoundObjectIndex index, Backoff backoff) {
        return create(Informer.ListWatch.of(controlPlane), controlPlane.registry(), index, backoff);
    }

    /** A source feeding {@code index} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source, Registry registry, BoundObjectIndex index, Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    for (Map.Entry<GroupResource, BoundObjects.Kind> e :
                            BoundObjectIndex.SOURCES.entrySet()) {
                        registry.find(e.getKey())
                                .ifPresent(
                                        type ->
                                                ctx.spawn(
                                                        Informer.create(
                                                                source,
                                                                type,
                                                                ctx.getSelf(),
                                                                backoff,
                                                                FIELDS::parse),
                                                        "informer-" + e.getKey()));
                    }
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        index.replace(
                                                kind(synced.type().groupResource()),
                                                synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        BoundObjects.Kind kind =
                                                kind(changed.type().groupResource());
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            index.remove(kind, changed.object());
                                        } else {
                                            index.put(kind, changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }

    private static BoundObjects.Kind kind(GroupResource gr) {
        return BoundObjectIndex.SOURCES.get(gr);
    }
}
