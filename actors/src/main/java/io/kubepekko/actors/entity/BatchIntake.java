package io.kubepekko.actors.entity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.CollectionId;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.api.store.WriteDecision;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteOutcome;
import io.kubepekko.api.store.WriteResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Takes a collection's next batch off its queue: runs each queued write through the pure pipeline
 * in {@code api}, against the stored objects overlaid with the batch's earlier writes, so that
 * uniqueness, preconditions and admission (a user's write is judged by its result against what is
 * stored, in the same step) hold as if they ran one by one. A write to an object that an earlier
 * write of the batch changes waits for the next batch: its answer, its preconditions and its
 * event's {@code before} must see that change committed, with its resourceVersion. Objects repaired
 * at recovery ({@link TypeMetaRepair}) go first, persisted as they are now.
 */
final class BatchIntake {

    /** An answer due at once: a refusal, a no-op, a dry run that claims nothing. */
    record Answer(ActorRef<WriteResult> to, WriteResult reply) {
        void send() {
            to.tell(reply);
        }
    }

    /**
     * @param taken how many queued writes were taken off the queue
     * @param batch the writes to persist together
     * @param answers the writes answered at once
     * @param dryRuns dry runs whose planned values the allocator must evaluate
     */
    record Taken(
            int taken,
            List<PendingWrite> batch,
            List<Answer> answers,
            List<PendingWrite> dryRuns) {}

    private final ActorContext<CollectionProtocol.Command> context;
    private final CollectionId id;
    private final ResourceType type;
    private final ObjectWrites writes;
    private final Environment environment;
    private final ValueClaims claims;

    /** Objects repaired at recovery, still to be persisted as they are now. */
    private final ArrayDeque<String> rewrites = new ArrayDeque<>();

    /**
     * @param claims the kind's value claims, or null
     */
    BatchIntake(
            ActorContext<CollectionProtocol.Command> context,
            CollectionId id,
            ResourceType type,
            ObjectWrites writes,
            Environment environment,
            ValueClaims claims) {
        this.context = context;
        this.id = id;
        this.type = type;
        this.writes = writes;
        this.environment = environment;
        this.claims = claims;
    }

    /**
     * Logs each object recovered with another type meta ({@code repaired}: what it had, by name),
     * once, and queues its rewrite; whether there is any.
     */
    boolean rewrite(Map<String, String> repaired) {
        repaired.forEach(
                (name, found) ->
                        context.getLog()
                                .warn(
                                        "{}: the stored object {} had {} instead of {} {}; it is served and rewritten as the collection's kind",
                                        id.entityId(),
                                        name,
                                        found,
                                        type.apiVersion(),
                                        type.kind()));
        rewrites.addAll(repaired.keySet());
        return !repaired.isEmpty();
    }

    boolean hasRewrites() {
        return !rewrites.isEmpty();
    }

    void forgetRewrites() {
        rewrites.clear();
    }

    /**
     * Runs queued writes, up to {@code max} in the batch, through the pipeline; growth is admitted
     * against the quota.
     */
    Taken take(
            CollectionState state,
            List<CollectionProtocol.Write> queued,
            int max,
            StorageQuota.Admission admission) {
        Map<String, ObjectNode> overlay = new HashMap<>();
        Function<String, ObjectNode> lookup =
                name -> {
                    if (overlay.containsKey(name)) {
                        ObjectNode o = overlay.get(name);
                        return o == null ? null : o.deepCopy();
                    }
                    byte[] stored = state.objects().get(name);
                    return stored == null ? null : Json.parseTrusted(stored);
                };
        List<PendingWrite> batch = new ArrayList<>();
        List<Answer> answers = new ArrayList<>();
        List<PendingWrite> dryRuns = new ArrayList<>();
        while (!rewrites.isEmpty() && batch.size() < max) {
            PendingWrite rewrite = typeMetaRewrite(state, rewrites.poll());
            if (rewrite != null) {
                overlay.put(ObjectMeta.name(rewrite.outcome().after()), rewrite.outcome().after());
                batch.add(rewrite);
            }
        }
        ObjectWrites.Env env = environment.env();
        int taken = 0;
        for (CollectionProtocol.Write w : queued) {
            if (batch.size() >= max || overlay.containsKey(w.op().targetName())) {
                break; // it must see that earlier write committed
            }
            taken++;
            WriteOutcome outcome;
            ValuePlan plan;
            try {
                WriteDecision decision =
                        w.user() == null
                                ? writes.execute(type, id.namespace(), lookup, w.op(), env)
                                : writes.execute(
                                        type, id.namespace(), lookup, w.op(), env, w.user());
                if (decision instanceof WriteResult.Refused refused) {
                    answers.add(new Answer(w.replyTo(), refused));
                    continue;
                }
                outcome = (WriteOutcome) decision;
                if (outcome.changed()
                        && !w.op().options().dryRun()
                        && !(w.op() instanceof WriteOp.Delete)
                        && !outcome.removes()) {
                    Optional<WriteResult.Refused> full =
                            admission.admit(() -> growth(state, outcome));
                    if (full.isPresent()) {
                        answers.add(new Answer(w.replyTo(), full.get()));
                        continue;
                    }
                }
                plan = claims == null ? ValuePlan.NONE : claims.plan(w.op(), outcome);
            } catch (ApiException e) {
                // A Service's values plan (422) refuses by exception.
                answers.add(new Answer(w.replyTo(), new WriteResult.Refused(e.status())));
                continue;
            } catch (RuntimeException e) {
                context.getLog().error("write to {} failed unexpectedly", id.entityId(), e);
                answers.add(
                        new Answer(
                                w.replyTo(),
                                new WriteResult.Refused(
                                        ApiStatus.internal(String.valueOf(e.getMessage())))));
                continue;
            }
            if (w.op().options().dryRun() && !plan.isEmpty()) {
                dryRuns.add(new PendingWrite(w, outcome, plan));
            } else if (!outcome.changed() || w.op().options().dryRun()) {
                answers.add(new Answer(w.replyTo(), WriteReplies.written(type, outcome, 0, null)));
            } else {
                overlay.put(
                        ObjectMeta.name(outcome.after()),
                        outcome.removes() ? null : outcome.after());
                batch.add(new PendingWrite(w, outcome, plan));
            }
        }
        return new Taken(taken, batch, answers, dryRuns);
    }

    /**
     * How many bytes a write adds to the stored objects (negative when it shrinks them), for the
     * {@link StorageQuota}: measured only near the quota. Deletes are never asked, even those that
     * only mark their object terminating: they must work on a full server.
     */
    private static long growth(CollectionState state, WriteOutcome outcome) {
        byte[] stored = state.objects().get(ObjectMeta.name(outcome.after()));
        return Json.bytes(outcome.after()).length - (stored == null ? 0 : stored.length);
    }

    /** The write that persists a repaired object as it is now; null when it is gone. */
    private PendingWrite typeMetaRewrite(CollectionState state, String name) {
        byte[] stored = state.objects().get(name);
        if (stored == null) {
            return null;
        }
        ObjectNode obj = Json.parseTrusted(stored);
        WriteOp op = new WriteOp.Update(name, obj, null, WriteOptions.DEFAULT);
        WriteOutcome outcome =
                new WriteOutcome(
                        obj,
                        obj.deepCopy(),
                        WriteOutcome.Answer.UPDATED,
                        true,
                        WriteOutcome.ResponseView.OBJECT,
                        List.of());
        return new PendingWrite(
                new CollectionProtocol.Write(op, context.getSystem().ignoreRef()),
                outcome,
                ValuePlan.NONE);
    }
}
