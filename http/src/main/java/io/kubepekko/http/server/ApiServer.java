package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.Controllers;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.route.ResourceHandler;
import io.kubepekko.http.security.Pki;
import io.kubepekko.persistence.fencing.WritePermit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One API server: an actor system joining a Pekko Cluster (a one-node one of its own without seed
 * nodes) on its storage profile's journal, the control plane on top, and the HTTPS listener. {@link
 * #start} returns once the server answers requests.
 */
public final class ApiServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

    private final ActorSystem<Void> system;
    private final SecureListener listener;
    private final ServerHealth health;
    private final ApiServerSettings settings;
    private final Path kubeconfig;
    private final Controllers controllers;
    private final ResourceHandler resources;
    private final AccessControl access;
    private final RbacPolicySource rbacPolicy;
    private final Auditor auditor;

    ApiServer(
            ActorSystem<Void> system,
            SecureListener listener,
            ServerHealth health,
            ApiServerSettings settings,
            Path kubeconfig,
            Controllers controllers,
            ResourceHandler resources,
            AccessControl access,
            RbacPolicySource rbacPolicy,
            Auditor auditor) {
        this.system = system;
        this.listener = listener;
        this.health = health;
        this.settings = settings;
        this.kubeconfig = kubeconfig;
        this.controllers = controllers;
        this.resources = resources;
        this.access = access;
        this.rbacPolicy = rbacPolicy;
        this.auditor = auditor;
    }

    public static ApiServer start(ApiServerSettings settings) throws Exception {
        return start(settings, Environment.system());
    }

    /**
     * Starts a server whose clock and randomness come from {@code environment} (tests inject them).
     */
    public static ApiServer start(ApiServerSettings settings, Environment environment)
            throws Exception {
        return start(
                settings, environment, AccessReviews.alwaysAllow(), TokenIssuer.unconfigured());
    }

    /**
     * Starts a server whose reviews ask {@code accessReviews} and whose {@code
     * serviceaccounts/{name}/token} asks {@code tokenIssuer} (test doubles). {@link
     * #start(ApiServerSettings, Environment)} answers the reviews with the server's own checks and
     * signs tokens with its service-account key.
     */
    public static ApiServer start(
            ApiServerSettings settings,
            Environment environment,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer)
            throws Exception {
        DataDirectory.prepare(settings.dataDir());
        StartTask<Pki.Material> pki =
                StartTask.start("kubepekko-pki", () -> SecureListener.pki(settings));
        ApiServerSettings.Resolved resolved;
        try {
            resolved = settings.resolve();
        } catch (Exception | Error e) {
            pki.awaitEnd();
            throw e;
        }
        Config systemConfig = resolved.config();
        if (BootSteps.storageJoins(resolved)) {
            // The storage decides whether this server forms the cluster or joins it (ClusterJoin),
            // not Pekko.
            systemConfig =
                    systemConfig.withValue(
                            ClusterJoin.SEED_NODES, ConfigValueFactory.fromIterable(List.of()));
        }
        ActorSystem<Void> system;
        try {
            system =
                    ActorSystem.create(
                            Behaviors.empty(), ApiServerSettings.SYSTEM_NAME, systemConfig);
        } catch (Exception | Error e) {
            pki.awaitEnd();
            throw e;
        }
        try {
            return ServerBoot.boot(
                    settings, resolved, system, environment, accessReviews, tokenIssuer, pki);
        } catch (Exception | Error e) {
            system.terminate();
            pki.awaitEnd();
            throw e;
        }
    }

    /** The port HTTPS is served on. */
    public int port() {
        return listener.binding().localAddress().getPort();
    }

    /** The HTTPS URL clients reach this server at ({@code https://host:port}). */
    public String url() {
        return listener.url();
    }

    /** The certificates and keys the server serves and trusts. */
    public Pki.Material pki() {
        return listener.pki();
    }

    /** Whether this server may write to the journal now (the write lease of a clustered server). */
    public WritePermit writePermit() {
        return WritePermit.ID.of(Adapter.toClassic(system));
    }

    /** The remoting addresses ({@code host:port}) of the cluster members this node sees Up. */
    public List<String> upMembers() {
        List<String> up = new ArrayList<>();
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                up.add(m.address().getHost().get() + ":" + m.address().getPort().get());
            }
        }
        return up;
    }

    /**
     * Whether the cluster's controllers (a Cluster Singleton) run on this node; false when they are
     * off.
     */
    public boolean controllersActiveHere() {
        return controllers != null && controllers.activeHere();
    }

    /**
     * The resources whose informers feed this server's ResourceQuota admission: the quotas', and
     * those of the resources some quota has needed (for tests: no quota, no informer).
     */
    public Set<GroupResource> quotaFollowed() {
        return access.quotaFollowed();
    }

    /** The RBAC policy this server authorizes with, and whether it has synced. */
    public RbacPolicySource rbacPolicy() {
        return rbacPolicy;
    }

    public Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * The deprecated APIs requested from this server so far: the series of kube's {@code
     * apiserver_requested_deprecated_apis} gauge, for a metrics endpoint to export.
     */
    public DeprecatedApiRequests deprecatedApis() {
        return resources.deprecatedApis();
    }

    public ApiServerSettings settings() {
        return settings;
    }

    /**
     * Completes when this server's actor system has terminated: after {@link #close()}, or on its
     * own when the cluster downed or removed this node (the split brain resolver on the minority
     * side, a node marked down by the others after a long pause). Nothing is served after that.
     */
    public CompletionStage<Done> whenTerminated() {
        return system.getWhenTerminated();
    }

    /**
     * Whether {@link #close()} has been called: a termination without it was the cluster's doing.
     */
    public boolean closing() {
        return health.isShuttingDown();
    }

    /**
     * Graceful shutdown: /readyz fails at once, requests are still served for the shutdown delay,
     * then the listener and the actor system stop. Returns at once if the actor system has already
     * terminated (the cluster downed this node): there is nothing left to drain, and unbinding
     * through a terminated system would only wait out its timeout.
     */
    @Override
    public void close() {
        health.shuttingDown();
        ShutdownLogFilter.serverStopping();
        if (system.getWhenTerminated().toCompletableFuture().isDone()) {
            health.close();
            return;
        }
        // The controllers write through the control plane: stop them before it goes away.
        if (controllers != null) {
            controllers.close();
        }
        // Its informers ask the sequencers through sharding: stop them before the regions go.
        access.close();
        rbacPolicy.close();
        try {
            if (!settings.shutdownDelay().isZero()) {
                TimeUnit.MILLISECONDS.sleep(settings.shutdownDelay().toMillis());
            }
            resources.endWatches();
            listener.binding()
                    .terminate(Duration.ofSeconds(5))
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("unbinding failed", e);
        }
        // After the listeners: the last requests' events are written before the log closes.
        auditor.close();
        health.close();
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("actor system did not terminate in time", e);
        }
    }
}
