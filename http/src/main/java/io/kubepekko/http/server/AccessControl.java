package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.NodeGraphSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.Authentication;
import io.kubepekko.api.auth.AuthenticatorUnion;
import io.kubepekko.api.auth.BearerTokenAuthenticator;
import io.kubepekko.api.auth.TokenAuthenticator;
import io.kubepekko.api.auth.TokenFile;
import io.kubepekko.api.auth.TokenFileAuthenticator;
import io.kubepekko.api.auth.X509Authenticator;
import io.kubepekko.api.auth.authorizer.AuthorizationMode;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Authorizers;
import io.kubepekko.api.auth.node.NodeAuthorizer;
import io.kubepekko.api.auth.node.NodeGraph;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.route.CheckingGate;
import io.kubepekko.http.route.Gate;
import io.kubepekko.http.security.AccessSettings;
import io.kubepekko.http.security.Pki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.Props;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secure port's authentication and authorization, built from its flags and kept current: the
 * authenticators (client certificates of the client CA, the static token file, anonymous), and the
 * authorizers of {@code --authorization-mode} behind kube's {@code system:masters} authorizer, with
 * the sources the Node and RBAC authorizers read (each server follows the store itself).
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

    private AccessControl(Gate gate, Optional<RbacPolicySource> rbac, AccessReviews reviews) {
        this.gate = gate;
        this.rbac = rbac;
        this.reviews = reviews;
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
        Optional<BearerTokenAuthenticator> tokens = tokens(access);
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
        Gate gate = new CheckingGate(authenticator, authorizer, auditor);
        AccessReviews reviews =
                new CheckedReviews(
                        tokens.map(t -> (TokenAuthenticator) t::authenticateToken),
                        API_AUDIENCES,
                        authorizer,
                        rbac.map(RbacPolicySource::policy),
                        access.authorizationModes().contains(AuthorizationMode.ALWAYS_ALLOW));
        return new AccessControl(gate, rbac, reviews);
    }

    /** The bearer-token authenticators (the token file), when any is configured. */
    private static Optional<BearerTokenAuthenticator> tokens(AccessSettings access) throws Refused {
        if (access.tokenAuthFile().isEmpty()) {
            return Optional.empty();
        }
        TokenAuthenticator file =
                TokenAuthenticator.audienceAgnostic(
                        API_AUDIENCES,
                        new TokenFileAuthenticator(tokenFile(access.tokenAuthFile().get())));
        return Optional.of(new BearerTokenAuthenticator(List.of(file), API_AUDIENCES));
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

    /** The gate of the secure port. */
    Gate gate() {
        return gate;
    }

    /**
     * /readyz's check: the RBAC authorizer has seen every role and binding once (kube's RBAC
     * authorizer waits for its informers too); ready at once without RBAC.
     */
    Supplier<Optional<String>> readiness() {
        return () -> rbac.flatMap(RbacPolicySource::readiness);
    }

    /** The node graph's informers stop with the actor system; the server closes the RBAC source. */
    @Override
    public void close() {}
}
