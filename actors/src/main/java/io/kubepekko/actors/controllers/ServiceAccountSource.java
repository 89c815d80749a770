package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.serviceaccount.ServiceAccountIndex;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.WatchEvent;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link ServiceAccountIndex} current for the ServiceAccount admission plugin, as kube's
 * plugin follows its ServiceAccount informer: one {@link Informer} of the ServiceAccounts of all
 * namespaces, each relist a replace and each change a put or remove. Every API server runs its own.
 */
public final class ServiceAccountSource {

    private ServiceAccountSource() {}

    static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");

    /** A source feeding {@code index} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, ServiceAccountIndex index, Backoff backoff) {
        return create(Informer.ListWatch.of(controlPlane), controlPlane.registry(), index, backoff);
    }

    /** A source feeding {@code index} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source,
            Registry registry,
            ServiceAccountIndex index,
            Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    registry.find(SERVICE_ACCOUNTS)
                            .ifPresent(
                                    type ->
                                            ctx.spawn(
                                                    Informer.create(
                                                            source, type, ctx.getSelf(), backoff),
                                                    "informer-" + SERVICE_ACCOUNTS));
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
