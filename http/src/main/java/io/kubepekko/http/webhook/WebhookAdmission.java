package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.Webhook;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.admission.webhook.WebhookRequest;
import io.kubepekko.api.admission.webhook.WebhookRules;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins for one user's write,
 * around the write itself: the collection admits inside its single writer, where no webhook may be
 * waited on, so the webhooks are asked first, outside it. When a configured webhook's rules match
 * the request, the write is first run as a dry run (every default and in-server admission applied,
 * nothing stored) to learn the object it would leave; the mutating webhooks are called in order on
 * that object, their JSON patches applied; the validating ones are then called together on the
 * result; and the write is sent for real: as it came when no webhook changed the object, else as
 * the changed object (a create, or an update that must find the object unchanged since).
 *
 * <p>Requests no configured webhook's rules match go to the collection as they are, at the cost of
 * reading one snapshot. The built-in controllers' writes come here too, as their own users'
 * (through {@link RequestAdmissionChain}); the bootstrap's are not asked, unlike kube's loopback
 * writes.
 */
public final class WebhookAdmission {

    private final ControlPlane controlPlane;
    private final WebhookIndex index;
    private final WebhookCaller caller;
    private final Supplier<String> uids;
    private final MatchConditions conditions;
    private final AdmissionObserver observer;
    private final WebhookEndpoints endpoints;
    private final WebhookSideWrites sideWrites = new WebhookSideWrites(this);
    private final NamespaceLabels namespaceLabels;

    /**
     * @param index the configured webhooks, kept current by the server's informers
     * @param uids the uid of each review sent
     * @param conditions evaluates the webhooks' match conditions
     */
    public WebhookAdmission(
            ControlPlane controlPlane,
            WebhookIndex index,
            WebhookCaller caller,
            Supplier<String> uids,
            MatchConditions conditions) {
        this(controlPlane, index, caller, uids, conditions, AdmissionObserver.NONE);
    }

    /**
     * As the other constructor, with each webhook call's time and rejection told to {@code
     * observer}.
     */
    public WebhookAdmission(
            ControlPlane controlPlane,
            WebhookIndex index,
            WebhookCaller caller,
            Supplier<String> uids,
            MatchConditions conditions,
            AdmissionObserver observer) {
        this.observer = observer;
        this.controlPlane = controlPlane;
        this.index = index;
        this.caller = caller;
        this.uids = uids;
        this.conditions = conditions;
        this.endpoints = new WebhookEndpoints(controlPlane);
        this.namespaceLabels = new NamespaceLabels(controlPlane);
    }

    /** Asks no webhook: every write goes on as it came. */
    public static WebhookAdmission none(ControlPlane controlPlane) {
        return new WebhookAdmission(
                controlPlane, new WebhookIndex(), null, null, MatchConditions.ALWAYS);
    }

    /**
     * A write's answer with the warnings the webhooks gave and the audit annotations kube's
     * dispatchers add for them.
     */
    public record Written(
            WriteResult result,
            List<String> warnings,
            List<WebhookAuditAnnotations.Annotation> annotations) {
        Written(WriteResult result, List<String> warnings) {
            this(result, warnings, List.of());
        }
    }

    /**
     * How often a write a mutating webhook changed is made again from the start when the object
     * changed between its dry run and its store: kube's patch handler retries a conflict up to 5
     * times ({@code maxRetryWhenPatchConflicts}), re-applying the patch and asking admission again.
     */
    private static final int CONFLICT_RETRIES = 5;

    /** {@code user}'s write {@code op} through {@code kind}, with the webhooks its rules call. */
    public CompletionStage<Written> write(
            ServedKind kind, String namespace, WriteOp op, UserInfo user) {
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

    private CompletionStage<Written> attempt(
            ServedKind kind, String namespace, WriteOp op, UserInfo user, AtomicBoolean rewritten) {
        ControlPlane plane = controlPlane;
        if (index.isEmpty() || op instanceof WriteOp.CreateSubresource) {
            return plain(plane, kind, namespace, op, user);
        }
        WebhookRequest base = WriteRequests.base(kind, namespace, op, user);
        List<WebhookRules.Version> versions = versions(kind);
        List<Webhook> mutating = WebhookRules.candidates(index.mutating(), base, versions);
        List<Webhook> validating = WebhookRules.candidates(index.validating(), base, versions);
        if (mutating.isEmpty() && validating.isEmpty()) {
            return plain(plane, kind, namespace, op, user);
        }
        return prepare(kind, namespace, op, user, base)
                .thenCompose(
                        prepared -> {
                            if (prepared.refusal != null) {
                                return done(prepared.refusal);
                            }
                            if (prepared.request == null) {
                                return plain(plane, kind, namespace, op, user);
                            }
                            return namespaceLabels(mutating, validating, prepared.request)
                                    .thenCompose(
                                            labels ->
                                                    new WebhookCalls(
                                                                    caller,
                                                                    uids,
                                                                    kindsByVersion(kind),
                                                                    labels,
                                                                    conditions,
                                                                    endpoints,
                                                                    observer,
                                                                    index.mutating())
                                                            .admit(
                                                                    prepared.request,
                                                                    mutating,
                                                                    validating,
                                                                    versions))
                                    .thenCompose(
                                            admitted -> {
                                                if (admitted.refusal() != null) {
                                                    return CompletableFuture.completedFuture(
                                                            new Written(
                                                                    new WriteResult.Refused(
                                                                            admitted.refusal()),
                                                                    admitted.warnings(),
                                                                    admitted.annotations()));
                                                }
                                                List<String> warnings =
                                                        new ArrayList<>(admitted.warnings());
                                                WriteOp real =
                                                        admitted.object()
                                                                        == prepared.request.object()
                                                                ? op
                                                                : AdmittedWrite.of(
                                                                        op,
                                                                        prepared.request,
                                                                        prepared.oldResourceVersion,
                                                                        admitted.object(),
                                                                        warnings);
                                                rewritten.set(real != op);
                                                return plane.write(
                                                                kind.storageType(),
                                                                namespace,
                                                                real,
                                                                user)
                                                        .thenApply(
                                                                r ->
                                                                        new Written(
                                                                                r,
                                                                                warnings,
                                                                                admitted
                                                                                        .annotations()));
                                            });
                        });
    }

    /**
     * One item of {@code user}'s deletecollection in {@code namespace} ({@code item} as listed,
     * stored): kube asks the webhooks for each item with the request's own attributes (its
     * namespace, no name: kube's DeleteCollection admits with an empty name) and the item as the
     * old object, then deletes it unless refused. The answer carries the item's webhook warnings
     * and audit annotations: kube adds every item's to the request's one audit event.
     */
    public CompletionStage<Written> deleteItem(
            ServedKind kind, String namespace, byte[] item, WriteOp.Delete op, UserInfo user) {
        return sideWrites.deleteItem(kind, namespace, item, op, user);
    }

    /**
     * What the webhooks made of the body of a create that is not an object's (a subresource's:
     * {@code pods/binding}, {@code pods/eviction}, {@code serviceaccounts/token}; or {@code
     * bindings}): the body to go on with (a mutating webhook's patch applied), or the refusal.
     */
    public record Body(
            ObjectNode object,
            ApiStatus refusal,
            List<String> warnings,
            List<WebhookAuditAnnotations.Annotation> annotations) {
        Body(ObjectNode object, ApiStatus refusal, List<String> warnings) {
            this(object, refusal, warnings, List.of());
        }
    }

    /**
     * {@code user}'s create of {@code body} (of {@code bodyKind}) through {@code subresource} of
     * {@code name} in {@code type} (empty subresource: a create of {@code type} itself): the
     * webhooks whose rules match it ({@code pods/eviction}, {@code *}{@code /*}) are called with
     * kube's attributes for it, the body as the object.
     */
    public CompletionStage<Body> create(
            ResourceType type,
            String subresource,
            String namespace,
            String name,
            GroupVersionKind bodyKind,
            ObjectNode body,
            boolean dryRun,
            String fieldManager,
            UserInfo user) {
        return create(
                type,
                subresource,
                namespace,
                name,
                bodyKind,
                body,
                dryRun,
                fieldManager,
                user,
                ServerRefusal.NONE);
    }

    /**
     * As {@link #create(ResourceType, String, String, String, GroupVersionKind, ObjectNode,
     * boolean, String, UserInfo)}, with {@code first} asked before any webhook when one applies:
     * its refusal answers and no webhook is called.
     */
    public CompletionStage<Body> create(
            ResourceType type,
            String subresource,
            String namespace,
            String name,
            GroupVersionKind bodyKind,
            ObjectNode body,
            boolean dryRun,
            String fieldManager,
            UserInfo user,
            ServerRefusal first) {
        return sideWrites.create(
                type,
                subresource,
                namespace,
                name,
                bodyKind,
                body,
                dryRun,
                fieldManager,
                user,
                first);
    }

    ControlPlane controlPlane() {
        return controlPlane;
    }

    WebhookIndex index() {
        return index;
    }

    /** The calls of one write's webhooks, its kind's versions {@code kinds}. */
    WebhookCalls calls(Map<String, ServedKind> kinds, Map<String, String> namespaceLabels) {
        return new WebhookCalls(
                caller,
                uids,
                kinds,
                namespaceLabels,
                conditions,
                endpoints,
                observer,
                index.mutating());
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

    List<WebhookRules.Version> versions(ServedKind kind) {
        List<WebhookRules.Version> out = new ArrayList<>();
        for (ServedKind v : kindsByVersion(kind).values()) {
            ResourceType t = v.type();
            out.add(
                    new WebhookRules.Version(
                            new WebhookRequest.Gvr(t.group(), t.version(), t.resource()),
                            new WebhookRequest.Gvk(t.group(), t.version(), t.kind())));
        }
        return out;
    }

    Map<String, ServedKind> kindsByVersion(ServedKind kind) {
        Map<String, ServedKind> all =
                controlPlane.registry().servedVersions(kind.storageType().groupResource());
        return all.isEmpty() ? Map.of(kind.apiVersion(), kind) : all;
    }

    /**
     * The request with its objects, or the refusal its dry run met; neither when the write goes on
     * as it came (a delete of nothing, which answers its own 404).
     */
    private record Prepared(WebhookRequest request, String oldResourceVersion, ApiStatus refusal) {}

    private CompletionStage<Prepared> prepare(
            ServedKind kind, String namespace, WriteOp op, UserInfo user, WebhookRequest base) {
        CompletionStage<Optional<ObjectNode>> old =
                base.operation().equals("CREATE")
                        ? CompletableFuture.completedFuture(Optional.empty())
                        : controlPlane
                                .get(kind.storageType(), namespace, op.targetName())
                                .thenApply(
                                        bytes ->
                                                bytes.map(
                                                        b ->
                                                                kind.fromStorage(
                                                                        Json.parseTrusted(b))));
        return old.thenCompose(
                stored -> {
                    WebhookRequest request = base;
                    String oldRv = null;
                    if (stored.isPresent()) {
                        request = request.withOldObject(stored.get());
                        oldRv = stored.get().path("metadata").path("resourceVersion").asText(null);
                    } else if (base.operation().equals("UPDATE")) {
                        request = request.withOperation("CREATE"); // kube: a create through update
                    } else if (base.operation().equals("DELETE")) {
                        // Nothing to delete: the write answers its 404 itself.
                        return CompletableFuture.completedFuture(new Prepared(null, null, null));
                    }
                    if (request.operation().equals("DELETE")) {
                        return CompletableFuture.completedFuture(
                                new Prepared(request, oldRv, null));
                    }
                    WebhookRequest withOld = request;
                    String rv = oldRv;
                    return controlPlane
                            .write(kind.storageType(), namespace, WebhookOptions.dryRun(op), user)
                            .thenApply(
                                    result -> {
                                        if (result instanceof WriteResult.Refused refused) {
                                            return new Prepared(
                                                    null, rv, kind.refusal(refused.status()));
                                        }
                                        ObjectNode object =
                                                Json.parseTrusted(
                                                        kind.responseBody(
                                                                ((WriteResult.Success) result)
                                                                        .body()));
                                        if (withOld.operation().equals("CREATE")) {
                                            WebhookOptions.clearSystemFields(
                                                    object, withOld.name());
                                        }
                                        return new Prepared(withOld.withObject(object), rv, null);
                                    });
                });
    }

    /** The labels of the namespace, read once when a selector asks for them. */
    CompletionStage<Map<String, String>> namespaceLabels(
            List<Webhook> mutating, List<Webhook> validating, WebhookRequest request) {
        return namespaceLabels.of(mutating, validating, request);
    }
}
