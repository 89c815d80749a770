package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.SubresourceCreate;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Writes that create through a subresource of an existing object ({@code pods/binding}): one step
 * of {@link ObjectWrites}.
 */
final class SubresourceCreates {
    private SubresourceCreates() {}

    /**
     * A create through a subresource of an existing object (pods/binding), in kube-apiserver's
     * order: the create handler's checks of the body (type meta, namespace; system fields wiped
     * unless the subresource keeps them), then the subresource's (the name matches the URL's, the
     * body is valid), admission, the storage key's (a usable name), and storage's update: the
     * object exists, the preconditions hold, and the subresource changes it.
     */
    static WriteDecision execute(
            ResourceType type,
            String namespace,
            Function<String, ObjectNode> current,
            WriteOp.CreateSubresource op,
            ObjectWrites.Env env,
            AdmissionStep admit) {
        SubresourceCreate creation = type.strategy().subresourceCreate(op.subresource());
        if (creation == null) {
            return ObjectWrites.refused(ApiStatus.pathNotFound());
        }
        GroupVersionKind kind = creation.bodyKind();
        ObjectNode body = op.body().deepCopy();
        Optional<ApiStatus> misaddressed =
                TypeMeta.checkBody(kind, body)
                        .or(() -> BodyIdentity.placeInNamespace(type, namespace, body, true));
        if (misaddressed.isPresent()) {
            return ObjectWrites.refused(misaddressed.get());
        }
        boolean forwarded = op.forwardedFrom() != null;
        if (forwarded || !creation.takesPreconditionsFromBody()) {
            ObjectMeta.of(body)
                    .remove(
                            List.of(
                                    "creationTimestamp",
                                    "uid",
                                    "deletionTimestamp",
                                    "deletionGracePeriodSeconds",
                                    "selfLink"));
        }
        String name = ObjectMeta.name(body) == null ? "" : ObjectMeta.name(body);
        if (!forwarded && !name.equals(op.name())) {
            return ObjectWrites.refused(
                    ApiStatus.badRequest(
                            "name in URL does not match name in " + kind.kind() + " object"));
        }
        // kube's create handler runs the mutating plugins on the body before the storage
        // validates it.
        Mutation mutation = admit.mutation(Operation.CREATE, null, body);
        if (mutation instanceof Mutation.Refused refusal) {
            return ObjectWrites.refused(refusal.status());
        }
        ObjectNode admitted = ((Mutation.Admitted) mutation).object();
        // kube-apiserver answers these with 500 (an aggregate, not a Status); a request's fault is
        // a 422 here.
        List<FieldError> errors = creation.validate(admitted);
        if (!errors.isEmpty()) {
            return ObjectWrites.refused(ApiStatus.invalid(kind.group(), kind.kind(), name, errors));
        }
        // kube's BindingREST asks admission here, before storage reads the object.
        Optional<ApiStatus> refused = admit.refusal(Operation.CREATE, null, admitted);
        if (refused.isPresent()) {
            return ObjectWrites.refused(refused.get());
        }
        StorageKeys.checkName(name);
        ObjectNode existing = current.apply(name);
        if (existing == null) {
            return ObjectWrites.refused(ApiStatus.notFound(type.groupResource(), name));
        }
        if (creation.takesPreconditionsFromBody()) {
            ApiStatus violated = storagePreconditions(type, namespace, name, admitted, existing);
            if (violated != null) {
                return ObjectWrites.refused(violated);
            }
        }
        ObjectNode after =
                creation.apply(existing.deepCopy(), admitted, Timestamps.format(env.now()));
        return new WriteOutcome(
                existing,
                after,
                WriteOutcome.Answer.CREATED,
                true,
                WriteOutcome.ResponseView.SUCCESS,
                List.of());
    }

    /**
     * A uid or resourceVersion the body carries must be the object's, as storage's {@code
     * Preconditions} check them; kube-apiserver passes storage's error text on in the 409.
     */
    private static ApiStatus storagePreconditions(
            ResourceType type,
            String namespace,
            String name,
            ObjectNode body,
            ObjectNode existing) {
        return new Preconditions(
                        emptyAsNull(ObjectMeta.uid(body)),
                        emptyAsNull(ObjectMeta.resourceVersion(body)))
                .violatedBy(existing)
                .map(
                        problem -> {
                            String key =
                                    "/registry/"
                                            + type.resource()
                                            + (type.namespaced() ? "/" + namespace : "")
                                            + "/"
                                            + name;
                            return ApiStatus.conflict(
                                    type.groupResource(),
                                    name,
                                    "StorageError: invalid object, Code: 4, Key: "
                                            + key
                                            + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: "
                                            + problem);
                        })
                .orElse(null);
    }

    private static String emptyAsNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
