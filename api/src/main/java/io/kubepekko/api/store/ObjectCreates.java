package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The create step of {@link ObjectWrites}: system fields (uid, creationTimestamp, a generated
 * name), the kind's defaults, mutating admission, the kind's initial status, refusing admission,
 * validation, and the uniqueness of the name.
 */
final class ObjectCreates {
    private ObjectCreates() {}

    private static final int GENERATE_NAME_ATTEMPTS = 8;

    /** Creates {@code obj} (owned by the write: it is filled in place) unless the name is taken. */
    static WriteDecision create(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            ObjectNode obj,
            ObjectWrites.Env env,
            AdmissionStep admit) {
        Optional<ApiStatus> misplaced = BodyIdentity.placeInNamespace(type, namespace, obj, true);
        if (misplaced.isPresent()) {
            return ObjectWrites.refused(misplaced.get());
        }
        ObjectNode meta = ObjectMeta.of(obj);
        String rv = ObjectMeta.resourceVersion(obj);
        if (rv != null && !rv.isEmpty()) {
            return ObjectWrites.refused(
                    ApiStatus.badRequest(
                            "resourceVersion should not be set on objects to be created"));
        }
        String name = ObjectMeta.name(obj);
        String generateName = ObjectMeta.generateName(obj);
        if ((name == null || name.isEmpty()) && generateName != null && !generateName.isEmpty()) {
            name = generateUnusedName(generateName, current, env);
            meta.put("name", name);
        }
        meta.put("uid", env.uids().get());
        meta.put("creationTimestamp", Timestamps.format(env.now()));
        meta.remove(
                List.of(
                        "deletionTimestamp",
                        "deletionGracePeriodSeconds",
                        "selfLink",
                        "resourceVersion"));
        if (type.tracksGeneration()) {
            meta.put("generation", 1);
        } else {
            meta.remove("generation");
        }
        // Kubernetes defaults while decoding, before PrepareForCreate derives the initial status
        // from
        // the spec (a pod's qosClass counts requests defaulted from limits). Defaults run again
        // below
        // because some depend on the status the object is created with; they only fill unset
        // fields.
        type.strategy().applyDefaults(obj);
        // kube's create handler runs the mutating admission plugins on the decoded (defaulted)
        // object, before the store prepares it: a pod's qosClass counts LimitRanger's defaults.
        Mutation mutation = admit.mutation(Operation.CREATE, null, obj);
        if (mutation instanceof Mutation.Refused refusal) {
            return ObjectWrites.refused(refusal.status());
        }
        obj = ((Mutation.Admitted) mutation).object();
        if (type.hasStatus()) {
            JsonNode initial = type.strategy().initialStatus(obj);
            if (initial == null) {
                obj.remove("status");
            } else {
                obj.set("status", initial.deepCopy());
            }
        }
        type.strategy().applyDefaults(obj);
        type.strategy().prepareForCreate(obj);
        Optional<ApiStatus> refused = admit.refusal(Operation.CREATE, null, obj);
        if (refused.isPresent()) {
            return ObjectWrites.refused(refused.get());
        }
        List<FieldError> errors = new ArrayList<>(ObjectMetaValidation.validateCreate(type, obj));
        errors.addAll(type.strategy().validateCreate(obj));
        if (!errors.isEmpty()) {
            return ObjectWrites.invalid(type, name, errors);
        }
        if (current.apply(name) != null) {
            return ObjectWrites.refused(ApiStatus.alreadyExists(type.groupResource(), name));
        }
        return new WriteOutcome(
                null,
                obj,
                WriteOutcome.Answer.CREATED,
                true,
                WriteOutcome.ResponseView.OBJECT,
                List.of());
    }

    private static String generateUnusedName(
            String prefix, Function<String, ObjectNode> current, ObjectWrites.Env env) {
        String base = prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
        String candidate = base + env.nameSuffixes().get();
        for (int i = 1; i < GENERATE_NAME_ATTEMPTS && current.apply(candidate) != null; i++) {
            candidate = base + env.nameSuffixes().get();
        }
        return candidate;
    }
}
