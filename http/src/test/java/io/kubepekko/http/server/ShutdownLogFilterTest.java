package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShutdownLogFilterTest {
    private static final String PEER = "pekko://kubepekko@127.0.0.1:24958";
    private static final String ABORTED =
            "[outbound connection to ["
                    + PEER
                    + "], control stream]"
                    + " Upstream failed, cause: StreamTcpException: The connection has been aborted";
    private static final String RESET =
            "[outbound connection to ["
                    + PEER
                    + "], message stream]"
                    + " Upstream failed, cause: StreamTcpException: The connection closed with error: Connection reset";
    private static final String REFUSED =
            "[outbound connection to ["
                    + PEER
                    + "], message stream]"
                    + " Upstream failed, cause: StreamTcpException: Tcp command [Connect(127.0.0.1:24958)] failed because of"
                    + " java.net.ConnectException: Connection refused";

    private static final String QUARANTINED =
            "Association to ["
                    + PEER
                    + "] with UID [-4046209385264049962] is"
                    + " irrecoverably failed. UID is now quarantined and all messages to this UID will be delivered to dead"
                    + " letters. Remote ActorSystem must be restarted to recover from this situation. Reason: SendQueue"
                    + " stopped with [1] pending system messages.";
    private static final String QUARANTINED_OTHERWISE =
            "Association to ["
                    + PEER
                    + "] with UID [-4046209385264049962]"
                    + " is irrecoverably failed. UID is now quarantined and all messages to this UID will be delivered to dead"
                    + " letters. Remote ActorSystem must be restarted to recover from this situation. Reason: Harmful";

    private final LoggerContext context = new LoggerContext();
    private final ShutdownLogFilter filter = new ShutdownLogFilter();

    @AfterEach
    void running() {
        ShutdownLogFilter.reset();
    }

    @Test
    void arteryAbortingItsOwnConnectionsIsNoWarningOnceTheServerStops() {
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.LOGGER, Level.WARN, ABORTED),
                "while the server runs the line stays");
        ShutdownLogFilter.serverStopping();
        assertEquals(FilterReply.DENY, decide(ShutdownLogFilter.LOGGER, Level.WARN, ABORTED));
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.LOGGER, Level.WARN, REFUSED),
                "a peer refusing a connection is news");
    }

    @Test
    void aConnectionToAMemberThatLeftFailingIsNoWarningUntilItJoinsAgain() {
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.LOGGER, Level.WARN, RESET),
                "a member that did not leave (crashed) is news");
        ShutdownLogFilter.memberLeaving(PEER);
        assertEquals(FilterReply.DENY, decide(ShutdownLogFilter.LOGGER, Level.WARN, RESET));
        assertEquals(FilterReply.DENY, decide(ShutdownLogFilter.LOGGER, Level.WARN, REFUSED));
        ShutdownLogFilter.memberLeaving("pekko://kubepekko@127.0.0.1:1");
        ShutdownLogFilter.memberJoining(PEER);
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.LOGGER, Level.WARN, RESET),
                "a new incarnation at the address");
    }

    @Test
    void quarantiningAMemberThatLeftInOrderForItsPendingSystemMessagesIsNoWarning() {
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.ASSOCIATION_LOGGER, Level.WARN, QUARANTINED),
                "a member that did not leave (crashed) is news");
        ShutdownLogFilter.memberLeaving(PEER);
        assertEquals(
                FilterReply.DENY,
                decide(ShutdownLogFilter.ASSOCIATION_LOGGER, Level.WARN, QUARANTINED));
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.ASSOCIATION_LOGGER, Level.WARN, QUARANTINED_OTHERWISE),
                "any other reason is news");
        ShutdownLogFilter.memberJoining(PEER);
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.ASSOCIATION_LOGGER, Level.WARN, QUARANTINED),
                "a new incarnation at the address");
    }

    @Test
    void otherLoggersAndLevelsStay() {
        ShutdownLogFilter.serverStopping();
        ShutdownLogFilter.memberLeaving(PEER);
        assertEquals(
                FilterReply.NEUTRAL,
                decide("org.apache.pekko.cluster.Cluster", Level.WARN, ABORTED));
        assertEquals(FilterReply.NEUTRAL, decide(ShutdownLogFilter.LOGGER, Level.ERROR, RESET));
        assertEquals(
                FilterReply.NEUTRAL,
                decide(ShutdownLogFilter.LOGGER, Level.WARN, "something else about " + PEER));
    }

    private FilterReply decide(String logger, Level level, String message) {
        return filter.decide(
                new LoggingEvent(
                        ShutdownLogFilterTest.class.getName(),
                        context.getLogger(logger),
                        level,
                        message,
                        null,
                        null));
    }
}
