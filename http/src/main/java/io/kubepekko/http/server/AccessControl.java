package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.BoundObjectSource;
import io.kubepekko.actors.controllers.NodeGraphSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.admission.WriteAdmission;
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
import io.kubepekko.api.auth.node.NodeRestriction;
import io.kubepekko.api.auth.rbac.EscalationCheck;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.api.auth.serviceaccount.BoundObjectIndex;
import io.kubepekko.api.auth.serviceaccount.BoundObjects;
import io.kubepekko.api.auth.serviceaccount.OpenIdMetadata;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenAuthenticator;
import io.kubepekko.api.auth.serviceaccount.ServiceAccountTokenIssuer;
import io.kubepekko.api.auth.serviceaccount.SigningTokenIssuer;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.route.CheckingGate;
import io.kubepekko.http.route.Gate;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.security.ServiceAccountKeyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.Props;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure port's authentication, authorization and admission, built from its flags and kept
 * current: the authenticators (client certificates of the client CA, the static token file,
 * anonymous), the authorizers of {@code --authorization-mode} behind kube's {@code system:masters}
 * authorizer, with the sources the Node and RBAC authorizers read (each server follows the store
 * itself), and the admission plugins (NodeRestriction, RBAC escalation prevention). The
 * authenticators include service-account tokens (verified with the PKI's {@code sa.pub}, their
 * bound objects looked up in an informer-fed index), and the PKI's {@code sa.key} signs the tokens
 * of the {@code serviceaccounts/{name}/token} subresource.
 */
final class AccessControl implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AccessControl.class);

    /**
     * The audiences of an ordinary request: kube's default {@code --api-audiences}, the first
     * service-account issuer, which is kubeadm's and k3s' issuer.
     */
    static final List<String> API_AUDIENCES =
            List.of("https://kubernetes.default.svc.cluster.local");

    private final Gate gate;
    private final Optional<RbacPolicySource> rbac;
    private final AccessReviews reviews;
    private final TokenIssuer tokenIssuer;
    private final List<PublicKey> serviceAccountKeys;
    private final BoundObjectIndex boundObjects;
    private final WriteAdmission admission;

    private AccessControl(
            Gate gate,
            Optional<RbacPolicySource> rbac,
            AccessReviews reviews,
            TokenIssuer tokenIssuer,
            List<PublicKey> serviceAccountKeys,
            BoundObjectIndex boundObjects,
            WriteAdmission admission) {
        this.gate = gate;
        this.rbac = rbac;
        this.reviews = reviews;
        this.tokenIssuer = tokenIssuer;
        this.serviceAccountKeys = serviceAccountKeys;
        this.boundObjects = boundObjects;
        this.admission = admission;
    }

    /** A start-up problem with the access flags (an unreadable token file): exit 1 with it. */
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
            Clock clock)
            throws Refused {
        ServiceAccountKeys keys = serviceAccountKeys(pki);
        BoundObjectIndex bound = new BoundObjectIndex();
        controlPlane
                .system()
                .systemActorOf(
                        BoundObjectSource.create(controlPlane, bound, informerBackoff),
                        "service-account-bound-objects",
                        Props.empty());
        String issuer = API_AUDIENCES.get(0);
        TokenAuthenticator serviceAccounts =
                new ServiceAccountTokenAuthenticator(
                        List.of(issuer), keys.verifying(), API_AUDIENCES, bound, clock);
        TokenIssuer tokenIssuer =
                new SigningTokenIssuer(
                        new ServiceAccountTokenIssuer(issuer, keys.signing()),
                        API_AUDIENCES,
                        bound,
                        clock,
                        () -> UUID.randomUUID().toString());
        Optional<BearerTokenAuthenticator> tokens = tokens(access, serviceAccounts);
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
                    controlPlane
                            .system()
                            .systemActorOf(
                                    NodeGraphSource.create(controlPlane, graph, informerBackoff),
                                    "node-graph",
                                    Props.empty());
                    chain.add(NodeAuthorizer.of(graph));
                }
                case RBAC -> {
                    rbac = Optional.of(rbacPolicy);
                    chain.add(new RbacAuthorizer(rbacPolicy.policy()));
                }
            }
        }
        Authorizer authorizer = Authorizers.union(chain);
        WriteAdmission admission = admission(authorizer, rbacPolicy, bound);
        Gate gate = new CheckingGate(authenticator, authorizer, auditor, admission);
        AccessReviews reviews =
                new CheckedReviews(
                        tokens.map(t -> (TokenAuthenticator) t::authenticateToken),
                        API_AUDIENCES,
                        authorizer,
                        rbac.map(RbacPolicySource::policy),
                        access.authorizationModes().contains(AuthorizationMode.ALWAYS_ALLOW));
        return new AccessControl(
                gate, rbac, reviews, tokenIssuer, keys.verifying(), bound, admission);
    }

    /**
     * The server's admission plugins, in kube's order: NodeRestriction (in kube-apiserver's default
     * plugins; it reads the pods and nodes the token index follows), then the checks kube wraps the
     * RBAC storage with whatever the authorization modes, which read the RBAC objects and ask the
     * whole authorizer chain for {@code escalate} and {@code bind}.
     */
    private static WriteAdmission admission(
            Authorizer authorizer, RbacPolicySource rbacPolicy, BoundObjectIndex bound) {
        NodeRestriction.Lookup informed =
                new NodeRestriction.Lookup() {
                    @Override
                    public Optional<Pod> pod(String namespace, String name) {
                        return bound.find(BoundObjects.Kind.POD, namespace, name)
                                .map(live -> new Pod(live.uid(), live.nodeName()));
                    }

                    @Override
                    public Optional<String> nodeUid(String name) {
                        return bound.find(BoundObjects.Kind.NODE, "", name)
                                .map(BoundObjects.Live::uid);
                    }
                };
        return WriteAdmission.chain(
                List.of(
                        new NodeRestriction(informed),
                        new EscalationCheck(authorizer, rbacPolicy.policy())));
    }

    /** The PKI's service-account keys: {@code sa.key} signs, {@code sa.pub} verifies. */
    private record ServiceAccountKeys(KeyPair signing, List<PublicKey> verifying) {}

    private static ServiceAccountKeys serviceAccountKeys(Pki.Material pki) throws Refused {
        try {
            return new ServiceAccountKeys(
                    ServiceAccountKeyFiles.signingKey(pki.serviceAccountKey()),
                    ServiceAccountKeyFiles.publicKeys(pki.serviceAccountPublicKey()));
        } catch (ServiceAccountKeyFiles.KeyFileException e) {
            throw new Refused(e.getMessage());
        }
    }

    /**
     * The bearer-token authenticators: the token file when configured, then service-account tokens
     * (kube's order).
     */
    private static Optional<BearerTokenAuthenticator> tokens(
            AccessSettings access, TokenAuthenticator serviceAccounts) throws Refused {
        List<TokenAuthenticator> authenticators = new ArrayList<>();
        if (access.tokenAuthFile().isPresent()) {
            authenticators.add(
                    TokenAuthenticator.audienceAgnostic(
                            API_AUDIENCES,
                            new TokenFileAuthenticator(tokenFile(access.tokenAuthFile().get()))));
        }
        authenticators.add(serviceAccounts);
        return Optional.of(new BearerTokenAuthenticator(authenticators, API_AUDIENCES));
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

    /** Issues service-account tokens with the PKI's signing key. */
    TokenIssuer tokenIssuer() {
        return tokenIssuer;
    }

    /**
     * The service-account issuer's OIDC discovery documents, when kube would serve them (else the
     * reason is logged, as kube does).
     *
     * @param secureUrl the secure port's URL: its host:port is kube's external address, the default
     *     {@code jwks_uri}'s
     */
    Optional<OpenIdMetadata.Served> issuerDiscovery(String secureUrl) {
        String externalAddress = secureUrl.replaceFirst("^https://", "");
        OpenIdMetadata.Discovery discovery =
                OpenIdMetadata.discovery(
                        API_AUDIENCES.get(0), "", externalAddress, serviceAccountKeys);
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

    /** The admission plugins every user's write passes, in the collections that store them. */
    WriteAdmission admission() {
        return admission;
    }

    /**
     * /readyz's check: the RBAC authorizer has seen every role and binding once (kube's RBAC
     * authorizer waits for its informers too), and the service-account token authenticator's index
     * has listed its objects once.
     */
    Supplier<Optional<String>> readiness() {
        return () -> rbac.flatMap(RbacPolicySource::readiness).or(boundObjects::readiness);
    }

    /** The node graph's informers stop with the actor system; the server closes the RBAC source. */
    @Override
    public void close() {}
}
