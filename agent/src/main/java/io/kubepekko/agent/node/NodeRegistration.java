package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.PatchType;
import io.kubepekko.agent.api.Resource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Registers the Node as the kubelet's {@code registerWithAPIServer} does: create it; when it
 * already exists (409 AlreadyExists) adopt it, re-applying the default labels and the attach/detach
 * annotation; any other failure is retried with the kubelet's back-off (100 ms doubling to 7 s),
 * logged once per streak. Registers again when told the Node is gone (the kubelet needs a restart
 * for that).
 */
public final class NodeRegistration extends AbstractBehavior<NodeRegistration.Command> {

    /** The actor's messages. */
    public sealed interface Command {}

    /** The Node was found missing (a 404 for it): register it again. */
    public enum NodeMissing implements Command {
        INSTANCE
    }

    private enum Attempt implements Command {
        INSTANCE
    }

    private record Done(String uid, boolean adopted) implements Command {}

    private record Failed(ApiError error) implements Command {}

    public static Behavior<Command> create(
            ApiClient client, NodeIdentity identity, ActorRef<NodeEvent> events) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new NodeRegistration(
                                                ctx, timers, client, identity, events)));
    }

    private final TimerScheduler<Command> timers;
    private final ApiClient client;
    private final NodeIdentity identity;
    private final ActorRef<NodeEvent> events;
    private Backoff backoff = Backoff.kubelet();
    private boolean registering;

    private NodeRegistration(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            ApiClient client,
            NodeIdentity identity,
            ActorRef<NodeEvent> events) {
        super(ctx);
        this.timers = timers;
        this.client = client;
        this.identity = identity;
        this.events = events;
        attempt();
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(
                        Attempt.INSTANCE,
                        () -> {
                            attempt();
                            return this;
                        })
                .onMessageEquals(
                        NodeMissing.INSTANCE,
                        () -> {
                            if (!registering) {
                                getContext()
                                        .getLog()
                                        .info(
                                                "Node {} is gone from the API server: registering it again",
                                                identity.name());
                                attempt();
                            }
                            return this;
                        })
                .onMessage(
                        Done.class,
                        d -> {
                            registering = false;
                            backoff = backoff.succeeded();
                            getContext()
                                    .getLog()
                                    .info(
                                            "{} node {} (uid {})",
                                            d.adopted() ? "Adopted existing" : "Registered",
                                            identity.name(),
                                            d.uid());
                            events.tell(new NodeEvent.Registered(d.uid(), d.adopted()));
                            return this;
                        })
                .onMessage(
                        Failed.class,
                        f -> {
                            backoff = backoff.failed();
                            if (backoff.firstOfStreak()) {
                                getContext()
                                        .getLog()
                                        .warn(
                                                "Unable to register node {} with the API server, retrying with back-off: {}",
                                                identity.name(),
                                                f.error());
                            }
                            timers.startSingleTimer(Attempt.INSTANCE, backoff.delay());
                            return this;
                        })
                .build();
    }

    private void attempt() {
        registering = true;
        String nodes = Resource.NODES.collection(null);
        CompletionStage<Done> done =
                client.create(nodes, identity.initialNode())
                        .thenApply(created -> new Done(uid(created), false))
                        .exceptionallyCompose(
                                t ->
                                        ApiError.of(t).isAlreadyExists()
                                                ? adopt()
                                                : CompletableFuture.failedFuture(t));
        getContext().pipeToSelf(done, (d, t) -> t == null ? d : new Failed(ApiError.of(t)));
    }

    /**
     * The kubelet's AlreadyExists branch: read the Node, patch the labels and annotation it would
     * set.
     */
    private CompletionStage<Done> adopt() {
        String path = Resource.NODES.object(null, identity.name());
        return client.get(path)
                .thenCompose(
                        existing ->
                                identity.adoptionPatch(existing)
                                        .map(p -> client.patch(path, PatchType.MERGE, p))
                                        .orElse(CompletableFuture.completedFuture(existing)))
                .thenApply(n -> new Done(uid(n), true));
    }

    private static String uid(ObjectNode node) {
        return node.path("metadata").path("uid").asText("");
    }
}
