package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
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
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The reads and writes the built-in controllers make through {@link ControlPlane}, as
 * kube-controller-manager makes them: reads at "Most Recent", deletes guarded by the object's uid,
 * and every write recorded under the manager name kube's controllers get from their user agent.
 */
final class ControllerClient {

    /**
     * kube's controllers write with user agent {@code kube-controller-manager/v… (…)/<controller>}.
     */
    static final String FIELD_MANAGER = "kube-controller-manager";

    private static final WriteOptions OPTIONS =
            new WriteOptions(false, FIELD_MANAGER, FieldValidation.WARN);

    private final ControlPlane controlPlane;

    ControllerClient(ControlPlane controlPlane) {
        this.controlPlane = controlPlane;
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
        return succeeded(
                controlPlane.write(
                        type,
                        namespace,
                        new WriteOp.Delete(
                                name,
                                new Preconditions(uid, null),
                                OPTIONS,
                                null,
                                propagationPolicy,
                                null)));
    }

    /** A create of {@code obj} in {@code namespace}. */
    CompletionStage<WriteResult.Success> create(
            ResourceType type, String namespace, ObjectNode obj) {
        return succeeded(controlPlane.write(type, namespace, new WriteOp.Create(obj, OPTIONS)));
    }

    /** A JSON merge patch of the object itself. */
    CompletionStage<WriteResult.Success> mergePatch(
            ResourceType type, String namespace, String name, byte[] patch) {
        return mergePatch(type, namespace, name, null, patch);
    }

    /** A JSON merge patch of the object's {@code subresource} (null: the object itself). */
    CompletionStage<WriteResult.Success> mergePatch(
            ResourceType type, String namespace, String name, String subresource, byte[] patch) {
        return succeeded(
                controlPlane.write(
                        type,
                        namespace,
                        new WriteOp.Patch(
                                name, PatchType.MERGE_PATCH, patch, subresource, OPTIONS)));
    }

    /** A PUT of the whole object, or of {@code subresource} ({@code status}, {@code finalize}). */
    CompletionStage<WriteResult.Success> update(
            ResourceType type, String namespace, String name, ObjectNode obj, String subresource) {
        return succeeded(
                controlPlane.write(
                        type, namespace, new WriteOp.Update(name, obj, subresource, OPTIONS)));
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
