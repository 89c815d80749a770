package io.kubepekko.http.server;

import com.typesafe.config.Config;
import io.kubepekko.actors.Environment;
import io.kubepekko.actors.StorageQuota;
import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.Controllers;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.admission.DeferredAdmission;
import io.kubepekko.api.admission.webhook.MatchConditions;
import io.kubepekko.api.auth.AccessReviews;
import io.kubepekko.api.auth.TokenIssuer;
import io.kubepekko.api.auth.serviceaccount.OpenIdMetadata;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.kinds.ServiceNetwork;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.api.openapi.OpenApiV3;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Flow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts one {@link ApiServer} together on an actor system that has been created: the storage and
 * cluster membership, the control plane, access control and admission, the handlers and the HTTPS
 * listener, then bootstrap, the caches and the controllers, in the order each needs the one before.
 */
final class ServerBoot {
    // The start's lines are the server's: logged under its name, as operators and scripts see them.
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

    private ServerBoot() {}

    static ApiServer boot(
            ApiServerSettings settings,
            ApiServerSettings.Resolved resolved,
            ActorSystem<Void> system,
            Environment environment,
            AccessReviews accessReviews,
            TokenIssuer tokenIssuer,
            StartTask<Pki.Material> pkiTask)
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
        StartTask<OpenApiV3> openApi =
                StartTask.start("kubepekko-openapi", () -> OpenApiV3.of(registry));
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
        Pki.Material pki = pkiTask.join();
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
                        settings.admission(),
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
                        new DocumentHandler(registry, issuerDiscovery::get, openApi.stage()),
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
        // Built beside the steps above; a start whose documents cannot be built fails, as before.
        openApi.join();
        // Their parent starts here (a Cluster Singleton: this node may host it); it spawns the
        // controllers once this server's own informers have synced (readyz's informer-sync: RBAC,
        // the token index, the admission plugins' indexes), like kube-controller-manager against a
        // healthy apiserver: started before, their lists competed with the server's own start for
        // the CPU. Off only for tests of the API server's own behaviour (kube-apiserver without a
        // kube-controller-manager).
        Supplier<Optional<String>> notSynced = access.readiness();
        Controllers controllers =
                config.getBoolean("kubepekko.controllers.enabled")
                        ? Controllers.start(
                                controlPlane,
                                // kube's controllers are the API's clients: their writes pass
                                // the requests' admission chain, webhooks included.
                                new RequestAdmissionChain(controlPlane, admission, webhooks),
                                Controllers.Settings.fromConfig(config),
                                environment.clock(),
                                Pem.encode(pki.serverCa()),
                                ConditionPoll.until(
                                        system,
                                        () -> notSynced.get().isEmpty(),
                                        Duration.ofMillis(5),
                                        Duration.ofMillis(200)))
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
}
