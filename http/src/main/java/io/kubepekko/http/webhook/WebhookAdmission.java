package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.admission.webhook.WebhookAuditAnnotations;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteResult;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * kube's MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins for one user's write,
 * around the write itself: the collection admits inside its single writer, where no webhook may be
 * waited on, so the webhooks are asked first, outside it. An object's own create, update, patch or
 * delete goes through {@link WebhookObjectWrites} (a dry run to learn the object, the webhooks'
 * phases on it, then the write for real); each item of a deletecollection and the creates of a body
 * that is no stored object through {@link WebhookSideWrites}. What they share (the configured
 * webhooks, the caller, a kind's versions) is {@link WebhookDispatch}'s.
 *
 * <p>Requests no configured webhook's rules match go to the collection as they are, at the cost of
 * reading one snapshot. The built-in controllers' writes come here too, as their own users'
 * (through {@link RequestAdmissionChain}); the bootstrap's are not asked, unlike kube's loopback
 * writes.
 */
public final class WebhookAdmission {

    private final WebhookObjectWrites objectWrites;
    private final WebhookSideWrites sideWrites;

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
        WebhookDispatch dispatch =
                new WebhookDispatch(controlPlane, index, caller, uids, conditions, observer);
        this.objectWrites = new WebhookObjectWrites(dispatch);
        this.sideWrites = new WebhookSideWrites(dispatch);
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

    /** {@code user}'s write {@code op} through {@code kind}, with the webhooks its rules call. */
    public CompletionStage<Written> write(
            ServedKind kind, String namespace, WriteOp op, UserInfo user) {
        return objectWrites.write(kind, namespace, op, user);
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
}
