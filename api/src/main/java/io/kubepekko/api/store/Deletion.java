package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.gc.DeletionState;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.GarbageCollectionPolicy;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One DELETE, as Kubernetes' generic store runs it ({@code Store.Delete} with {@code
 * rest.BeforeDelete} and {@code updateForGracefulDeletionAndFinalizers}), and the namespace
 * storage's own Delete in front of it for kinds whose {@link
 * DeletionRules#terminatesOnFirstDelete()}. The result either keeps the object (terminating, or
 * unchanged) or removes it; which one, and how it answers, follows the store.
 */
final class Deletion {

    /**
     * The garbage collector's finalizers ({@code metav1.FinalizerOrphanDependents}, {@code
     * FinalizerDeleteDependents}).
     */
    static final String ORPHAN = DeletionState.ORPHAN_FINALIZER;

    static final String FOREGROUND = DeletionState.FOREGROUND_FINALIZER;

    private final ResourceType type;
    private final DeletionRules rules;
    private final WriteOp.Delete request;
    private final Instant now;
    private final List<String> warnings;

    private Deletion(ResourceType type, WriteOp.Delete request, Instant now) {
        this.type = type;
        this.rules = type.strategy().deletion();
        this.request = request;
        this.now = now;
        this.warnings =
                request.propagationPolicy() == null && request.orphanDependents() == null
                        ? rules.defaultPropagationWarnings()
                        : List.of();
    }

    /** Runs {@code request} against the object {@code current} holds under its name. */
    static WriteDecision execute(
            ResourceType type,
            Function<String, ObjectNode> current,
            WriteOp.Delete request,
            Instant now) {
        return new Deletion(type, request, now).run(current);
    }

    /**
     * Whether an update completes a two-phase deletion (the store's {@code
     * ShouldDeleteDuringUpdate}): the object was terminating with no grace period left, the update
     * leaves no finalizer, and nothing else holds it (a namespace's {@code spec.finalizers}).
     */
    static boolean completesOnUpdate(ResourceType type, ObjectNode existing, ObjectNode updated) {
        if (!terminating(existing) || !finalizers(updated).isEmpty()) {
            return false;
        }
        Long grace = gracePeriod(existing);
        return (grace == null || grace == 0) && !type.strategy().deletion().removalHeld(updated);
    }

    private WriteDecision run(Function<String, ObjectNode> current) {
        // NamespaceLifecycle admission refuses before storage is read.
        String refusal = rules.undeletable(request.name());
        if (refusal != null) {
            return new WriteResult.Refused(
                    ApiStatus.forbidden(type.groupResource(), request.name(), refusal));
        }
        ObjectNode existing = current.apply(request.name());
        if (existing == null) {
            return new WriteResult.Refused(
                    ApiStatus.notFound(type.groupResource(), request.name()));
        }
        return rules.terminatesOnFirstDelete() ? terminateFirst(existing) : generic(existing);
    }

    // ---- the namespace storage's Delete
    // -------------------------------------------------------------------

    private WriteDecision terminateFirst(ObjectNode existing) {
        Optional<String> violated = preconditions().violatedBy(existing);
        if (violated.isPresent()) {
            return new WriteResult.Refused(
                    ApiStatus.conflict(
                            type.groupResource(),
                            request.name(),
                            "Precondition failed: " + violated.get()));
        }
        if (!terminating(existing)) {
            ObjectNode marked = existing.deepCopy();
            ObjectMeta.of(marked).put("deletionTimestamp", Timestamps.format(now));
            rules.markTerminating(marked);
            // Only options the client gave move the GC finalizers here; the kind's default plays no
            // part.
            List<String> had = finalizers(marked);
            Boolean orphanDependents = request.orphanDependents();
            PropagationPolicy policy = request.propagationPolicy();
            boolean orphan =
                    orphanDependents != null
                            ? orphanDependents
                            : policy != null
                                    ? policy == PropagationPolicy.ORPHAN
                                    : had.contains(ORPHAN);
            boolean foreground =
                    orphanDependents != null
                            ? !orphanDependents
                            : policy != null
                                    ? policy == PropagationPolicy.FOREGROUND
                                    : had.contains(FOREGROUND);
            setIfChanged(marked, had, withGcFinalizers(had, orphan, foreground));
            return kept(existing, marked);
        }
        if (rules.removalHeld(existing)) {
            return kept(existing, existing);
        }
        return generic(existing);
    }

    // ---- the generic store's Delete
    // -----------------------------------------------------------------------

    private WriteDecision generic(ObjectNode existing) {
        ApiStatus violated = preconditionFailure(existing);
        if (violated != null) {
            return new WriteResult.Refused(violated);
        }
        ObjectNode obj = existing.deepCopy();
        ObjectNode meta = ObjectMeta.of(obj);
        // Negative periods count as one second on the delete path.
        Long requested =
                request.gracePeriodSeconds() != null && request.gracePeriodSeconds() < 0
                        ? Long.valueOf(1)
                        : request.gracePeriodSeconds();
        Long current = gracePeriod(obj);
        if (current != null && current < 0) {
            current = 1L;
            meta.put("deletionGracePeriodSeconds", 1);
        }
        boolean graceful = false;
        long period = 0;
        if (rules.graceful()) {
            if (terminating(obj)) {
                if (current != null && current != 0) {
                    // Already deleting gracefully: a shorter period may be asked for, never a
                    // longer one.
                    if (requested == null || requested >= current) {
                        return unchangedWhilePending(existing);
                    }
                    Instant deadline =
                            Instant.parse(meta.get("deletionTimestamp").asText())
                                    .minusSeconds(current)
                                    .plusSeconds(requested);
                    meta.put("deletionTimestamp", Timestamps.format(deadline));
                    meta.put("deletionGracePeriodSeconds", requested);
                    graceful = true;
                    period = requested;
                }
            } else {
                period = rules.gracePeriodSeconds(obj, requested);
                meta.put("deletionTimestamp", Timestamps.format(now.plusSeconds(period)));
                meta.put("deletionGracePeriodSeconds", period);
                bumpGeneration(meta);
                graceful = true;
            }
        }
        List<String> had = finalizers(obj);
        List<String> gc = gcFinalizers(had);
        if (!graceful && had.isEmpty() && gc == null) {
            return removed(existing, existing);
        }
        // updateForGracefulDeletionAndFinalizers: GC finalizers follow the options, then either the
        // object stays (finalizers pending, or a grace period running) or it goes now.
        if (gc != null) {
            setIfChanged(obj, had, gc);
        }
        boolean pendingFinalizers = !finalizers(obj).isEmpty();
        if (!graceful) {
            if (!pendingFinalizers) {
                return removed(existing, existing);
            }
            markAsDeleting(meta);
            return kept(existing, obj);
        }
        if (pendingFinalizers || period > 0) {
            return kept(existing, obj);
        }
        return removed(existing, obj);
    }

    /**
     * {@code rest.BeforeDelete}'s check of the preconditions, with its wording (the kind, not the
     * resource): the refusal, or null when they hold.
     */
    private ApiStatus preconditionFailure(ObjectNode existing) {
        Preconditions pre = preconditions();
        GroupResource kind = new GroupResource(type.group(), type.kind());
        String uid = text(existing, "uid");
        if (pre.uid() != null && !pre.uid().equals(uid)) {
            return ApiStatus.conflict(
                    kind,
                    request.name(),
                    "the UID in the precondition ("
                            + pre.uid()
                            + ") does not match the UID in record ("
                            + uid
                            + "). The object might have been deleted and then "
                            + "recreated");
        }
        String rv = text(existing, "resourceVersion");
        if (pre.resourceVersion() != null && !pre.resourceVersion().equals(rv)) {
            return ApiStatus.conflict(
                    kind,
                    request.name(),
                    "the ResourceVersion in the precondition ("
                            + pre.resourceVersion()
                            + ") does not match the ResourceVersion in record ("
                            + rv
                            + "). The object might have been modified");
        }
        return null;
    }

    /**
     * The store's {@code deletionFinalizersForGarbageCollection}: the finalizers with {@code
     * orphan} and {@code foregroundDeletion} set as the options, then the object's own GC
     * finalizer, then the kind's default decide; {@code null} when the set does not change.
     */
    private List<String> gcFinalizers(List<String> had) {
        List<String> next = withGcFinalizers(had, shouldOrphan(had), shouldDeleteDependents(had));
        return new HashSet<>(had).equals(new HashSet<>(next)) ? null : next;
    }

    private boolean shouldOrphan(List<String> had) {
        GarbageCollectionPolicy policy = rules.defaultGarbageCollectionPolicy();
        if (policy == GarbageCollectionPolicy.UNSUPPORTED) {
            return false;
        }
        if (request.orphanDependents() != null) {
            return request.orphanDependents();
        }
        if (request.propagationPolicy() != null) {
            return request.propagationPolicy() == PropagationPolicy.ORPHAN;
        }
        String first = firstGcFinalizer(had);
        if (first != null) {
            return first.equals(ORPHAN);
        }
        return policy == GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
    }

    private boolean shouldDeleteDependents(List<String> had) {
        if (rules.defaultGarbageCollectionPolicy() == GarbageCollectionPolicy.UNSUPPORTED
                || request.orphanDependents() != null) {
            return false;
        }
        if (request.propagationPolicy() != null) {
            return request.propagationPolicy() == PropagationPolicy.FOREGROUND;
        }
        return FOREGROUND.equals(firstGcFinalizer(had));
    }

    private static String firstGcFinalizer(List<String> finalizers) {
        return finalizers.stream()
                .filter(f -> f.equals(ORPHAN) || f.equals(FOREGROUND))
                .findFirst()
                .orElse(null);
    }

    private static List<String> withGcFinalizers(
            List<String> had, boolean orphan, boolean foreground) {
        List<String> next =
                new ArrayList<>(
                        had.stream()
                                .filter(f -> !f.equals(ORPHAN) && !f.equals(FOREGROUND))
                                .toList());
        if (orphan) {
            next.add(ORPHAN);
        }
        if (foreground) {
            next.add(FOREGROUND);
        }
        return next;
    }

    /**
     * The store's {@code markAsDeleting}: a deletion timestamp no later than now, and no grace
     * period.
     */
    private void markAsDeleting(ObjectNode meta) {
        JsonNode ts = meta.get("deletionTimestamp");
        if (ts == null || ts.isNull()) {
            bumpGeneration(meta);
            meta.put("deletionTimestamp", Timestamps.format(now));
        } else if (Instant.parse(ts.asText()).isAfter(now)) {
            meta.put("deletionTimestamp", Timestamps.format(now));
        }
        meta.put("deletionGracePeriodSeconds", 0);
    }

    /** Controllers see the first deletion request as a change of what they manage. */
    private static void bumpGeneration(ObjectNode meta) {
        long generation = meta.path("generation").asLong(0);
        if (generation > 0) {
            meta.put("generation", generation + 1);
        }
    }

    // ---- outcomes
    // -----------------------------------------------------------------------------------------

    /** The object stays: terminating, or untouched when nothing changed (no write, no event). */
    private WriteOutcome kept(ObjectNode existing, ObjectNode after) {
        boolean changed = !after.equals(existing);
        WriteOutcome.Answer answer =
                cascadingRequested()
                        ? WriteOutcome.Answer.ACCEPTED
                        : changed ? WriteOutcome.Answer.UPDATED : WriteOutcome.Answer.UNCHANGED;
        return new WriteOutcome(
                existing,
                changed ? after : existing,
                answer,
                changed,
                WriteOutcome.ResponseView.OBJECT,
                warnings);
    }

    /**
     * A graceful deletion already runs with a period no longer than asked: answered as a finished
     * delete.
     */
    private WriteOutcome unchangedWhilePending(ObjectNode existing) {
        WriteOutcome.Answer answer =
                cascadingRequested() ? WriteOutcome.Answer.ACCEPTED : WriteOutcome.Answer.UNCHANGED;
        return new WriteOutcome(existing, existing, answer, false, deletedView(), warnings);
    }

    /** The object goes now; {@code last} is its final state, which the DELETED event carries. */
    private WriteOutcome removed(ObjectNode existing, ObjectNode last) {
        return new WriteOutcome(
                existing,
                last == existing ? existing.deepCopy() : last,
                WriteOutcome.Answer.DELETED,
                true,
                deletedView(),
                warnings);
    }

    private WriteOutcome.ResponseView deletedView() {
        return type.returnsDeletedObject()
                ? WriteOutcome.ResponseView.OBJECT
                : WriteOutcome.ResponseView.DELETED;
    }

    /** kube-apiserver answers 202 only to {@code orphanDependents=false} when the object stays. */
    private boolean cascadingRequested() {
        return Boolean.FALSE.equals(request.orphanDependents());
    }

    private Preconditions preconditions() {
        return request.preconditions() == null ? Preconditions.NONE : request.preconditions();
    }

    // ---- metadata
    // -----------------------------------------------------------------------------------------

    private static void setIfChanged(ObjectNode obj, List<String> had, List<String> next) {
        if (had.equals(next)) {
            return;
        }
        ObjectNode meta = ObjectMeta.of(obj);
        if (next.isEmpty()) {
            meta.remove("finalizers");
        } else {
            ArrayNode list = meta.putArray("finalizers");
            next.forEach(list::add);
        }
    }

    static boolean terminating(ObjectNode obj) {
        return obj.path("metadata").hasNonNull("deletionTimestamp");
    }

    private static Long gracePeriod(ObjectNode obj) {
        JsonNode g = obj.path("metadata").get("deletionGracePeriodSeconds");
        return g == null || g.isNull() ? null : g.asLong();
    }

    static List<String> finalizers(ObjectNode obj) {
        List<String> out = new ArrayList<>();
        obj.path("metadata").path("finalizers").forEach(f -> out.add(f.asText()));
        return out;
    }

    private static String text(ObjectNode obj, String field) {
        JsonNode v = obj.path("metadata").get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }
}
