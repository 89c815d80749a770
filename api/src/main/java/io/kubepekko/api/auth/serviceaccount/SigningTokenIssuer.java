package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.auth.TokenIssuer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The production {@link TokenIssuer}: kube's {@code TokenREST.Create} after its lookups, signing
 * with the server's service-account key. The route has validated the request and found the service
 * account and the bound object; this binds the token to them (a pod-bound token also names the
 * pod's node, with its uid when the node exists) and applies kube's {@code
 * --service-account-extend-token-expiration} (default on): a pod-bound token for the API server's
 * own audiences asked for exactly one hour and seven seconds lives a year and warns after the hour.
 * {@code status.expirationTimestamp} is always the time asked for, as kube answers. The request
 * comes already shortened to {@link #maxExpiration()}, so a maximum below the hour and seven
 * seconds turns the extension off, as in kube.
 */
public final class SigningTokenIssuer implements TokenIssuer {

    /** The expiration that makes kube issue an extended pod-bound token (one hour + 7 s). */
    public static final long WARN_ONLY_EXPIRATION_SECONDS = 60 * 60 + 7;

    /** The lifetime of kube's extended pod-bound tokens: one year. */
    public static final Duration EXTENDED_EXPIRATION = Duration.ofSeconds(24L * 365 * 60 * 60);

    private final ServiceAccountTokenIssuer signer;
    private final List<String> apiAudiences;
    private final Duration maxExpiration;
    private final boolean extendExpiration;
    private final BoundObjects objects;
    private final InstantSource clock;
    private final Supplier<String> ids;

    /**
     * @param signer signs with the {@code --service-account-signing-key-file} key
     * @param apiAudiences the API server's audiences, the default of {@code spec.audiences}
     * @param maxExpiration {@code --service-account-max-token-expiration}, zero for none
     * @param extendExpiration {@code --service-account-extend-token-expiration}
     * @param objects where a pod's node is looked up for its uid
     * @param clock the time of issue
     * @param ids each token's {@code jti} (kube: a random UUID)
     */
    public SigningTokenIssuer(
            ServiceAccountTokenIssuer signer,
            List<String> apiAudiences,
            Duration maxExpiration,
            boolean extendExpiration,
            BoundObjects objects,
            InstantSource clock,
            Supplier<String> ids) {
        this.signer = signer;
        this.apiAudiences = List.copyOf(apiAudiences);
        this.maxExpiration = maxExpiration;
        this.extendExpiration = extendExpiration;
        this.objects = objects;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public Result issue(
            ObjectNode serviceAccount, Request request, Optional<ObjectNode> boundObject) {
        String namespace = serviceAccount.path("metadata").path("namespace").asText("");
        ObjectRef account =
                new ObjectRef(
                        serviceAccount.path("metadata").path("name").asText(""),
                        serviceAccount.path("metadata").path("uid").asText(""));
        ServiceAccountClaims.Binding binding = binding(request, boundObject);
        Duration asked = Duration.ofSeconds(request.expirationSeconds());
        Duration lifetime = asked;
        Duration warnAfter = Duration.ZERO;
        if (extendExpiration
                && binding instanceof ServiceAccountClaims.ToPod
                && request.expirationSeconds() == WARN_ONLY_EXPIRATION_SECONDS
                && apiAudiences.containsAll(request.audiences())) {
            warnAfter = asked;
            lifetime = EXTENDED_EXPIRATION;
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        ServiceAccountClaims claims =
                ServiceAccountClaims.of(
                        namespace,
                        account,
                        binding,
                        request.audiences(),
                        now,
                        lifetime,
                        warnAfter,
                        ids.get());
        return new Issued(signer.issue(claims), now.plus(asked));
    }

    @Override
    public List<String> defaultAudiences() {
        return apiAudiences;
    }

    @Override
    public Duration maxExpiration() {
        return maxExpiration;
    }

    private ServiceAccountClaims.Binding binding(
            Request request, Optional<ObjectNode> boundObject) {
        if (request.boundObjectRef().isEmpty() || boundObject.isEmpty()) {
            return new ServiceAccountClaims.Unbound();
        }
        ObjectNode object = boundObject.get();
        ObjectRef ref =
                new ObjectRef(
                        object.path("metadata").path("name").asText(""),
                        object.path("metadata").path("uid").asText(""));
        return switch (request.boundObjectRef().get().kind()) {
            case "Pod" -> {
                String nodeName = object.path("spec").path("nodeName").asText("");
                Optional<ObjectRef> node =
                        nodeName.isEmpty()
                                ? Optional.empty()
                                : Optional.of(
                                        new ObjectRef(
                                                nodeName,
                                                objects.find(BoundObjects.Kind.NODE, "", nodeName)
                                                        .map(BoundObjects.Live::uid)
                                                        .orElse("")));
                yield new ServiceAccountClaims.ToPod(ref, node);
            }
            case "Secret" -> new ServiceAccountClaims.ToSecret(ref);
            default -> new ServiceAccountClaims.ToNode(ref);
        };
    }
}
