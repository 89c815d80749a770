package io.kubepekko.http.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * Drops the warnings Pekko's Artery logs for a graceful stop, which would make every clean stop of
 * a clustered server look like an error:
 *
 * <ul>
 *   <li>on the stopping server: as remoting shuts down (its last step, after the node has left the
 *       cluster), Artery aborts its own outbound connections to the other members and logs each as
 *       {@code [outbound connection to [pekko://…], control stream] Upstream failed, cause:
 *       StreamTcpException: The connection has been aborted}. Tcp answers "aborted" only to an
 *       abort this node asked for: nothing failed.
 *   <li>on the others: the outbound connection to a member that has left (Leaving, Exiting) may
 *       fail the same way ({@code Connection reset}) when the leaver closes it before they stopped
 *       using it.
 *   <li>on the others: when that connection's control stream stops while a system message (a watch
 *       or its notice, for the leaver's actors that are gone) still waits in it, Artery quarantines
 *       the leaver's incarnation and logs {@code Association to [pekko://…] with UID […] is
 *       irrecoverably failed … Reason: SendQueue stopped with [1] pending system messages.} The
 *       incarnation has shut down in order; it is not coming back.
 * </ul>
 *
 * Any other line stays, and so do these for a member that did not leave (a crashed one).
 */
public final class ShutdownLogFilter extends Filter<ILoggingEvent> {
    static final String LOGGER = "org.apache.pekko.stream.Materializer";
    static final String PREFIX = "[outbound connection to [";
    static final String FAILED = "Upstream failed, cause: ";
    static final String ABORTED = FAILED + "StreamTcpException: The connection has been aborted";

    static final String ASSOCIATION_LOGGER = "org.apache.pekko.remote.artery.Association";
    static final String ASSOCIATION = "Association to [";
    static final String PENDING_SYSTEM_MESSAGES = " pending system messages.";

    private static volatile boolean stopping;

    /** Addresses of members seen leaving the cluster gracefully, until one joins again there. */
    private static final Set<String> leaving = ConcurrentHashMap.newKeySet();

    /** Called when this JVM's server starts its graceful shutdown. */
    static void serverStopping() {
        stopping = true;
    }

    /** Follows the cluster's members of {@code system}: which have left gracefully. */
    static void followMembers(ActorSystem<?> system) {
        ActorRef<ClusterEvent.MemberEvent> follower =
                system.systemActorOf(
                        Behaviors.receive(ClusterEvent.MemberEvent.class)
                                .onAnyMessage(
                                        event -> {
                                            String address = event.member().address().toString();
                                            if (event instanceof ClusterEvent.MemberLeft
                                                    || event instanceof ClusterEvent.MemberExited) {
                                                memberLeaving(address);
                                            } else if (event instanceof ClusterEvent.MemberJoined
                                                    || event instanceof ClusterEvent.MemberUp
                                                    || event
                                                            instanceof
                                                            ClusterEvent.MemberWeaklyUp) {
                                                memberJoining(address);
                                            }
                                            return Behaviors.same();
                                        })
                                .build(),
                        "shutdown-log-filter",
                        Props.empty());
        Cluster.get(system)
                .subscriptions()
                .tell(Subscribe.create(follower, ClusterEvent.MemberEvent.class));
    }

    static void memberLeaving(String address) {
        leaving.add(address);
    }

    /** A new incarnation at the address: its failures are news again. */
    static void memberJoining(String address) {
        leaving.remove(address);
    }

    /** For tests: a running server that has seen nobody leave. */
    static void reset() {
        stopping = false;
        leaving.clear();
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (event.getLevel() != Level.WARN) {
            return FilterReply.NEUTRAL;
        }
        if (ASSOCIATION_LOGGER.equals(event.getLoggerName())) {
            return quarantineOfALeaver(event.getFormattedMessage())
                    ? FilterReply.DENY
                    : FilterReply.NEUTRAL;
        }
        if (!LOGGER.equals(event.getLoggerName())) {
            return FilterReply.NEUTRAL;
        }
        String message = event.getFormattedMessage();
        if (message == null || !message.startsWith(PREFIX) || !message.contains(FAILED)) {
            return FilterReply.NEUTRAL;
        }
        if (stopping && message.endsWith(ABORTED)) {
            return FilterReply.DENY;
        }
        int end = message.indexOf(']', PREFIX.length());
        return end > 0 && leaving.contains(message.substring(PREFIX.length(), end))
                ? FilterReply.DENY
                : FilterReply.NEUTRAL;
    }

    /**
     * Artery quarantining a member that left in order because system messages to it were still
     * pending.
     */
    private static boolean quarantineOfALeaver(String message) {
        if (message == null
                || !message.startsWith(ASSOCIATION)
                || !message.endsWith(PENDING_SYSTEM_MESSAGES)) {
            return false;
        }
        int end = message.indexOf(']', ASSOCIATION.length());
        return end > 0 && leaving.contains(message.substring(ASSOCIATION.length(), end));
    }
}
