package io.kubepekko.http.webhook;

import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.http.webhook.WebhookAdmission.Written;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One object's create, update, patch or delete through the webhooks its rules call. When one
 * matches, the write is first run as a dry run ({@link DryRunRequests}) to learn the object it
 * would leave; the webhooks' phases run on that object ({@link WebhookCalls}); and the write is
 * sent for real: as it came when no webhook changed the object, else as the changed object ({@link
 * AdmittedWrite}: a create, or an update that must find the object unchanged since). Requests no
 * webhook's rules match go to the collection as they are.
 */
final class WebhookObjectWrites {

    /**
     * How often a write a mutating webhook changed is made again from the start when the object
     * changed between its dry run and its store: kube's patch handler retries a conflict up to 5
     * times ({@code maxRetryWhenPatchConflicts}), re-applying the patch and asking admission again.
     */
    private static final int CONFLICT_RETRIES = 5;

    private final WebhookDispatch dispatch;
    private final DryRunRequests dryRuns;

    WebhookObjectWrites(WebhookDispatch dispatch) {
        this.dispatch = dispatch;
        this.dryRuns = new DryRunRequests(dispatch.controlPlane());
    }

    /** {@code user}'s write {@code op} through {@code kind}, with the webhooks its rules call. */
    CompletionStage<Written> write(ServedKind kind, String namespace, WriteOp op, UserInfo user) {
        return write(kind, namespace, op, user, CONFLICT_RETRIES);
    }

    /**
     * The write, made again when it was stored as an update at the version its dry run read and met
     * a 409 because another write came in between: kube's guaranteed update would have re-run the
     * request on the new object. Not when the request itself names a resourceVersion (its
     * precondition is the user's, and its 409 the answer).
     */
    private CompletionStage<Written> write(
            ServedKind kind, String namespace, WriteOp op, UserInfo user, int retries) {
        AtomicBoolean rewritten = new AtomicBoolean();
        return attempt(kind, namespace, op, user, rewritten)
                .thenCompose(
                        written ->
                                retries > 0
                                                && rewritten.get()
                                                && conflict(written.result(), op)
                                                && !namesResourceVersion(op)
                                        ? write(kind, namespace, op, user, retries - 1)
                                        : CompletableFuture.completedFuture(written));
    }

    /**
     * Whether the stored write met another write: the object changed since the dry run (a 409
     * Conflict), or an apply that was to create it found it created meanwhile (AlreadyExists;
     * kube's apply would have become an update of it).
     */
    private static boolean conflict(WriteResult result, WriteOp op) {
        return result instanceof WriteResult.Refused r
                && r.status().code() == 409
                && ("Conflict".equals(r.status().reason())
                        || (op instanceof WriteOp.Patch
                                && "AlreadyExists".equals(r.status().reason())));
    }

    /** Whether the request carries its own resourceVersion precondition. */
    private static boolean namesResourceVersion(WriteOp op) {
        if (op instanceof WriteOp.Update u) {
            return !u.object().path("metadata").path("resourceVersion").asText("").isEmpty();
        }
        if (op instanceof WriteOp.Patch p) {
            // A patch that sets metadata.resourceVersion makes it the patched object's
            // precondition.
            return new String(p.patch(), StandardCharsets.UTF_8).contains("resourceVersion");
        }
        return true;
    }

    /** One try of the write; {@code rewritten} set when it was stored as the webhooks' object. */
    private CompletionStage<Written> attempt(
            ServedKind kind, String namespace, WriteOp op, UserInfo user, AtomicBoolean rewritten) {
        ControlPlane plane = dispatch.controlPlane();
        if (dispatch.index().isEmpty() || op instanceof WriteOp.CreateSubresource) {
            return plain(plane, kind, namespace, op, user);
        }
        WebhookRequest base = WriteRequests.base(kind, namespace, op, user);
        List<WebhookRules.Version> versions = dispatch.versions(kind);
        List<Webhook> mutating =
                WebhookRules.candidates(dispatch.index().mutating(), base, versions);
        List<Webhook> validating =
                WebhookRules.candidates(dispatch.index().validating(), base, versions);
        if (mutating.isEmpty() && validating.isEmpty()) {
            return plain(plane, kind, namespace, op, user);
        }
        return dryRuns.prepare(kind, namespace, op, user, base)
                .thenCompose(
                        prepared -> {
                            if (prepared.refusal() != null) {
                                return done(prepared.refusal());
                            }
                            if (prepared.request() == null) {
                                return plain(plane, kind, namespace, op, user);
                            }
                            return dispatch.admit(
                                            prepared.request(),
                                            mutating,
                                            validating,
                                            versions,
                                            dispatch.kindsByVersion(kind))
                                    .thenCompose(
                                            admitted ->
                                                    store(
                                                            kind, namespace, op, user, prepared,
                                                            admitted, rewritten));
                        });
    }

    /**
     * The write as the webhooks left it: refused, sent as it came when they changed nothing, else
     * sent as their object.
     */
    private CompletionStage<Written> store(
            ServedKind kind,
            String namespace,
            WriteOp op,
            UserInfo user,
            DryRunRequests.Prepared prepared,
            WebhookCalls.Admitted admitted,
            AtomicBoolean rewritten) {
        if (admitted.refusal() != null) {
            return CompletableFuture.completedFuture(
                    new Written(
                            new WriteResult.Refused(admitted.refusal()),
                            admitted.warnings(),
                            admitted.annotations()));
        }
        List<String> warnings = new ArrayList<>(admitted.warnings());
        WriteOp real =
                admitted.object() == prepared.request().object()
                        ? op
                        : AdmittedWrite.of(
                                op,
                                prepared.request(),
                                prepared.oldResourceVersion(),
                                admitted.object(),
                                warnings);
        rewritten.set(real != op);
        return dispatch.controlPlane()
                .write(kind.storageType(), namespace, real, user)
                .thenApply(r -> new Written(r, warnings, admitted.annotations()));
    }

    private static CompletionStage<Written> plain(
            ControlPlane plane, ServedKind kind, String namespace, WriteOp op, UserInfo user) {
        return plane.write(kind.storageType(), namespace, op, user)
                .thenApply(r -> new Written(r, List.of()));
    }

    private static CompletionStage<Written> done(ApiStatus refusal) {
        return CompletableFuture.completedFuture(
                new Written(new WriteResult.Refused(refusal), List.of()));
    }
}
