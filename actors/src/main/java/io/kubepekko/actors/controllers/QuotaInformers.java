package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.actors.Backoff;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.quota.QuotaEvaluators;
import io.kubepekko.api.admission.quota.QuotaFollowing;
import io.kubepekko.api.admission.quota.QuotaLedger;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.PartialJson;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The informers that feed a {@link QuotaLedger}, children of the actor that owns it: the
 * ResourceQuotas' (parsed whole) from the start, and each resource's the quotas observed need
 * ({@link QuotaFollowing}) from the first time one does, parsing only the fields its evaluator
 * reads. Each is started and {@link QuotaLedger#follow followed} before the ledger sees the quota
 * that needs it, so the ledger knows that resource's usage is not listed yet; once started it keeps
 * running.
 */
final class QuotaInformers {

    private final ActorContext<?> ctx;
    private final Informer.ListWatch source;
    private final Registry registry;
    private final QuotaLedger ledger;
    private final Backoff backoff;
    private final ActorRef<Informer.Event> consumer;
    private final QuotaFollowing following;

    /** Starts the ResourceQuotas' informer; {@code consumer} gets every informer's events. */
    QuotaInformers(
            ActorContext<?> ctx,
            Informer.ListWatch source,
            Registry registry,
            QuotaLedger ledger,
            Backoff backoff,
            ActorRef<Informer.Event> consumer) {
        this.ctx = ctx;
        this.source = source;
        this.registry = registry;
        this.ledger = ledger;
        this.backoff = backoff;
        this.consumer = consumer;
        this.following = new QuotaFollowing(registry.stored());
        start(following.start());
    }

    /**
     * Starts the informers {@code resourceQuota} needs that are not started yet; called before the
     * ledger is told of it.
     */
    void observed(JsonNode resourceQuota) {
        start(following.neededFor(resourceQuota));
    }

    /** {@link #observed} for each quota of a list. */
    void observed(List<? extends JsonNode> resourceQuotas) {
        resourceQuotas.forEach(this::observed);
    }

    private void start(List<GroupResource> resources) {
        for (GroupResource resource : resources) {
            Optional<ResourceType> type = registry.find(resource);
            if (type.isEmpty()) {
                continue;
            }
            ledger.follow(resource);
            String name = "informer-" + resource;
            if (resource.equals(QuotaEvaluators.QUOTAS)) {
                ctx.spawn(Informer.create(source, type.get(), consumer, backoff), name);
            } else {
                PartialJson fields =
                        PartialJson.keeping(
                                QuotaEvaluators.of(resource).orElseThrow().readFields());
                ctx.spawn(
                        Informer.create(source, type.get(), consumer, backoff, fields::parse),
                        name);
            }
        }
    }
}
