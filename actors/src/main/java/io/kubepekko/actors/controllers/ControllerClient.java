package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.actors.plane.RequestAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountUser;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.Failures;
import io.kubepekko.api.store.PatchType;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The reads and writes one built-in controller makes, as kube-controller-manager's client of that
 * controller makes them: reads at "Most Recent" from the {@link ControlPlane}; writes as the API
 * requests they are in kube, through the whole {@link RequestAdmission} chain as the controller's
 * own user (kube's {@code --use-service-account-credentials}: the service account {@code
 * kube-system/<controller>} its {@code system:controller:<controller>} role is bound to); deletes
 * guarded by the object's uid; every write recorded under the manager name kube's controllers get
 * from their user agent.
 */
final class ControllerClient {

    /** Where kube-controller-manager keeps its controllers' service accounts. */
    static final String NAMESPACE = "kube-system";

    /**
     * kube's controllers write with user agent {@code kube-controller-manager/v… (…)/<controller>}.
     */
    static final String FIELD_MANAGER = "kube-controller-manager";

    private static final WriteOptions OPTIONS =
            new WriteOptions(false, FIELD_MANAGER, FieldValidation.WARN);

    private final ControlPlane controlPlane;
    private final RequestAdmission admission;
    private final UserInfo user;

    /**
     * @param controller kube's name of the controller's client, which names its service account
     *     ({@code generic-garbage-collector}, {@code namespace-controller}...)
     */
    ControllerClient(ControlPlane controlPlane, RequestAdmission admission, String controller) {
        this.controlPlane = controlPlane;
        this.admission = admission;
        this.user = user(controller);
    }

    /**
     * The user a request with the controller's service-account token is authenticated as: the token
     * authenticator's name and groups, and {@code system:authenticated}, which kube's authenticator
     * union adds to every authenticated user. No uid and no credential id: kube's come from the
     * ServiceAccount object and the token it requested, which do not exist here.
     */
    static UserInfo user(String controller) {
        List<String> groups = new ArrayList<>(ServiceAccountUser.groups(NAMESPACE));
        groups.add(UserInfo.AUTHENTICATED);
        return UserInfo.of(ServiceAccountUser.userName(NAMESPACE, controller), groups);
    }

    ControlPlane controlPlane() {
        return controlPlane;
    }

    /** The object as last committed, or empty. */
    CompletionStage<Optional<ObjectNode>> get(ResourceType type, String namespace, String name) {
        return controlPlane
                .get(type, namespace, name)
                .thenApply(found -> found.map(Json::parseTrusted));
    }

    /** Deletes the object named {@code name} only while it is the one with {@code uid}. */
    CompletionStage<WriteResult.Success> delete(
            ResourceType type,
            String namespace,
            String name,
            String uid,
            PropagationPolicy propagationPolicy) {
        return write(
                type,
                namespace,
                new WriteOp.Delete(
                        name,
                        new Preconditions(uid, null),
                        OPTIONS,
                        null,
                        propagationPolicy,
                        null));
    }

    /** A create of {@code obj} in {@code namespace}. */
    CompletionStage<WriteResult.Success> create(
            ResourceType type, String namespace, ObjectNode obj) {
        return write(type, namespace, new WriteOp.Create(obj, OPTIONS));
    }

    /** A JSON merge patch of the object itself. */
    CompletionStage<WriteResult.Success> mergePatch(
            ResourceType type, String namespace, String name, byte[] patch) {
        return mergePatch(type, namespace, name, null, patch);
    }

    /** A JSON merge patch of the object's {@code subresource} (null: the object itself). */
    CompletionStage<WriteResult.Success> mergePatch(
            ResourceType type, String namespace, String name, String subresource, byte[] patch) {
        return write(
                type,
                namespace,
                new WriteOp.Patch(name, PatchType.MERGE_PATCH, patch, subresource, OPTIONS));
    }

    /** A PUT of the whole object, or of {@code subresource} ({@code status}, {@code finalize}). */
    CompletionStage<WriteResult.Success> update(
            ResourceType type, String namespace, String name, ObjectNode obj, String subresource) {
        return write(type, namespace, new WriteOp.Update(name, obj, subresource, OPTIONS));
    }

    private CompletionStage<WriteResult.Success> write(
            ResourceType type, String namespace, WriteOp op) {
        return succeeded(admission.write(type, namespace, op, user));
    }

    /**
     * A controller retries or gives up on whatever kept its write from happening, so a refusal
     * fails the stage like a timeout does, with its Status ({@link #code}).
     */
    private static CompletionStage<WriteResult.Success> succeeded(
            CompletionStage<WriteResult> write) {
        return write.thenApply(
                result -> {
                    if (result instanceof WriteResult.Refused refused) {
                        throw refused.status().exception();
                    }
                    return (WriteResult.Success) result;
                });
    }

    /** The HTTP code of a failed call's {@code Status}, or 0 when it failed otherwise. */
    static int code(Throwable failure) {
        return Failures.unwrap(failure) instanceof ApiException api ? api.status().code() : 0;
    }
}
