package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.WatchEvent;
import java.util.List;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link WebhookIndex} current for the webhook admission, as kube's webhook plugins follow
 * their configuration informers: one {@link Informer} per kind (mutating and validating), each
 * relist a replace and each change a put or remove. A configuration created a moment ago is called
 * once its event reaches this server's watch, as in kube.
 */
public final class WebhookConfigurationSource {

    private WebhookConfigurationSource() {}

    static final GroupResource MUTATING =
            new GroupResource("admissionregistration.k8s.io", "mutatingwebhookconfigurations");
    static final GroupResource VALIDATING =
            new GroupResource("admissionregistration.k8s.io", "validatingwebhookconfigurations");

    /** A source feeding {@code index} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, WebhookIndex index, Backoff backoff) {
        return create(Informer.ListWatch.of(controlPlane), controlPlane.registry(), index, backoff);
    }

    /** A source feeding {@code index} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source, Registry registry, WebhookIndex index, Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    for (GroupResource gr : new GroupResource[] {MUTATING, VALIDATING}) {
                        registry.find(gr)
                                .ifPresentOrElse(
                                        type ->
                                                ctx.spawn(
                                                        Informer.create(
                                                                source,
                                                                type,
                                                                ctx.getSelf(),
                                                                backoff),
                                                        "informer-" + gr.resource()),
                                        () -> index.replace(gr.equals(MUTATING), List.of()));
                    }
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        index.replace(
                                                mutating(synced.type().resource()),
                                                synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        boolean m = mutating(changed.type().resource());
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            index.remove(m, changed.object());
                                        } else {
                                            index.put(m, changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }

    private static boolean mutating(String resource) {
        return resource.equals(MUTATING.resource());
    }
}
