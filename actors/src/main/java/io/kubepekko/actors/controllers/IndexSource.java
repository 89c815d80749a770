package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.InformedIndex;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.WatchEvent;
import java.util.List;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps an {@link InformedIndex} of one resource current for the admission plugin that reads it
 * (LimitRanger's LimitRanges, ServiceAccount's accounts, Priority's PriorityClasses,
 * DefaultStorageClass's StorageClasses, the webhook configurations), as kube's plugins follow their
 * informers: one {@link Informer} over every namespace, each relist a replace and each change a put
 * or remove. Every API server runs its own, so admitting a write never waits on another actor; an
 * object created a moment ago applies once its event reaches this server's watch.
 */
public final class IndexSource {

    private IndexSource() {}

    /** A source feeding {@code objects} with {@code resource} from {@code controlPlane}. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane,
            GroupResource resource,
            InformedIndex objects,
            Backoff backoff) {
        return create(
                Informer.ListWatch.of(controlPlane),
                controlPlane.registry(),
                resource,
                objects,
                backoff);
    }

    /** A source feeding {@code objects} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source,
            Registry registry,
            GroupResource resource,
            InformedIndex objects,
            Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    registry.find(resource)
                            .ifPresentOrElse(
                                    type ->
                                            ctx.spawn(
                                                    Informer.create(
                                                            source, type, ctx.getSelf(), backoff),
                                                    "informer-" + resource),
                                    // Not served (--runtime-config): there is none to list.
                                    () -> objects.replace(List.of()));
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        objects.replace(synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            objects.remove(changed.object());
                                        } else {
                                            objects.put(changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }
}
