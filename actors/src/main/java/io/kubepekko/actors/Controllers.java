package io.kubepekko.actors;

import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The built-in controllers of this API server (kube-controller-manager's share of the deletion
 * lifecycle): the {@link GarbageCollector} and the {@link NamespaceController}, under one parent
 * that restarts a failed controller with back-off. One instance per server: in a clustered
 * deployment this parent is what would become a Cluster Singleton, so that one node collects.
 */
public final class Controllers implements AutoCloseable {

    /** The parent's protocol. */
    public sealed interface Command {}

    /** Stops every controller; answers once they have stopped. */
    public record Stop(ActorRef<Done> replyTo) implements Command {}

    /** How the controllers work. */
    public record Settings(GarbageCollector.Settings gc, NamespaceController.Settings namespaces) {
        public static final Settings DEFAULT = new Settings(GarbageCollector.Settings.DEFAULT,
                NamespaceController.Settings.DEFAULT);
    }

    private final ControlPlane controlPlane;
    private final ActorRef<Command> parent;

    private Controllers(ControlPlane controlPlane, ActorRef<Command> parent) {
        this.controlPlane = controlPlane;
        this.parent = parent;
    }

    /**
     * Starts the controllers on {@code controlPlane}'s actor system.
     *
     * @param clock the time written into status conditions
     */
    public static Controllers start(ControlPlane controlPlane, Settings settings, java.time.Clock clock) {
        return new Controllers(controlPlane, controlPlane.system().systemActorOf(parent(controlPlane, settings, clock),
                "controllers", Props.empty()));
    }

    private static Behavior<Command> parent(ControlPlane controlPlane, Settings settings, java.time.Clock clock) {
        return Behaviors.setup(ctx -> {
            SupervisorStrategy restart = SupervisorStrategy.restartWithBackoff(Duration.ofSeconds(1),
                    Duration.ofSeconds(30), 0.2);
            ctx.spawn(Behaviors.supervise(GarbageCollector.create(controlPlane, settings.gc())).onFailure(restart),
                    "garbage-collector");
            ctx.spawn(Behaviors.supervise(NamespaceController.create(controlPlane, settings.namespaces(), clock))
                    .onFailure(restart), "namespace-controller");
            return Behaviors.receive(Command.class)
                    .onMessage(Stop.class, stop -> {
                        stop.replyTo().tell(Done.getInstance());
                        return Behaviors.stopped();
                    })
                    .build();
        });
    }

    /** Stops the controllers and waits (bounded) until they have. */
    @Override
    public void close() {
        try {
            AskPattern.<Command, Done>ask(parent, Stop::new, Duration.ofSeconds(5), controlPlane.system().scheduler())
                    .toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // The actor system's termination stops them anyway.
        }
    }
}
