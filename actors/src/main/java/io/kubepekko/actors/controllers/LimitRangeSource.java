package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.limitranger.LimitRangeIndex;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.WatchEvent;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link LimitRangeIndex} current for the LimitRanger admission plugin, as kube's plugin
 * follows its LimitRange informer: one {@link Informer} of the LimitRanges of all namespaces, each
 * relist a replace and each change a put or remove. Every API server runs its own, so admitting a
 * pod never waits on another actor; a LimitRange created a moment ago applies once its event
 * reaches this server's watch.
 */
public final class LimitRangeSource {

    private LimitRangeSource() {}

    static final GroupResource LIMIT_RANGES = new GroupResource("", "limitranges");

    /** A source feeding {@code index} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, LimitRangeIndex index, Backoff backoff) {
        return create(Informer.ListWatch.of(controlPlane), controlPlane.registry(), index, backoff);
    }

    /** A source feeding {@code index} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source, Registry registry, LimitRangeIndex index, Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    registry.find(LIMIT_RANGES)
                            .ifPresent(
                                    type ->
                                            ctx.spawn(
                                                    Informer.create(
                                                            source, type, ctx.getSelf(), backoff),
                                                    "informer-" + LIMIT_RANGES));
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        index.replace(synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            index.remove(changed.object());
                                        } else {
                                            index.put(changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }
}
