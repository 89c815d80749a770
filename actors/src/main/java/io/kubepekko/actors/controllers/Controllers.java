package io.kubepekko.actors.controllers;

import com.typesafe.config.Config;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.actors.plane.RequestAdmission;
import io.kubepekko.api.namespace.DefaultServiceAccount;
import io.kubepekko.api.namespace.RootCaConfigMap;
import io.kubepekko.persistence.CborSerializable;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.ClusterSingleton;
import org.apache.pekko.cluster.typed.SingletonActor;

/**
 * The built-in controllers of the cluster (kube-controller-manager's share of the deletion
 * lifecycle, RBAC's aggregation, PodDisruptionBudgets' and ResourceQuotas' status): the {@link
 * GarbageCollector}, the {@link NamespaceController}, the {@link ClusterRoleAggregationController},
 * the {@link DisruptionController}, the {@link ResourceQuotaController}, and two {@link
 * NamespacePublisher}s (kube's serviceaccounts controller and root CA publisher), under one parent
 * that restarts a failed controller with back-off. The parent is a Cluster Singleton: every server
 * starts its manager, and the parent runs on the oldest member only, so one node collects (two
 * would race each other's deletions and double the load). When that member leaves, the parent is
 * stopped there and started on the next oldest.
 *
 * <p>Each controller writes as kube's does under {@code --use-service-account-credentials} (the
 * default of kubeadm clusters): as the service account {@code kube-system/<name>} kube names its
 * client ({@code generic-garbage-collector}, {@code namespace-controller}, {@code
 * clusterrole-aggregation-controller}, {@code disruption-controller}, {@code
 * resourcequota-controller}, {@code service-account-controller}, {@code root-ca-cert-publisher}),
 * through the {@link RequestAdmission} chain given at start, so admission plugins and webhooks see
 * its writes as kube's would.
 */
public final class Controllers implements AutoCloseable {

    /** The parent's protocol. */
    public sealed interface Command extends CborSerializable permits Stop, HandOver, Go {}

    /** Stops every controller; answers once they have stopped. */
    public record Stop(ActorRef<Done> replyTo) implements Command {}

    /** Sent by the singleton manager when the parent moves to another member: stop here. */
    public enum HandOver implements Command {
        INSTANCE
    }

    /** The parent's own: the server it runs on is ready for the controllers. */
    enum Go implements Command {
        INSTANCE
    }

    /** How the controllers work. */
    public record Settings(
            GarbageCollector.Settings gc,
            NamespaceController.Settings namespaces,
            ClusterRoleAggregationController.Settings clusterRoleAggregation,
            DisruptionController.Settings disruption,
            ResourceQuotaController.Settings resourceQuota,
            NamespacePublisher.Settings namespacePublishers,
            boolean rootCaPublisher) {
        /**
         * What {@code kubepekko.controllers} of {@code config} sets (the actors' reference.conf has
         * every default).
         */
        public static Settings fromConfig(Config config) {
            Config controllers = config.getConfig("kubepekko.controllers");
            return new Settings(
                    GarbageCollector.Settings.fromConfig(
                            controllers.getConfig("garbage-collector")),
                    NamespaceController.Settings.fromConfig(
                            controllers.getConfig("namespace-controller")),
                    ClusterRoleAggregationController.Settings.fromConfig(
                            controllers.getConfig("clusterrole-aggregation")),
                    DisruptionController.Settings.fromConfig(
                            controllers.getConfig("disruption-controller")),
                    ResourceQuotaController.Settings.fromConfig(
                            controllers.getConfig("resource-quota-controller")),
                    NamespacePublisher.Settings.fromConfig(
                            controllers.getConfig("namespace-publishers")),
                    controllers.getBoolean("root-ca-cert-publisher.enabled"));
        }
    }

    private final ControlPlane controlPlane;
    private final ActorRef<Command> parent;
    private final AtomicBoolean activeHere;

    private Controllers(
            ControlPlane controlPlane, ActorRef<Command> parent, AtomicBoolean activeHere) {
        this.controlPlane = controlPlane;
        this.parent = parent;
        this.activeHere = activeHere;
    }

    /** Whether the singleton parent, and so the controllers, run on this node now. */
    public boolean activeHere() {
        return activeHere.get();
    }

    /**
     * Starts the controllers on {@code controlPlane}'s actor system.
     *
     * @param admission the chain every controller's write passes as an API request would, as the
     *     controller's own user: taken here rather than by {@link ControlPlane} at its start
     *     because the HTTP layer's chain reads through the started plane (its dry runs, its webhook
     *     configurations), and the controllers start after it
     * @param clock the time written into status conditions
     * @param rootCa the PEM bundle clients verify the API server with, published in every namespace
     * @param startAfter when the server is ready for the controllers: the parent spawns them once
     *     it completes (however), as kube-controller-manager starts its controllers once the API
     *     server it talks to is healthy; before, their informers' lists would compete with the
     *     server's own start
     */
    public static Controllers start(
            ControlPlane controlPlane,
            RequestAdmission admission,
            Settings settings,
            Clock clock,
            String rootCa,
            CompletionStage<?> startAfter) {
        AtomicBoolean activeHere = new AtomicBoolean();
        ActorRef<Command> proxy =
                ClusterSingleton.get(controlPlane.system())
                        .init(
                                SingletonActor.of(
                                                parent(
                                                        controlPlane,
                                                        admission,
                                                        settings,
                                                        clock,
                                                        rootCa,
                                                        activeHere,
                                                        startAfter),
                                                "controllers")
                                        .withStopMessage(HandOver.INSTANCE));
        return new Controllers(controlPlane, proxy, activeHere);
    }

    private static Behavior<Command> parent(
            ControlPlane controlPlane,
            RequestAdmission admission,
            Settings settings,
            Clock clock,
            String rootCa,
            AtomicBoolean activeHere,
            CompletionStage<?> startAfter) {
        return gated(
                startAfter,
                activeHere,
                ctx -> {
                    Function<String, ControllerClient> client =
                            name -> new ControllerClient(controlPlane, admission, name);
                    SupervisorStrategy restart =
                            SupervisorStrategy.restartWithBackoff(
                                    Duration.ofSeconds(1), Duration.ofSeconds(30), 0.2);
                    ctx.spawn(
                            Behaviors.supervise(
                                            GarbageCollector.create(
                                                    client.apply("generic-garbage-collector"),
                                                    settings.gc()))
                                    .onFailure(restart),
                            "garbage-collector");
                    ctx.spawn(
                            Behaviors.supervise(
                                            NamespaceController.create(
                                                    client.apply("namespace-controller"),
                                                    settings.namespaces(),
                                                    clock))
                                    .onFailure(restart),
                            "namespace-controller");
                    ctx.spawn(
                            Behaviors.supervise(
                                            ClusterRoleAggregationController.create(
                                                    client.apply(
                                                            "clusterrole-aggregation-controller"),
                                                    settings.clusterRoleAggregation()))
                                    .onFailure(restart),
                            "clusterrole-aggregation-controller");
                    ctx.spawn(
                            Behaviors.supervise(
                                            DisruptionController.create(
                                                    client.apply("disruption-controller"),
                                                    settings.disruption(),
                                                    clock))
                                    .onFailure(restart),
                            "disruption-controller");
                    ctx.spawn(
                            Behaviors.supervise(
                                            ResourceQuotaController.create(
                                                    client.apply("resourcequota-controller"),
                                                    settings.resourceQuota(),
                                                    clock))
                                    .onFailure(restart),
                            "resource-quota-controller");
                    ctx.spawn(
                            Behaviors.supervise(
                                            NamespacePublisher.create(
                                                    client.apply("service-account-controller"),
                                                    settings.namespacePublishers(),
                                                    new DefaultServiceAccount()))
                                    .onFailure(restart),
                            "serviceaccount-controller");
                    if (settings.rootCaPublisher()) {
                        ctx.spawn(
                                Behaviors.supervise(
                                                NamespacePublisher.create(
                                                        client.apply("root-ca-cert-publisher"),
                                                        settings.namespacePublishers(),
                                                        new RootCaConfigMap(rootCa)))
                                        .onFailure(restart),
                                "root-ca-cert-publisher");
                    }
                });
    }

    /**
     * The parent: active here from its start, it spawns its children ({@code spawn}) once {@code
     * startAfter} completes, and stops them with itself on {@link Stop} or {@link HandOver},
     * whether or not they were spawned yet.
     */
    static Behavior<Command> gated(
            CompletionStage<?> startAfter,
            AtomicBoolean activeHere,
            Consumer<ActorContext<Command>> spawn) {
        return Behaviors.setup(
                ctx -> {
                    activeHere.set(true);
                    ctx.pipeToSelf(startAfter, (done, failure) -> Go.INSTANCE);
                    AtomicBoolean spawned = new AtomicBoolean();
                    return Behaviors.receive(Command.class)
                            .onMessage(
                                    Go.class,
                                    go -> {
                                        if (spawned.compareAndSet(false, true)) {
                                            spawn.accept(ctx);
                                        }
                                        return Behaviors.same();
                                    })
                            .onMessage(
                                    Stop.class,
                                    stop -> {
                                        stop.replyTo().tell(Done.getInstance());
                                        return Behaviors.stopped();
                                    })
                            .onMessage(HandOver.class, h -> Behaviors.stopped())
                            .onSignal(
                                    PostStop.class,
                                    stopped -> {
                                        activeHere.set(false);
                                        return Behaviors.same();
                                    })
                            .build();
                });
    }

    /**
     * On the last member of the cluster, stops the controllers and waits (bounded) until they have,
     * so that they stop writing (and reading: an informer's consistent list asks a sequencer
     * through sharding, which on a member shutting down alone finds no home and holds up the shard
     * region's shutdown) before the control plane goes away. With another member that can take the
     * singleton over, it may run elsewhere, and stopping it through the proxy would stop the
     * cluster's controllers: there it stops when this node leaves, if it runs here, and the next
     * oldest member takes over. A member that is leaving too (one that has just left may still be
     * listed, Exiting) takes nothing over.
     */
    @Override
    public void close() {
        Cluster cluster = Cluster.get(controlPlane.system());
        boolean successor =
                StreamSupport.stream(cluster.state().getMembers().spliterator(), false)
                        .anyMatch(
                                m ->
                                        !m.uniqueAddress()
                                                        .equals(
                                                                cluster.selfMember()
                                                                        .uniqueAddress())
                                                && (m.status() == MemberStatus.up()
                                                        || m.status() == MemberStatus.weaklyUp()
                                                        || m.status() == MemberStatus.joining()));
        if (successor) {
            return;
        }
        try {
            AskPattern.<Command, Done>ask(
                            parent,
                            Stop::new,
                            Duration.ofSeconds(5),
                            controlPlane.system().scheduler())
                    .toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // The actor system's termination stops them anyway.
        }
    }
}
