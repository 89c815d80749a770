package io.kubepekko.actors.entity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.allocation.AllocatorProtocol;
import io.kubepekko.actors.allocation.ValueAllocator;
import io.kubepekko.api.alloc.ClaimResult;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.RecipientRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * A collection's claims of cluster-wide values ({@link ClusterValues}: a Service's cluster IP and
 * node ports) from the {@link ValueAllocator}; built only for kinds whose registry entry declares
 * them.
 *
 * <p>A batch first claims what its writes plan; a write whose claim is refused answers the kind's
 * error and leaves the batch. Once the batch is persisted its claim is settled (with what its
 * objects stopped holding) before anyone is answered; a batch that fails abandons it. Dry runs ask
 * the allocator to evaluate only.
 */
final class ValueClaims {

    /** The writes whose values were granted (filled in), and the refusals of the others. */
    record Granted(List<PendingWrite> kept, List<Refusal> refused) {}

    record Refusal(PendingWrite write, ApiStatus status) {}

    /**
     * A dry run's verdict: its outcome with the values filled in, or its refusal (then non-null).
     */
    record Verdict(PendingWrite write, ApiStatus refusal) {
        /** The dry run's reply. */
        WriteResult answer(ResourceType type) {
            return refusal != null
                    ? new WriteResult.Refused(refusal)
                    : WriteReplies.written(type, write.outcome(), 0, null);
        }
    }

    private final ActorContext<CollectionProtocol.Command> context;
    private final String collection;
    private final ResourceType type;
    private final ClusterValues values;
    private final RecipientRef<AllocatorProtocol.Command> allocator;
    private final ActorRef<AllocatorProtocol.Claimed> answers;

    /**
     * Dry runs waiting for the allocator's evaluation, by their key; at most {@link
     * WriteBatcher#MAX_QUEUE}.
     */
    private final Map<String, PendingWrite> dryRuns = new HashMap<>();

    private ValueClaims(
            ActorContext<CollectionProtocol.Command> context,
            String collection,
            ResourceType type,
            RecipientRef<AllocatorProtocol.Command> allocator) {
        this.context = context;
        this.collection = collection;
        this.type = type;
        this.values = type.strategy().clusterValues();
        this.allocator = allocator;
        this.answers =
                context.messageAdapter(
                        AllocatorProtocol.Claimed.class, CollectionProtocol.ClaimAnswered::new);
    }

    /**
     * The claims of {@code type}'s collection, or null when its objects hold no cluster-wide
     * values.
     */
    static ValueClaims forKind(
            ActorContext<CollectionProtocol.Command> context,
            String collection,
            ResourceType type,
            RecipientRef<AllocatorProtocol.Command> allocator) {
        if (type.strategy().clusterValues() == null) {
            return null;
        }
        return new ValueClaims(context, collection, type, allocator);
    }

    /**
     * What a write plans to claim; writes through a subresource ({@code /status}, {@code /scale},
     * {@code /binding}) claim nothing.
     */
    /**
     * The collection's answer to an allocator reconciling: the values {@code state}'s objects hold
     * ({@code claims} null: none, the kind holds no cluster-wide values) and the claim in flight.
     */
    static CollectionProtocol.Holdings holdings(
            ValueClaims claims, CollectionState state, String claimInFlight) {
        return new CollectionProtocol.Holdings(
                claims == null ? List.of() : claims.held(state.objects().values()),
                claimInFlight == null ? List.of() : List.of(claimInFlight));
    }

    ValuePlan plan(WriteOp op, WriteOutcome outcome) {
        if (!outcome.changed() || outcome.removes() || isSubresourceWrite(op)) {
            return ValuePlan.NONE;
        }
        return values.plan(outcome.before(), outcome.after());
    }

    private static boolean isSubresourceWrite(WriteOp op) {
        return (op instanceof WriteOp.Update u && u.subresource() != null)
                || (op instanceof WriteOp.Patch p && p.subresource() != null)
                || op instanceof WriteOp.CreateSubresource;
    }

    /** A new claim's id: the allocator's answer and the timeout name it. */
    static String newClaimId() {
        return UUID.randomUUID().toString();
    }

    /**
     * Claims every write's planned values in one message; the answer, or the timeout, continues the
     * batch.
     */
    void claim(String claimId, List<PendingWrite> batch) {
        List<List<ValueRequest>> requests = batch.stream().map(p -> p.plan().requests()).toList();
        allocator.tell(new AllocatorProtocol.Claim(collection, claimId, requests, false, answers));
        context.scheduleOnce(
                WriteBatcher.ALLOCATE_TIMEOUT,
                context.getSelf(),
                new CollectionProtocol.ClaimTimedOut(claimId));
    }

    /** Fills in the granted writes' values; the refused ones get the kind's error. */
    Granted split(AllocatorProtocol.Claimed reply, List<PendingWrite> batch) {
        List<PendingWrite> kept = new ArrayList<>(batch.size());
        List<Refusal> refused = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            PendingWrite p = batch.get(i);
            ClaimResult r = reply.results().get(i);
            if (p.plan().isEmpty() || r.isGranted()) {
                if (!p.plan().isEmpty()) {
                    values.fill(p.outcome().after(), p.plan(), r.granted());
                }
                kept.add(p);
            } else {
                refused.add(
                        new Refusal(
                                p,
                                values.refused(
                                        p.outcome().after(),
                                        p.plan(),
                                        r.refusedIndex(),
                                        r.refusal())));
            }
        }
        return new Granted(kept, refused);
    }

    void abandon(String claimId) {
        allocator.tell(new AllocatorProtocol.Abandon(collection, claimId));
    }

    /**
     * Tells the allocator the batch's claim ({@code null}: none) is held and which values its
     * objects stopped holding.
     */
    void settle(String claimId, List<PendingWrite> batch) {
        List<String> released = new ArrayList<>();
        for (PendingWrite p : batch) {
            ObjectNode before = p.outcome().before();
            if (before != null) {
                Set<String> kept =
                        p.outcome().removes() ? Set.of() : values.held(p.outcome().after());
                values.held(before).stream().filter(k -> !kept.contains(k)).forEach(released::add);
            }
        }
        if (claimId != null || !released.isEmpty()) {
            allocator.tell(new AllocatorProtocol.Settle(collection, claimId, released));
        }
    }

    /**
     * Asks the allocator to evaluate a dry run's plan; the refusal when too many wait already, else
     * null.
     */
    ApiStatus evaluate(PendingWrite dryRun) {
        if (dryRuns.size() >= WriteBatcher.MAX_QUEUE) {
            return ApiStatus.tooManyRequests(
                    "too many dry runs are waiting for "
                            + type.groupResource()
                            + ", please try again later",
                    1);
        }
        String key = UUID.randomUUID().toString();
        dryRuns.put(key, dryRun);
        context.ask(
                AllocatorProtocol.Claimed.class,
                allocator,
                WriteBatcher.ALLOCATE_TIMEOUT,
                r ->
                        new AllocatorProtocol.Claim(
                                collection, key, List.of(dryRun.plan().requests()), true, r),
                (reply, failure) ->
                        new CollectionProtocol.DryRunAnswered(
                                key, reply, failure == null ? null : String.valueOf(failure)));
        return null;
    }

    /**
     * A dry run answers with the values Kubernetes' dry-run allocators show, or the refusal it
     * would get; null when the answer is for no dry run waiting.
     */
    Verdict evaluated(CollectionProtocol.DryRunAnswered a) {
        PendingWrite d = dryRuns.remove(a.claimId());
        if (d == null) {
            return null;
        }
        AllocatorProtocol.Claimed reply = a.reply();
        if (reply == null || reply.unavailable() != null) {
            return new Verdict(d, unavailable(reply == null ? a.failure() : reply.unavailable()));
        }
        ClaimResult r = reply.results().get(0);
        if (!r.isGranted()) {
            return new Verdict(
                    d,
                    values.refused(d.outcome().after(), d.plan(), r.refusedIndex(), r.refusal()));
        }
        values.fill(d.outcome().after(), d.plan(), r.granted());
        return new Verdict(d, null);
    }

    /** Why a batch, or a dry run, of {@code type} got no values. */
    static String cannotAllocate(ResourceType type, String why) {
        return "cannot allocate values for " + type.groupResource() + ": " + why;
    }

    private ApiStatus unavailable(String why) {
        return ApiStatus.serviceUnavailable(cannotAllocate(type, why));
    }

    /** The keys the stored objects hold, computed from them by the kind's {@link ClusterValues}. */
    List<String> held(Iterable<byte[]> stored) {
        Set<String> held = new TreeSet<>();
        for (byte[] object : stored) {
            held.addAll(values.held(Json.parseTrusted(object)));
        }
        return new ArrayList<>(held);
    }
}
