package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.Resource;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
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
 * The node's heartbeat, as the kubelet's lease controller: renew the Lease last written (an update
 * with its resourceVersion, no read first); when that fails, read it again, or create it when it is
 * not there (404). A Lease without an owner gets the Node as owner once the Node can be read. Each
 * renewal is {@link NodeLease#RENEW_INTERVAL} after the last; failures are retried with back-off,
 * logged once per streak.
 */
public final class LeaseHeartbeat extends AbstractBehavior<LeaseHeartbeat.Command> {

    /** The actor's messages. */
    public sealed interface Command {}

    private enum Renew implements Command {
        INSTANCE
    }

    private record Renewed(ObjectNode lease) implements Command {}

    private record Failed(ApiError error) implements Command {}

    public static Behavior<Command> create(
            ApiClient client,
            String nodeName,
            Duration renewInterval,
            ActorRef<NodeEvent> events,
            Clock clock) {
        return Behaviors.setup(
                ctx ->
                        Behaviors.withTimers(
                                timers ->
                                        new LeaseHeartbeat(
                                                ctx,
                                                timers,
                                                client,
                                                nodeName,
                                                renewInterval,
                                                events,
                                                clock)));
    }

    private final TimerScheduler<Command> timers;
    private final ApiClient client;
    private final String node;
    private final Duration renewInterval;
    private final ActorRef<NodeEvent> events;
    private final Clock clock;
    private final String leasePath;
    private Optional<ObjectNode> latest = Optional.empty();
    private Backoff backoff = Backoff.kubelet();

    private LeaseHeartbeat(
            ActorContext<Command> ctx,
            TimerScheduler<Command> timers,
            ApiClient client,
            String node,
            Duration renewInterval,
            ActorRef<NodeEvent> events,
            Clock clock) {
        super(ctx);
        this.timers = timers;
        this.client = client;
        this.node = node;
        this.renewInterval = renewInterval;
        this.events = events;
        this.clock = clock;
        this.leasePath = Resource.LEASES.object(NodeLease.NAMESPACE, node);
        ctx.getSelf().tell(Renew.INSTANCE);
    }

    @Override
    public Receive<Command> createReceive() {
        return newReceiveBuilder()
                .onMessageEquals(
                        Renew.INSTANCE,
                        () -> {
                            sync();
                            return this;
                        })
                .onMessage(
                        Renewed.class,
                        r -> {
                            latest = Optional.of(r.lease());
                            if (backoff.failures() > 0) {
                                getContext()
                                        .getLog()
                                        .info(
                                                "Lease of node {} renewed again after {} failed attempts",
                                                node,
                                                backoff.failures());
                            }
                            backoff = backoff.succeeded();
                            events.tell(new NodeEvent.LeaseRenewed(r.lease()));
                            timers.startSingleTimer(Renew.INSTANCE, renewInterval);
                            return this;
                        })
                .onMessage(
                        Failed.class,
                        f -> {
                            latest = Optional.empty();
                            backoff = backoff.failed();
                            if (backoff.firstOfStreak()) {
                                getContext()
                                        .getLog()
                                        .warn(
                                                "Failed to ensure the lease of node {} exists, will retry: {}",
                                                node,
                                                f.error());
                            }
                            timers.startSingleTimer(Renew.INSTANCE, backoff.delay());
                            return this;
                        })
                .build();
    }

    private void sync() {
        CompletionStage<ObjectNode> done =
                latest.map(l -> renew(l).exceptionallyCompose(t -> ensure()))
                        .orElseGet(this::ensure);
        getContext()
                .pipeToSelf(
                        done, (l, t) -> t == null ? new Renewed(l) : new Failed(ApiError.of(t)));
    }

    /** Reads the Lease and renews it, or creates it when it is not there. */
    private CompletionStage<ObjectNode> ensure() {
        return client.get(leasePath)
                .thenCompose(this::renew)
                .exceptionallyCompose(
                        t -> {
                            if (!ApiError.of(t).isNotFound()) {
                                return CompletableFuture.failedFuture(t);
                            }
                            return nodeUid()
                                    .thenCompose(
                                            uid ->
                                                    client.create(
                                                            Resource.LEASES.collection(
                                                                    NodeLease.NAMESPACE),
                                                            NodeLease.create(
                                                                    node, uid, clock.instant())));
                        });
    }

    private CompletionStage<ObjectNode> renew(ObjectNode base) {
        CompletionStage<Optional<String>> uid =
                NodeLease.hasOwner(base)
                        ? CompletableFuture.completedFuture(Optional.empty())
                        : nodeUid();
        return uid.thenCompose(
                u -> client.update(leasePath, NodeLease.renewed(base, node, u, clock.instant())));
    }

    /**
     * The Node's uid, empty while it cannot be read (the Lease is then written without an owner).
     */
    private CompletionStage<Optional<String>> nodeUid() {
        return client.get(Resource.NODES.object(null, node))
                .handle(
                        (n, t) ->
                                t == null
                                        ? Optional.of(n.path("metadata").path("uid").asText())
                                                .filter(s -> !s.isEmpty())
                                        : Optional.empty());
    }
}
