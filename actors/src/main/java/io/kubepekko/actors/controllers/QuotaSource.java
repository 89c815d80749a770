package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.quota.QuotaEvaluator;
import io.kubepekko.api.admission.quota.QuotaEvaluators;
import io.kubepekko.api.admission.quota.QuotaLedger;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.PartialJson;
import io.kubepekko.api.watch.WatchEvent;
import java.util.Optional;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link QuotaLedger} current with what its informers observe: one {@link Informer} of the
 * ResourceQuotas and one of each resource quota tracks, of all namespaces, each parsing only the
 * fields its evaluator reads. Every API server runs its own, so admitting a write never waits on
 * another actor.
 */
public final class QuotaSource {

    private QuotaSource() {}

    static final GroupResource QUOTAS = new GroupResource("", "resourcequotas");

    /** A source feeding {@code ledger} from {@code controlPlane}'s watch caches. */
    public static Behavior<Informer.Event> create(
            ControlPlane controlPlane, QuotaLedger ledger, Backoff backoff) {
        return create(
                Informer.ListWatch.of(controlPlane), controlPlane.registry(), ledger, backoff);
    }

    /** A source feeding {@code ledger} from {@code source} (scripted in tests). */
    public static Behavior<Informer.Event> create(
            Informer.ListWatch source, Registry registry, QuotaLedger ledger, Backoff backoff) {
        return Behaviors.setup(
                ctx -> {
                    for (GroupResource resource : QuotaEvaluators.followed(registry.stored())) {
                        Optional<ResourceType> type = registry.find(resource);
                        if (type.isEmpty()) {
                            continue;
                        }
                        ledger.follow(resource);
                        String name = "informer-" + resource;
                        if (resource.equals(QUOTAS)) {
                            ctx.spawn(
                                    Informer.create(source, type.get(), ctx.getSelf(), backoff),
                                    name);
                        } else {
                            QuotaEvaluator evaluator = QuotaEvaluators.of(resource).orElseThrow();
                            PartialJson fields = PartialJson.keeping(evaluator.readFields());
                            ctx.spawn(
                                    Informer.create(
                                            source,
                                            type.get(),
                                            ctx.getSelf(),
                                            backoff,
                                            fields::parse),
                                    name);
                        }
                    }
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        ledger.replace(
                                                synced.type().groupResource(), synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        GroupResource resource = changed.type().groupResource();
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            ledger.remove(resource, changed.object());
                                        } else {
                                            ledger.put(resource, changed.object());
                                        }
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }
}
