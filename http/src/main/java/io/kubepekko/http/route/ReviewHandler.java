package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.review.Review;
import io.kubepekko.api.auth.review.Reviews;
import io.kubepekko.api.auth.review.TokenRequests;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.store.BodyIdentity;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.webhook.WebhookAdmission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/**
 * Serves the creates that store nothing: the access and token reviews ({@link Review}) and the
 * {@code serviceaccounts/{name}/token} subresource. Each is a pipeline like a stored create's —
 * options, decode, the namespace aligned with the URL's — and then, instead of a write, a question
 * to {@link AccessReviews} or {@link TokenIssuer}, answered with 201 and the object kube answers.
 * Part of {@link ResourceHandler}.
 */
final class ReviewHandler {

    private final ControlPlane controlPlane;
    private final AccessReviews reviews;
    private final TokenIssuer tokens;
    private final Clock clock;
    private final WebhookAdmission webhooks;

    ReviewHandler(
            ControlPlane controlPlane,
            AccessReviews reviews,
            TokenIssuer tokens,
            Clock clock,
            WebhookAdmission webhooks) {
        this.controlPlane = controlPlane;
        this.reviews = reviews;
        this.tokens = tokens;
        this.clock = clock;
        this.webhooks = webhooks;
    }

    /** A create of a review kind ({@link ResourceType#review()}). */
    CompletionStage<HttpResponse> review(ResourceType type, ResourceHandler.Request r) {
        Decoded d = decode(type, type.gvk(), r);
        beforeCreate(d);
        Review.Answer answer =
                type.review()
                        .answer(
                                d.body(),
                                new Review.Context(
                                        r.info().namespace(), r.user(), reviews, clock.instant()));
        if (answer instanceof Review.Answer.Refused refused) {
            return CompletableFuture.completedFuture(r.refusal(refused.status()));
        }
        ObjectNode object = ((Review.Answer.Answered) answer).object();
        return CompletableFuture.completedFuture(
                Encoder.json(201, Json.bytes(object), r.format(), r.pretty(), d.warnings()));
    }

    /**
     * {@code POST serviceaccounts/{name}/token}: the token request validated, the service account
     * and the bound object found, then the issuer asked.
     */
    CompletionStage<HttpResponse> issueToken(
            ResourceType serviceAccounts, ResourceHandler.Request r) {
        if (!tokens.configured()) {
            throw ApiStatus.pathNotFound().exception();
        }
        if (r.info().verb() != Verb.CREATE) {
            throw ApiStatus.methodNotAllowed(ResourceHandler.NOT_ALLOWED).exception();
        }
        ResourcePaths.withPathNames(r);
        String namespace = r.info().namespace();
        String name = r.info().name();
        Decoded d = decode(serviceAccounts, TokenRequests.GVK, r);
        TokenRequests.applyDefaults(d.body()); // decoding's defaults: before the field manager
        beforeCreate(d);
        // NamespaceLifecycle first, as kube's mutating phase runs it before the other plugins.
        return controlPlane
                .admitCreateInNamespace(serviceAccounts.groupResource(), name, namespace)
                .thenCompose(
                        refused ->
                                refused.isPresent()
                                        ? CompletableFuture.completedFuture(
                                                r.refusal(refused.get()))
                                        : tokenAdmitted(serviceAccounts, r, d));
    }

    /** The token request once NamespaceLifecycle let it in: the other plugins, webhooks, issue. */
    private CompletionStage<HttpResponse> tokenAdmitted(
            ResourceType serviceAccounts, ResourceHandler.Request r, Decoded d) {
        String namespace = r.info().namespace();
        String name = r.info().name();
        // kube's create handler admits the body before the token storage validates it.
        Optional<ApiStatus> notAdmitted =
                r.admission()
                        .refusal(
                                new AdmissionRequest(
                                        Operation.CREATE,
                                        r.user(),
                                        serviceAccounts.groupResource(),
                                        r.info().subresource(),
                                        namespace,
                                        name,
                                        d.body(),
                                        null,
                                        d.dryRun()));
        if (notAdmitted.isPresent()) {
            return CompletableFuture.completedFuture(r.refusal(notAdmitted.get()));
        }
        return r.afterWebhooks(
                webhooks.create(
                        serviceAccounts,
                        r.info().subresource(),
                        namespace,
                        name,
                        TokenRequests.GVK,
                        d.body(),
                        d.dryRun(),
                        d.manager(),
                        r.user()),
                d.warnings(),
                (object, warnings) ->
                        issueToken(
                                serviceAccounts,
                                r,
                                new Decoded(object, warnings, d.kind(), d.manager(), d.dryRun())));
    }

    /** The token issued once every admission allowed {@code d}. */
    private CompletionStage<HttpResponse> issueToken(
            ResourceType serviceAccounts, ResourceHandler.Request r, Decoded d) {
        String namespace = r.info().namespace();
        String name = r.info().name();
        TokenIssuer.Request request = TokenRequests.parse(d.body(), tokens.defaultAudiences());
        return controlPlane
                .get(serviceAccounts, namespace, name)
                .thenCompose(
                        sa -> {
                            ObjectNode account =
                                    Json.parseTrusted(
                                            sa.orElseThrow(
                                                    () ->
                                                            ApiStatus.notFound(
                                                                            serviceAccounts
                                                                                    .groupResource(),
                                                                            name)
                                                                    .exception()));
                            return boundObject(namespace, name, request)
                                    .thenApply(
                                            bound -> {
                                                // kube cuts the lifetime after the bound checks
                                                TokenRequests.Shortened issued =
                                                        TokenRequests.shorten(
                                                                request, tokens.maxExpiration());
                                                return answer(
                                                        r,
                                                        d,
                                                        issued,
                                                        tokens.issue(
                                                                account, issued.request(), bound));
                                            });
                        });
    }

    /** The TokenRequest answered with the issued token, or the issuer's refusal. */
    private static HttpResponse answer(
            ResourceHandler.Request r,
            Decoded d,
            TokenRequests.Shortened issued,
            TokenIssuer.Result result) {
        if (result instanceof TokenIssuer.Refused refused) {
            return r.refusal(refused.status());
        }
        ObjectNode answer =
                TokenRequests.answer(
                        d.body(),
                        r.info().namespace(),
                        issued.request(),
                        (TokenIssuer.Issued) result);
        List<String> warnings = new ArrayList<>(d.warnings());
        issued.warning().ifPresent(warnings::add);
        return Encoder.json(201, Json.bytes(answer), r.format(), r.pretty(), warnings);
    }

    /** The object the token is to be bound to, checked against the reference; 404 when absent. */
    private CompletionStage<Optional<ObjectNode>> boundObject(
            String namespace, String serviceAccount, TokenIssuer.Request request) {
        if (request.boundObjectRef().isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        TokenIssuer.BoundObjectRef ref = request.boundObjectRef().get();
        TokenRequests.BoundTarget target = TokenRequests.target(ref);
        ResourceType type =
                controlPlane
                        .registry()
                        .find(new GroupResource("", target.resource()))
                        .orElseThrow(
                                () ->
                                        new IllegalStateException(
                                                target.resource() + " is not served"));
        if (ref.name().isEmpty()) {
            // kube's store refuses an empty name before any lookup.
            throw ApiStatus.badRequest("Name parameter required.").exception();
        }
        return controlPlane
                .get(type, target.namespaced() ? namespace : null, ref.name())
                .thenApply(
                        found -> {
                            ObjectNode object =
                                    Json.parseTrusted(
                                            found.orElseThrow(
                                                    () ->
                                                            ApiStatus.notFound(
                                                                            type.groupResource(),
                                                                            ref.name())
                                                                    .exception()));
                            TokenRequests.checkBound(serviceAccount, ref, object);
                            return Optional.of(object);
                        });
    }

    /** A decoded body and what the create's field manager needs to know of it. */
    private record Decoded(
            ObjectNode body,
            List<String> warnings,
            GroupVersionKind kind,
            String manager,
            boolean dryRun) {}

    /** The create handler's last steps before the storage: system fields wiped, fields managed. */
    private void beforeCreate(Decoded d) {
        Reviews.beforeCreate(d.body(), d.kind(), d.manager(), clock.instant());
    }

    /**
     * The create's options checked (422 on CreateOptions), the body decoded as {@code kind}, and
     * its namespace made the URL's as for every create of {@code type}.
     */
    private Decoded decode(ResourceType type, GroupVersionKind kind, ResourceHandler.Request r) {
        WriteOptions options =
                WriteOptions.parse(
                        "CreateOptions",
                        List.of(),
                        r.param("fieldManager").orElse(null),
                        r.query().toMultiMap().getOrDefault("dryRun", List.of()),
                        r.param("fieldValidation").orElse(""));
        RequestBodies.Decoded d =
                RequestBodies.decode(r.contentType(), r.body(), kind, options.fieldValidation());
        ObjectNode body = d.object();
        BodyIdentity.placeInNamespace(type, r.info().namespace(), body, true)
                .ifPresent(
                        refused -> {
                            throw refused.exception();
                        });
        String manager =
                options.fieldManager() != null
                        ? options.fieldManager()
                        : WriteParameters.managerFromUserAgent(r.userAgent());
        return new Decoded(body, d.warnings(), kind, manager, options.dryRun());
    }
}
