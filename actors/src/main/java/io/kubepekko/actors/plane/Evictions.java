package io.kubepekko.actors.plane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.policy.EvictionRules;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.Responses;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.api.watch.ReadOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code POST pods/{name}/eviction} once the request is decoded and admitted, as kube-apiserver's
 * {@code EvictionREST.Create} runs it on its storage: read the pod; a pod that {@link
 * EvictionRules#canIgnoreBudget can ignore budgets} is deleted at once; otherwise the namespace's
 * budgets are read, the one guarding the pod grants the disruption by a write of its status (409
 * retried from a fresh read), and the pod gets its {@code DisruptionTarget} condition and is
 * deleted with the eviction's options. The budget and pod writes are the server's own (kube makes
 * them through its loopback client and the pod storage, past admission). Decisions are api's {@link
 * EvictionRules}.
 */
final class Evictions {

    /** kube's {@code EvictionsRetry}: 20 steps. */
    private static final int ATTEMPTS = 20;

    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource BUDGETS =
            new GroupResource("policy", "poddisruptionbudgets");

    private final ControlPlane plane;
    private final ResourceType pods;
    private final ResourceType budgets;
    private final Clock clock;

    Evictions(ControlPlane plane, Clock clock) {
        this.plane = plane;
        this.pods = plane.registry().find(PODS).orElseThrow();
        this.budgets = plane.registry().find(BUDGETS).orElseThrow();
        this.clock = clock;
    }

    /** One eviction's request: the pod and the delete options (dry run propagated). */
    private record Eviction(String namespace, String pod, DeletionOptions options, String manager) {
        boolean dryRun() {
            return options.dryRun();
        }

        boolean versionUnset() {
            return options.preconditions() == null
                    || options.preconditions().resourceVersion() == null;
        }
    }

    CompletionStage<WriteResult> evict(
            String namespace, String pod, DeletionOptions options, String fieldManager) {
        return ignoringBudgets(new Eviction(namespace, pod, options, fieldManager), 1);
    }

    /**
     * kube's first loop: a pod that can ignore budgets is deleted (on condition of the version
     * read, unless the client gave one), retried on conflict when the client gave no version.
     */
    private CompletionStage<WriteResult> ignoringBudgets(Eviction e, int attempt) {
        return readPod(e)
                .thenCompose(
                        found -> {
                            if (found.isEmpty()) {
                                return refused(ApiStatus.notFound(PODS, e.pod()));
                            }
                            ObjectNode pod = found.get();
                            if (!EvictionRules.canIgnoreBudget(pod)) {
                                return withBudgets(e, pod);
                            }
                            DeletionOptions options = e.options();
                            if (EvictionRules.enforceResourceVersion(pod) && e.versionUnset()) {
                                options = withVersion(options, ObjectMeta.resourceVersion(pod));
                            }
                            return deletePod(e, options)
                                    .thenCompose(
                                            result ->
                                                    conflict(result)
                                                                    && e.versionUnset()
                                                                    && attempt < ATTEMPTS
                                                            ? ignoringBudgets(e, attempt + 1)
                                                            : CompletableFuture.completedFuture(
                                                                    result));
                        });
    }

    private CompletionStage<WriteResult> withBudgets(Eviction e, ObjectNode pod) {
        return plane.list(budgets, e.namespace(), mostRecentList())
                .thenCompose(
                        listed -> {
                            List<ObjectNode> all = new ArrayList<>(listed.items().size());
                            listed.items().forEach(b -> all.add(Json.parseTrusted(b)));
                            EvictionRules.Plan plan = EvictionRules.plan(pod, all);
                            if (plan instanceof EvictionRules.TooManyBudgets many) {
                                return refused(many.status());
                            }
                            if (plan instanceof EvictionRules.DeleteUnhealthy unhealthy) {
                                return deleteUnhealthy(e, pod, unhealthy.budget());
                            }
                            if (plan instanceof EvictionRules.Decrement d) {
                                return decrement(e, d.budget(), 1)
                                        .thenCompose(
                                                refusal ->
                                                        refusal.isPresent()
                                                                ? refused(refusal.get())
                                                                : deletePod(e, e.options()));
                            }
                            return deletePod(e, e.options());
                        });
    }

    /**
     * An unready pod whose removal disrupts nothing: deleted on condition it is still the version
     * read; if it changed (it may have turned Ready), kube answers 429 so that the client retries.
     */
    private CompletionStage<WriteResult> deleteUnhealthy(
            Eviction e, ObjectNode pod, String budget) {
        DeletionOptions options = withVersion(e.options(), ObjectMeta.resourceVersion(pod));
        return deletePod(e, options)
                .thenApply(
                        result ->
                                conflict(result) && e.versionUnset()
                                        ? new WriteResult.Refused(
                                                EvictionRules.stillProcessing(budget))
                                        : result);
    }

    /** kube's verify-and-decrement, retried on conflict from a fresh read of the budget. */
    private CompletionStage<Optional<ApiStatus>> decrement(
            Eviction e, ObjectNode budget, int attempt) {
        EvictionRules.Check check =
                EvictionRules.checkAndDecrement(budget, e.pod(), e.dryRun(), clock.instant());
        if (check instanceof EvictionRules.Refused r) {
            return CompletableFuture.completedFuture(Optional.of(r.status()));
        }
        if (e.dryRun()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        ObjectNode granted = ((EvictionRules.Granted) check).budget();
        String name = ObjectMeta.name(budget);
        return plane.write(
                        budgets,
                        e.namespace(),
                        new WriteOp.Update(name, granted, "status", ownWrite(e, false)))
                .thenCompose(
                        result -> {
                            if (!conflict(result)) {
                                return CompletableFuture.completedFuture(
                                        result instanceof WriteResult.Refused r
                                                ? Optional.of(r.status())
                                                : Optional.<ApiStatus>empty());
                            }
                            if (attempt >= ATTEMPTS) {
                                return CompletableFuture.completedFuture(
                                        Optional.of(EvictionRules.conflicts(name)));
                            }
                            return plane.get(budgets, e.namespace(), name)
                                    .thenCompose(
                                            fresh ->
                                                    fresh.isEmpty()
                                                            ? CompletableFuture.completedFuture(
                                                                    Optional.of(
                                                                            ApiStatus.notFound(
                                                                                    BUDGETS, name)))
                                                            : decrement(
                                                                    e,
                                                                    Json.parseTrusted(fresh.get()),
                                                                    attempt + 1));
                        });
    }

    /**
     * kube's {@code addConditionAndDeletePod}: unless dry run, the pod first gets its {@code
     * DisruptionTarget} condition (the delete's version precondition then follows that write), then
     * it is deleted with {@code options}.
     */
    private CompletionStage<WriteResult> deletePod(Eviction e, DeletionOptions options) {
        if (e.dryRun()) {
            return delete(e, options);
        }
        return markDisrupted(e, options, 1)
                .thenCompose(
                        marked -> {
                            if (marked instanceof WriteResult.Refused) {
                                return CompletableFuture.completedFuture(marked);
                            }
                            DeletionOptions next = options;
                            if (options.preconditions() != null
                                    && options.preconditions().resourceVersion() != null) {
                                next =
                                        withVersion(
                                                options,
                                                Long.toString(
                                                        ((WriteResult.Success) marked)
                                                                .resourceVersion()));
                            }
                            return delete(e, next);
                        });
    }

    /**
     * The pod's status with the condition, written over the latest pod (as storage's guaranteed
     * update: a concurrent change is read again), after the delete's preconditions are checked
     * against it.
     */
    private CompletionStage<WriteResult> markDisrupted(
            Eviction e, DeletionOptions options, int attempt) {
        return readPod(e)
                .thenCompose(
                        found -> {
                            if (found.isEmpty()) {
                                return refused(ApiStatus.notFound(PODS, e.pod()));
                            }
                            ObjectNode latest = found.get();
                            Optional<ApiStatus> failed =
                                    EvictionRules.preconditionFailure(
                                            latest,
                                            options.preconditions() == null
                                                    ? Preconditions.NONE
                                                    : options.preconditions());
                            if (failed.isPresent()) {
                                return refused(failed.get());
                            }
                            ObjectNode marked =
                                    EvictionRules.withDisruptionTarget(latest, clock.instant());
                            return plane.write(
                                            pods,
                                            e.namespace(),
                                            new WriteOp.Update(
                                                    e.pod(), marked, "status", ownWrite(e, false)))
                                    .thenCompose(
                                            result ->
                                                    conflict(result) && attempt < ATTEMPTS
                                                            ? markDisrupted(e, options, attempt + 1)
                                                            : CompletableFuture.completedFuture(
                                                                    result));
                        });
    }

    private CompletionStage<WriteResult> delete(Eviction e, DeletionOptions options) {
        WriteOp.Delete delete =
                new WriteOp.Delete(
                        e.pod(),
                        options.preconditions() == null
                                ? Preconditions.NONE
                                : options.preconditions(),
                        ownWrite(e, options.dryRun()),
                        options.gracePeriodSeconds(),
                        options.propagationPolicy(),
                        options.orphanDependents());
        return plane.write(pods, e.namespace(), delete)
                .thenApply(
                        result ->
                                result instanceof WriteResult.Refused
                                        ? result
                                        : new WriteResult.Created(
                                                Json.bytes(Responses.success(201)),
                                                ((WriteResult.Success) result).warnings(),
                                                ((WriteResult.Success) result).resourceVersion()));
    }

    private CompletionStage<Optional<ObjectNode>> readPod(Eviction e) {
        return plane.get(pods, e.namespace(), e.pod()).thenApply(f -> f.map(Json::parseTrusted));
    }

    private static WriteOptions ownWrite(Eviction e, boolean dryRun) {
        return new WriteOptions(dryRun, e.manager(), FieldValidation.IGNORE);
    }

    private static DeletionOptions withVersion(DeletionOptions o, String resourceVersion) {
        String uid = o.preconditions() == null ? null : o.preconditions().uid();
        return new DeletionOptions(
                new Preconditions(uid, resourceVersion),
                o.dryRun(),
                o.gracePeriodSeconds(),
                o.propagationPolicy(),
                o.orphanDependents());
    }

    private static ReadOptions mostRecentList() {
        return new ReadOptions(
                ReadOptions.Verb.LIST, ReadOptions.MOST_RECENT, 0, false, false, null, "", "");
    }

    private static boolean conflict(WriteResult result) {
        return result instanceof WriteResult.Refused r && r.status().code() == 409;
    }

    private static CompletionStage<WriteResult> refused(ApiStatus status) {
        return CompletableFuture.completedFuture(new WriteResult.Refused(status));
    }
}
