package io.kubepekko.actors.controllers;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.quota.QuotaEvaluators;
import io.kubepekko.api.admission.quota.QuotaLedger;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.watch.WatchEvent;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Keeps a {@link QuotaLedger} current with what its {@link QuotaInformers} observe: the
 * ResourceQuotas of all namespaces and the objects of the resources they need, each informer
 * started the first time a quota needs it. Every API server runs its own, so admitting a write
 * never waits on another actor.
 */
public final class QuotaSource {

    private QuotaSource() {}

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
                    QuotaInformers informers =
                            new QuotaInformers(
                                    ctx, source, registry, ledger, backoff, ctx.getSelf());
                    return Behaviors.receive(Informer.Event.class)
                            .onMessage(
                                    Informer.Synced.class,
                                    synced -> {
                                        GroupResource resource = synced.type().groupResource();
                                        if (resource.equals(QuotaEvaluators.QUOTAS)) {
                                            informers.observed(synced.objects());
                                        }
                                        ledger.replace(resource, synced.objects());
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Informer.Changed.class,
                                    changed -> {
                                        GroupResource resource = changed.type().groupResource();
                                        if (changed.change() == WatchEvent.Type.DELETED) {
                                            ledger.remove(resource, changed.object());
                                            return Behaviors.same();
                                        }
                                        if (resource.equals(QuotaEvaluators.QUOTAS)) {
                                            informers.observed(changed.object());
                                        }
                                        ledger.put(resource, changed.object());
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }
}
