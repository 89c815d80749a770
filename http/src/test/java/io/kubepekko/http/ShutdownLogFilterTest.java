package io.kubepekko.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ShutdownLogFilterTest {
    private static final String ABORTED_LINE = "[outbound connection to [pekko://kubepekko@127.0.0.1:24958], control stream]"
            + " Upstream failed, cause: StreamTcpException: The connection has been aborted";
    private static final String REFUSED_LINE = "[outbound connection to [pekko://kubepekko@127.0.0.1:24958], message stream]"
            + " Upstream failed, cause: StreamTcpException: Tcp command [Connect(127.0.0.1:24958)] failed because of"
            + " java.net.ConnectException: Connection refused";

    private final LoggerContext context = new LoggerContext();
    private final ShutdownLogFilter filter = new ShutdownLogFilter();

    @AfterEach
    void running() {
        ShutdownLogFilter.reset();
    }

    @Test
    void arteryAbortingItsOwnConnectionsIsNoWarningOnceTheServerStops() {
        assertEquals(FilterReply.NEUTRAL, filter.decide(event(ShutdownLogFilter.LOGGER, Level.WARN, ABORTED_LINE)),
                "while the server runs the line stays");
        ShutdownLogFilter.serverStopping();
        assertEquals(FilterReply.DENY, filter.decide(event(ShutdownLogFilter.LOGGER, Level.WARN, ABORTED_LINE)));
    }

    @Test
    void otherLinesStayWhileTheServerStops() {
        ShutdownLogFilter.serverStopping();
        assertEquals(FilterReply.NEUTRAL, filter.decide(event(ShutdownLogFilter.LOGGER, Level.WARN, REFUSED_LINE)),
                "a peer refusing a connection is news");
        assertEquals(FilterReply.NEUTRAL, filter.decide(event("org.apache.pekko.cluster.Cluster", Level.WARN, ABORTED_LINE)));
        assertEquals(FilterReply.NEUTRAL, filter.decide(event(ShutdownLogFilter.LOGGER, Level.ERROR, ABORTED_LINE)));
    }

    private LoggingEvent event(String logger, Level level, String message) {
        return new LoggingEvent(ShutdownLogFilterTest.class.getName(), context.getLogger(logger), level, message, null,
                null);
    }
}
