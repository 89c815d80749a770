package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.codec.BodyDecoder;
import io.kubepekko.api.codec.DecodedBody;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The generic write pipeline, executed by the single writer of a collection: fill system fields,
 * default, admit's mutating phase (a user's write), prepare (status split, generation), admit's
 * refusing phase (a user's write: {@link WriteAdmission}, with the stored object and the complete
 * new one), validate, check uniqueness and preconditions. Pure: the current objects come from a
 * lookup, time and randomness from {@link Env}.
 *
 * <p>This is its entry: it checks the body's type meta and identity, hands the write to its step
 * ({@link ObjectCreates}, {@link ObjectUpdates}, {@link ObjectPatches}, {@link SubresourceCreates},
 * {@link Deletion}), then records managers and fits the size limit.
 */
public final class ObjectWrites {

    /**
     * Removes fields the kind's schema does not know from an object produced by a patch, and
     * reports them per {@code fieldValidation}: returns warnings, or throws 400 under {@code
     * Strict}.
     */
    @FunctionalInterface
    public interface FieldPruner {
        FieldPruner NONE = (type, obj, fieldValidation) -> new Pruned(obj, List.of());

        Pruned prune(ResourceType type, ObjectNode obj, FieldValidation fieldValidation);

        /**
         * As {@link #prune}, for a server-side apply configuration, which keeps its empty maps and
         * lists for the merge; by default the same as {@link #prune}.
         */
        default Pruned pruneAppliedConfiguration(
                ResourceType type, ObjectNode config, FieldValidation fieldValidation) {
            return prune(type, config, fieldValidation);
        }
    }

    /** An object with unknown fields removed, and the warnings to send about them. */
    public record Pruned(ObjectNode object, List<String> warnings) {}

    /** The pruner backed by the kinds' structural schemas ({@link BodyDecoder#prune}). */
    public static final FieldPruner SCHEMA_PRUNER =
            new FieldPruner() {
                @Override
                public Pruned prune(
                        ResourceType type, ObjectNode obj, FieldValidation fieldValidation) {
                    DecodedBody d = BodyDecoder.forKind(type.gvk()).prune(obj, fieldValidation);
                    return new Pruned(d.object(), d.warnings());
                }

                @Override
                public Pruned pruneAppliedConfiguration(
                        ResourceType type, ObjectNode config, FieldValidation fieldValidation) {
                    DecodedBody d =
                            BodyDecoder.forKind(type.gvk())
                                    .pruneAppliedConfiguration(config, fieldValidation);
                    return new Pruned(d.object(), d.warnings());
                }
            };

    /**
     * What one write may observe besides the collection: the clock and the sources of randomness.
     */
    public record Env(Instant now, Supplier<String> uids, Supplier<String> nameSuffixes) {}

    /** The default object size limit (see {@link ObjectSizeLimit}). */
    public static final long DEFAULT_MAX_OBJECT_BYTES = ObjectSizeLimit.DEFAULT_MAX_OBJECT_BYTES;

    private final ObjectPatches patches;
    private final ObjectSizeLimit sizeLimit;
    private final WriteAdmission admission;

    /** The served versions a write may be made through ({@link WriteOptions#apiVersion()}). */
    private final Registry registry;

    public ObjectWrites(FieldPruner pruner) {
        this(pruner, DEFAULT_MAX_OBJECT_BYTES);
    }

    /** A pipeline that admits every write. */
    public ObjectWrites(FieldPruner pruner, long maxObjectBytes) {
        this(pruner, maxObjectBytes, WriteAdmission.NONE);
    }

    /**
     * @param maxObjectBytes the largest object a write may leave stored: its JSON as the pipeline
     *     produces it, managedFields included, before the resourceVersion (and a Service's
     *     allocated IPs and ports) are filled in
     * @param admission what a user's write is admitted by ({@link #execute(ResourceType, String,
     *     Function, WriteOp, Env, UserInfo)})
     */
    public ObjectWrites(FieldPruner pruner, long maxObjectBytes, WriteAdmission admission) {
        this(pruner, maxObjectBytes, admission, Registry.builtin());
    }

    /**
     * @param registry the kinds whose served versions a write may be made through: a write whose
     *     options name a version other than its collection's storage version is converted
     */
    public ObjectWrites(
            FieldPruner pruner, long maxObjectBytes, WriteAdmission admission, Registry registry) {
        this.patches = new ObjectPatches(pruner);
        this.sizeLimit = new ObjectSizeLimit(maxObjectBytes);
        this.admission = admission;
        this.registry = registry;
    }

    /**
     * Executes the server's own write {@code op} (a controller's, the bootstrap's) against the
     * collection {@code namespace} of {@code type}; it is not admitted.
     *
     * @param current the stored object by name, or {@code null}; the result is not mutated
     * @return the outcome, or the write's refusal
     */
    public WriteDecision execute(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env) {
        return run(type, namespace, current, op, env, AdmissionStep.NONE);
    }

    /**
     * Executes {@code user}'s write {@code op} against the collection {@code namespace} of {@code
     * type}, admitted by this pipeline's {@link WriteAdmission} with the stored object and the one
     * the write leaves.
     *
     * @param current the stored object by name, or {@code null}; the result is not mutated
     * @return the outcome, or the write's refusal
     */
    public WriteDecision execute(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env,
            UserInfo user) {
        return run(type, namespace, current, op, env, admissionStep(type, namespace, op, user));
    }

    private WriteDecision run(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env,
            AdmissionStep admit) {
        try {
            Versions versions =
                    Versions.of(
                            registry,
                            type,
                            op.options() == null ? null : op.options().apiVersion());
            WriteDecision decision =
                    dispatch(versions, versions.storage(), namespace, current, op, env, admit);
            return decision instanceof WriteOutcome out
                    ? sizeLimit.fit(op, ManagedFieldsRecorder.record(versions, op, out, env.now()))
                    : decision;
        } catch (ApiException e) {
            // The checks deep inside shared helpers refuse by throwing: decoding a patch (the
            // patch libraries), an apply configuration's form (ApplyPatches), unknown fields under
            // Strict (the pruner), a name's storage key and the kind's own checks of a field. Each
            // is caught here, once, and its refusal is the write's answer.
            return new WriteResult.Refused(e.status());
        }
    }

    /** {@code op}'s admission as {@code user}'s, addressed as the request addressed it. */
    private AdmissionStep admissionStep(
            ResourceType type, String namespace, WriteOp op, UserInfo user) {
        GroupResource resource = op.addressed(type);
        String subresource = subresource(op);
        String ns = type.namespaced() ? namespace : "";
        return new AdmissionStep() {
            @Override
            public Mutation mutation(Operation operation, ObjectNode oldObject, ObjectNode object) {
                return admission.mutation(request(operation, oldObject, object));
            }

            @Override
            public Optional<ApiStatus> refusal(
                    Operation operation, ObjectNode oldObject, ObjectNode object) {
                return admission.refusal(request(operation, oldObject, object));
            }

            private AdmissionRequest request(
                    Operation operation, ObjectNode oldObject, ObjectNode object) {
                return new AdmissionRequest(
                        operation,
                        user,
                        resource,
                        subresource,
                        ns,
                        op.targetName(),
                        object,
                        oldObject,
                        op.options().dryRun());
            }
        };
    }

    /** The subresource the request addressed; a forwarded create addressed its own resource. */
    private static String subresource(WriteOp op) {
        if (op instanceof WriteOp.Update u) {
            return u.subresource();
        } else if (op instanceof WriteOp.Patch p) {
            return p.subresource();
        } else if (op instanceof WriteOp.CreateSubresource c && c.forwardedFrom() == null) {
            return c.subresource();
        }
        return null;
    }

    /**
     * @param type the storage version's entry, with the strategy of the version the write was made
     *     through
     */
    private WriteDecision dispatch(
            Versions versions,
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp op,
            Env env,
            AdmissionStep admit) {
        if (op instanceof WriteOp.Create c) {
            ObjectNode obj = c.object().deepCopy();
            Optional<ApiStatus> mistyped = TypeMeta.checkBody(versions.served().gvk(), obj);
            if (mistyped.isPresent()) {
                return refused(mistyped.get());
            }
            return ObjectCreates.create(
                    type, namespace, current, versions.toStorage(obj), env, admit);
        } else if (op instanceof WriteOp.Update u) {
            ObjectNode obj = u.object().deepCopy();
            boolean scale = "scale".equals(u.subresource());
            // kube-apiserver's update handler checks the type, the name, then the namespace,
            // before storage sees the body.
            Optional<ApiStatus> misaddressed =
                    TypeMeta.checkBody(scale ? ScaleConversion.GVK : versions.served().gvk(), obj)
                            .or(
                                    () ->
                                            BodyIdentity.namesUrlObject(
                                                    u.name(),
                                                    type.namespaced() ? namespace : null,
                                                    obj));
            if (misaddressed.isPresent()) {
                return refused(misaddressed.get());
            }
            return ObjectUpdates.update(
                    type,
                    namespace,
                    current,
                    u.name(),
                    scale ? obj : versions.toStorage(obj),
                    u.subresource(),
                    List.of(),
                    env,
                    admit);
        } else if (op instanceof WriteOp.Patch p) {
            return patches.patch(versions, type, namespace, current, p, env, admit);
        } else if (op instanceof WriteOp.CreateSubresource c) {
            return SubresourceCreates.execute(type, namespace, current, c, env, admit);
        }
        WriteDecision deleted = Deletion.execute(type, current, (WriteOp.Delete) op, env.now());
        if (deleted instanceof WriteOutcome out) {
            // kube's delete admission runs in storage, after the preconditions held: a mutating
            // plugin has no object to change there, but may refuse.
            if (admit.mutation(Operation.DELETE, out.before(), null)
                    instanceof Mutation.Refused refusedDelete) {
                return refused(refusedDelete.status());
            }
            Optional<ApiStatus> refused = admit.refusal(Operation.DELETE, out.before(), null);
            if (refused.isPresent()) {
                return refused(refused.get());
            }
        }
        return deleted;
    }

    static WriteDecision withWarnings(WriteDecision d, List<String> warnings) {
        if (warnings.isEmpty() || !(d instanceof WriteOutcome o)) {
            return d;
        }
        List<String> all = new ArrayList<>(warnings);
        all.addAll(o.warnings());
        return o.withWarnings(all);
    }

    static WriteResult.Refused invalid(ResourceType type, String name, List<FieldError> errors) {
        return refused(ApiStatus.invalid(type.group(), type.kind(), name, errors));
    }

    static WriteResult.Refused refused(ApiStatus status) {
        return new WriteResult.Refused(status);
    }
}
