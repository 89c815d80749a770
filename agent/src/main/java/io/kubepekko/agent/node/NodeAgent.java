package io.kubepekko.agent.node;

import io.kubepekko.agent.api.ApiClient;
import java.time.Clock;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The node half of the agent's guardian: starts {@link NodeRegistration} (unless {@code
 * --register-node=false}), {@link NodeStatusReporter} and {@link LeaseHeartbeat} side by side, as
 * the kubelet runs its status loop and lease controller from start-up; each retries on its own
 * until the API server answers.
 */
public final class NodeAgent {
    private NodeAgent() {}

    public static Behavior<Void> create(
            ApiClient client,
            RuntimeFacts runtime,
            NodeAgentSettings settings,
            ActorRef<NodeEvent> events,
            Clock clock) {
        return Behaviors.setup(
                ctx -> {
                    String name = settings.identity().name();
                    ActorRef<NodeRegistration.Command> registration =
                            settings.register()
                                    ? ctx.spawn(
                                            NodeRegistration.create(
                                                    client, settings.identity(), events),
                                            "registration")
                                    : ctx.getSystem().ignoreRef();
                    ctx.spawn(
                            NodeStatusReporter.create(
                                    client, runtime, settings, registration, events, clock),
                            "status");
                    ctx.spawn(
                            LeaseHeartbeat.create(
                                    client, name, settings.leaseRenewInterval(), events, clock),
                            "lease");
                    return Behaviors.empty();
                });
    }
}
