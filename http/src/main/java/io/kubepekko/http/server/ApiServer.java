package io.kubepekko.http.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.Controllers;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.DeferredAdmission;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.serviceaccount.OpenIdMetadata;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.api.store.ObjectWrites;
import io.kubepekko.http.audit.Auditor;
import io.kubepekko.http.metrics.ServerMetrics;
import io.kubepekko.http.metrics.StorageObjects;
import io.kubepekko.http.route.ApiHandler;
import io.kubepekko.http.route.DocumentHandler;
import io.kubepekko.http.route.HealthChecks;
import io.kubepekko.http.route.ResourceHandler;
import io.kubepekko.http.route.WatchTimeouts;
import io.kubepekko.http.security.Pem;
import io.kubepekko.http.security.Pki;
import io.kubepekko.http.webhook.RequestAdmissionChain;
import io.kubepekko.http.webhook.WebhookAdmission;
import io.kubepekko.http.webhook.WebhookCaller;
import io.kubepekko.persistence.StorageSettings;
import io.kubepekko.persistence.fencing.WritePermit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Flow;
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

    private ApiServer(
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
        ApiServerSettings.Resolved resolved = settings.resolve();
        Config systemConfig = resolved.config();
        if (BootSteps.storageJoins(resolved)) {
            // The storage decides whether this server forms the cluster or joins it (ClusterJoin),
            // not Pekko.
            systemConfig =
                    systemConfig.withValue(
                            ClusterJoin.SEED_NODES, ConfigValueFactory.fromIterable(List.of()));
        }
        ActorSystem<Void> system =
                ActorSystem.create(Behaviors.empty(), ApiServerSettings.SYSTEM_NAME, systemConfig);
        try {
            return boot(settings, resolved, system, environment, accessReviews, tokenIssuer);
        } catch (Exception | Error e) {
            system.terminate();
            throw e;
        }
    }

    private static ApiServer boot(
            ApiServerSettings settings,
            ApiServerSettings.Resolved resolved,
            ActorSystem<Void> system,
            Environment environment,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer)
            throws Exception {
        StorageSettings storage = resolved.storage();
        Config config = resolved.config();
        Cluster cluster = Cluster.get(system);
        ShutdownLogFilter.followMembers(system);
        storage.prepareSchema(system).toCompletableFuture().get(60, TimeUnit.SECONDS);
        if (resolved.seedNodes().isEmpty()) {
            cluster.manager().tell(Join.create(cluster.selfMember().address()));
        } else if (BootSteps.storageJoins(resolved)) {
            ClusterJoin.join(system, resolved.seedNodes(), config);
        } // else the configured seed nodes are joined by the cluster extension itself
        BootSteps.startWriteLease(system, config);

        DataDirectory.restrictFiles(settings.dataDir());

        Duration askTimeout = config.getDuration("kubepekko.http.ask-timeout");
        Registry registry = Registry.builtin(settings.runtimeConfig());
        StorageQuota quota = BootSteps.storageQuota(config, Runtime.getRuntime().maxMemory());
        // The collections start now; the plugins read what follows their store, so they come
        // once access control is built, before this server serves a request.
        DeferredAdmission admission = new DeferredAdmission();
        // Before the store starts, so that its collections and caches find where to report; the
        // counts of the scrape come from the control plane started next.
        AtomicReference<ControlPlane> counted = new AtomicReference<>();
        ServerMetrics metrics =
                new ServerMetrics(
                        new DeprecatedApiRequests(),
                        () -> new StorageObjects(counted.get()).count(),
                        () -> counted.get().shardedEntities());
        StoreMetrics.get(system).install(metrics.store());
        ControlPlane controlPlane =
                ControlPlane.start(
                        system,
                        registry,
                        new ObjectWrites(
                                ObjectWrites.SCHEMA_PRUNER,
                                config.getBytes(ApiServerFlags.MAX_OBJECT_BYTES),
                                admission,
                                registry),
                        environment,
                        BootSteps.readSettings(settings, config, askTimeout),
                        storage.journalReader(system, config),
                        ServiceNetwork.pools(
                                settings.services().clusterIpRange(),
                                settings.services().nodePortRange()),
                        quota);
        counted.set(controlPlane);

        ServerHealth health = ServerHealth.start(storage.probe(system, config), cluster);
        Pki.Material pki = SecureListener.pki(settings);
        // Every server follows RBAC itself: it authorizes its own requests. Its informers wait
        // for the caches, so starting it here costs the start nothing.
        RbacPolicySource.Settings rbacSettings = RbacPolicySource.Settings.fromConfig(config);
        RbacPolicySource rbacPolicy = RbacPolicySource.start(controlPlane, rbacSettings);
        // The log file is created now, so a path that cannot be written stops the start. A request
        // waiting for its event to be written goes on on the dispatcher, not on the log's writer.
        Auditor auditor =
                settings.audit().enabled()
                        ? Auditor.open(settings.audit(), system.executionContext())
                        : Auditor.disabled();
        AccessControl access =
                AccessControl.start(
                        controlPlane,
                        settings.secure().access(),
                        pki,
                        rbacPolicy,
                        rbacSettings.informer(),
                        auditor,
                        environment.clock(),
                        settings.tolerations(),
                        environment.nameSuffixes(),
                        metrics.admission());
        admission.install(access.admission());
        HealthChecks livez = health.livez(settings.livezGracePeriod());
        HealthChecks readyz = health.readyz(cluster, controlPlane, access.readiness(), quota);

        WebhookAdmission webhooks =
                new WebhookAdmission(
                        controlPlane,
                        access.webhooks(),
                        new WebhookCaller(),
                        () -> UUID.randomUUID().toString(),
                        MatchConditions.COMPILED,
                        metrics.admission());
        ResourceHandler resources =
                new ResourceHandler(
                        controlPlane,
                        new WatchTimeouts(
                                config.getDuration("kubepekko.watch.min-request-timeout")),
                        environment.clock(),
                        // The server's own checks answer the reviews, unless a test brought its own
                        // double.
                        accessReviews == AccessReviews.alwaysAllow()
                                ? access.reviews()
                                : accessReviews,
                        // Likewise the token subresource signs with the server's key.
                        tokenIssuer.configured() ? tokenIssuer : access.tokenIssuer(),
                        metrics,
                        webhooks);
        // Known once the port is bound: the jwks_uri names its address.
        AtomicReference<Optional<OpenIdMetadata.Served>> issuerDiscovery =
                new AtomicReference<>(Optional.empty());
        ApiHandler api =
                new ApiHandler(
                        Materializer.matFromSystem(system),
                        resources,
                        new DocumentHandler(registry, issuerDiscovery::get),
                        livez,
                        readyz,
                        access.gate(),
                        metrics);
        String host =
                settings.bindAddress().equals("0.0.0.0") || settings.bindAddress().equals("::")
                        ? "127.0.0.1"
                        : settings.bindAddress();
        SecureListener listener =
                SecureListener.bind(
                        system,
                        settings,
                        pki,
                        // One request at a time per connection, as pipelining-limit = 1 has it.
                        Flow.<HttpRequest>create().mapAsync(1, api::apply),
                        config.getDuration("kubepekko.http.read-header-timeout"),
                        config.getDuration("kubepekko.http.keep-alive-timeout"),
                        host);
        issuerDiscovery.set(access.issuerDiscovery(listener.url()));
        // Before anything can make /readyz answer 200: whoever waits for readiness
        // (cluster-config/bin/cluster,
        // a supervisor) then hands out the kubeconfig, which must exist by then.
        Path kubeconfig = Kubeconfig.writeContent(settings.dataDir(), listener.kubeconfig());

        BootSteps.awaitUp(cluster, Duration.ofSeconds(60));
        BootSteps.bootstrapWithRetry(controlPlane, Duration.ofSeconds(60));
        health.bootstrapped();
        BootSteps.awaitCaches(controlPlane, Duration.ofSeconds(120));
        // After bootstrap, like kube-controller-manager against a serving apiserver.
        // Off only for tests of the API server's own behaviour (kube-apiserver without a
        // kube-controller-manager).
        Controllers controllers =
                config.getBoolean("kubepekko.controllers.enabled")
                        ? Controllers.start(
                                controlPlane,
                                // kube's controllers are the API's clients: their writes pass
                                // the requests' admission chain, webhooks included.
                                new RequestAdmissionChain(controlPlane, admission, webhooks),
                                Controllers.Settings.fromConfig(config),
                                environment.clock(),
                                Pem.encode(pki.serverCa()))
                        : null;

        log.info(
                "kubepekko apiserver listening on {} (storage {}, data dir {}, kubeconfig {}, storage quota {}"
                        + " bytes of which {} used)",
                listener.url(),
                BootSteps.describe(storage),
                settings.dataDir().toAbsolutePath(),
                kubeconfig.toAbsolutePath(),
                quota.limit(),
                quota.used());
        ReadyLog.start(system, readyz);
        return new ApiServer(
                system,
                listener,
                health,
                settings,
                kubeconfig,
                controllers,
                resources,
                access,
                rbacPolicy,
                auditor);
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
