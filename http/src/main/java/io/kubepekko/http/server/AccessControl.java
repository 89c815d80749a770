package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.BoundObjectSource;
import io.kubepekko.actors.controllers.NodeGraphSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.AuthenticatorUnion;
import io.kubepekko.api.auth.BearerTokenAuthenticator;
import io.kubepekko.api.auth.TokenAuthenticator;
import io.kubepekko.api.auth.TokenFile;
import io.kubepekko.api.auth.TokenFileAuthenticator;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.X509Authenticator;
import io.kubepekko.api.auth.authorizer.AuthorizationMode;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Authorizers;
import io.kubepekko.api.auth.node.NodeAuthorizer;
import io.kubepekko.api.auth.node.NodeGraph;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.api.auth.serviceaccount.BoundObjectIndex;
import io.kubepekko.api.auth.serviceaccount.OpenIdMetadata;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountOptions;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenAuthenticator;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenIssuer;
import io.kubepekko.api.auth.serviceaccount.SigningTokenIssuer;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.route.CheckingGate;
import io.kubepekko.http.route.Gate;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.ServiceAccountKeyFiles;
import io.kubepekko.http.security.ServiceAccountSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.pattern.Patterns;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure port's authentication, authorization and admission, built from its flags and kept
 * current: the authenticators (client certificates of the client CA, the static token file,
 * anonymous), the authorizers of {@code --authorization-mode} behind kube's {@code system:masters}
 * authorizer, with the sources the Node and RBAC authorizers read (each server follows the store
 * itself), and the admission plugins (LimitRanger, NodeRestriction, RBAC escalation prevention).
 * The authenticators include service-account tokens of every {@code --service-account-issuer}
 * (verified with the {@code --service-account-key-file} keys, their bound objects looked up in an
 * informer-fed index), and the {@code --service-account-signing-key-file} key (by default the PKI's
 * {@code sa.key}) signs the tokens of the {@code serviceaccounts/{name}/token} subresource.
 */
final class AccessControl implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AccessControl.class);

    private final Gate gate;
    private final Optional<RbacPolicySource> rbac;
    private final AccessReviews reviews;
    private final TokenIssuer tokenIssuer;
    private final ServiceAccountSettings serviceAccounts;
    private final List<PublicKey> serviceAccountKeys;
    private final BoundObjectIndex boundObjects;
    private final AdmissionPlugins plugins;
    private final List<ActorRef<?>> sources;

    private AccessControl(
            Gate gate,
            Optional<RbacPolicySource> rbac,
            AccessReviews reviews,
            TokenIssuer tokenIssuer,
            ServiceAccountSettings serviceAccounts,
            List<PublicKey> serviceAccountKeys,
            BoundObjectIndex boundObjects,
            AdmissionPlugins plugins,
            List<ActorRef<?>> sources) {
        this.gate = gate;
        this.rbac = rbac;
        this.reviews = reviews;
        this.tokenIssuer = tokenIssuer;
        this.serviceAccounts = serviceAccounts;
        this.serviceAccountKeys = serviceAccountKeys;
        this.boundObjects = boundObjects;
        this.plugins = plugins;
        this.sources = List.copyOf(sources);
    }

    /**
     * A start-up problem with the access flags (an unreadable token or key file): exit 1 with it.
     */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** Builds the gate and starts what its authorizers follow. */
    static AccessControl start(
            ControlPlane controlPlane,
            AccessSettings access,
            Pki.Material pki,
            RbacPolicySource rbacPolicy,
            Backoff informerBackoff,
            Auditor auditor,
            Clock clock,
            AdmissionSettings admissionSettings,
            Supplier<String> nameSuffixes,
            AdmissionObserver admissionMetrics)
            throws Refused {
        ServiceAccountSettings sa = access.serviceAccounts();
        ServiceAccountKeys keys = serviceAccountKeys(sa, pki);
        ServiceAccountOptions.warnings(sa.maxExpiration(), sa.extendExpiration())
                .forEach(w -> log.warn("{}", w));
        List<String> audiences = sa.audiences();
        BoundObjectIndex bound = new BoundObjectIndex();
        List<ActorRef<?>> sources = new ArrayList<>();
        sources.add(
                controlPlane
                        .system()
                        .systemActorOf(
                                BoundObjectSource.create(controlPlane, bound, informerBackoff),
                                "service-account-bound-objects",
                                Props.empty()));
        TokenAuthenticator serviceAccounts =
                new ServiceAccountTokenAuthenticator(
                        sa.issuers(), keys.verifying(), audiences, bound, clock);
        TokenIssuer tokenIssuer =
                new SigningTokenIssuer(
                        keys.signer(),
                        audiences,
                        sa.maxExpiration(),
                        sa.extendExpiration(),
                        bound,
                        clock,
                        () -> UUID.randomUUID().toString());
        Optional<BearerTokenAuthenticator> tokens = tokens(access, audiences, serviceAccounts);
        List<Authentication.Authenticator> authenticators = new ArrayList<>();
        authenticators.add(new X509Authenticator(pki.clientCas(), clock));
        tokens.ifPresent(authenticators::add);
        Authentication.Authenticator authenticator =
                new AuthenticatorUnion(authenticators, access.anonymousAuth());
        Optional<RbacPolicySource> rbac = Optional.empty();
        List<Authorizer> chain = new ArrayList<>();
        chain.add(Authorizers.systemMasters());
        for (AuthorizationMode mode : access.authorizationModes()) {
            switch (mode) {
                case ALWAYS_ALLOW -> chain.add(Authorizers.alwaysAllow());
                case ALWAYS_DENY -> chain.add(Authorizers.alwaysDeny());
                case NODE -> {
                    NodeGraph graph = new NodeGraph();
                    sources.add(
                            controlPlane
                                    .system()
                                    .systemActorOf(
                                            NodeGraphSource.create(
                                                    controlPlane, graph, informerBackoff),
                                            "node-graph",
                                            Props.empty()));
                    chain.add(NodeAuthorizer.of(graph));
                }
                case RBAC -> {
                    rbac = Optional.of(rbacPolicy);
                    chain.add(new RbacAuthorizer(rbacPolicy.policy()));
                }
            }
        }
        Authorizer authorizer = Authorizers.union(chain);
        AdmissionPlugins plugins =
                AdmissionPlugins.start(
                        controlPlane,
                        authorizer,
                        rbacPolicy,
                        bound,
                        informerBackoff,
                        clock,
                        admissionSettings,
                        nameSuffixes,
                        admissionMetrics,
                        sources);
        WriteAdmission admission = plugins.admission();
        Gate gate = new CheckingGate(authenticator, authorizer, auditor, admission);
        AccessReviews reviews =
                new CheckedReviews(
                        tokens.map(t -> (TokenAuthenticator) t::authenticateToken),
                        audiences,
                        authorizer,
                        rbac.map(RbacPolicySource::policy),
                        access.authorizationModes().contains(AuthorizationMode.ALWAYS_ALLOW));
        return new AccessControl(
                gate, rbac, reviews, tokenIssuer, sa, keys.verifying(), bound, plugins, sources);
    }

    /**
     * The service-account keys: the signer of the signing key file ({@code sa.key} by default), and
     * the keys of the key files that verify tokens (by default the signing key's public half).
     */
    private record ServiceAccountKeys(
            ServiceAccountTokenIssuer signer, List<PublicKey> verifying) {}

    private static ServiceAccountKeys serviceAccountKeys(
            ServiceAccountSettings sa, Pki.Material pki) throws Refused {
        KeyPair signing;
        try {
            signing =
                    ServiceAccountKeyFiles.signingKey(
                            sa.signingKeyFile().orElse(pki.serviceAccountKey()));
        } catch (ServiceAccountKeyFiles.KeyFileException e) {
            throw new Refused("failed to parse service-account-issuer-key-file: " + e.getMessage());
        }
        ServiceAccountTokenIssuer signer;
        try {
            signer = new ServiceAccountTokenIssuer(sa.issuer(), signing);
        } catch (IllegalArgumentException e) {
            throw new Refused("failed to build token generator: " + e.getMessage());
        }
        if (sa.keyFiles().isEmpty()) {
            return new ServiceAccountKeys(signer, List.of(signing.getPublic()));
        }
        try {
            return new ServiceAccountKeys(signer, ServiceAccountKeyFiles.publicKeys(sa.keyFiles()));
        } catch (ServiceAccountKeyFiles.KeyFileException e) {
            throw new Refused(e.getMessage());
        }
    }

    /**
     * The bearer-token authenticators: the token file when configured, then service-account tokens
     * (kube's order).
     */
    private static Optional<BearerTokenAuthenticator> tokens(
            AccessSettings access, List<String> audiences, TokenAuthenticator serviceAccounts)
            throws Refused {
        List<TokenAuthenticator> authenticators = new ArrayList<>();
        if (access.tokenAuthFile().isPresent()) {
            authenticators.add(
                    TokenAuthenticator.audienceAgnostic(
                            audiences,
                            new TokenFileAuthenticator(tokenFile(access.tokenAuthFile().get()))));
        }
        authenticators.add(serviceAccounts);
        return Optional.of(new BearerTokenAuthenticator(authenticators, audiences));
    }

    private static TokenFile tokenFile(Path path) throws Refused {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Refused(
                    "failed to read token file \"" + path + "\": " + e.getClass().getSimpleName());
        }
        TokenFile.Parse parse = TokenFile.parse(path.toString(), text);
        if (parse instanceof TokenFile.Failed failed) {
            throw new Refused(failed.error());
        }
        TokenFile.Parsed parsed = (TokenFile.Parsed) parse;
        parsed.warnings().forEach(w -> log.warn("{}", w));
        return parsed.file();
    }

    /** The reviews, answered by this gate's authenticators and authorizers. */
    AccessReviews reviews() {
        return reviews;
    }

    /** Issues service-account tokens with the signing key. */
    TokenIssuer tokenIssuer() {
        return tokenIssuer;
    }

    /**
     * The service-account issuer's OIDC discovery documents, when kube would serve them (else the
     * reason is logged, as kube does): the first issuer, {@code --service-account-jwks-uri} and the
     * verification keys.
     *
     * @param secureUrl the secure port's URL: its host:port is kube's external address, the default
     *     {@code jwks_uri}'s
     */
    Optional<OpenIdMetadata.Served> issuerDiscovery(String secureUrl) {
        String externalAddress = secureUrl.replaceFirst("^https://", "");
        OpenIdMetadata.Discovery discovery =
                OpenIdMetadata.discovery(
                        serviceAccounts.issuer(),
                        serviceAccounts.jwksUri(),
                        externalAddress,
                        serviceAccountKeys);
        if (discovery instanceof OpenIdMetadata.Served served) {
            return Optional.of(served);
        }
        log.warn(
                "service-account issuer discovery is not served: {}",
                ((OpenIdMetadata.NotServed) discovery).reason());
        return Optional.empty();
    }

    /** The gate of the secure port. */
    Gate gate() {
        return gate;
    }

    /** The admission webhooks configured, as this server's informers see them. */
    WebhookIndex webhooks() {
        return plugins.webhooks();
    }

    /** The resources whose informers feed this server's quota admission (a test's view). */
    Set<GroupResource> quotaFollowed() {
        return plugins.quotaFollowed();
    }

    /** The admission plugins every user's write passes, in the collections that store them. */
    WriteAdmission admission() {
        return plugins.admission();
    }

    /**
     * /readyz's check: the RBAC authorizer has seen every role and binding once (kube's RBAC
     * authorizer waits for its informers too), the service-account token authenticator's index has
     * listed its objects once, and so has LimitRanger's.
     */
    Supplier<Optional<String>> readiness() {
        return () ->
                rbac.flatMap(RbacPolicySource::readiness)
                        .or(boundObjects::readiness)
                        .or(plugins::readiness);
    }

    /**
     * Stops the node graph's, the bound objects' and the LimitRanges' informers and waits (bounded)
     * until they have stopped: an informer relisting while the node shuts down asks a sequencer
     * through sharding, which then finds no home and holds up the shard region's shutdown. The
     * server closes the RBAC source.
     */
    @Override
    public void close() {
        List<CompletableFuture<Boolean>> stopping = new ArrayList<>();
        for (ActorRef<?> source : sources) {
            stopping.add(
                    Patterns.gracefulStop(Adapter.toClassic(source), STOP_TIMEOUT)
                            .toCompletableFuture());
        }
        try {
            CompletableFuture.allOf(stopping.toArray(CompletableFuture[]::new))
                    .get(STOP_TIMEOUT.toSeconds() + 1, TimeUnit.SECONDS);
        } catch (Exception e) {
            // The actor system's termination stops them anyway.
            log.debug("access informers did not stop in time", e);
        }
    }

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
}
