package io.kubepekko.http;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Drops the one warning Pekko logs for a clean stop of a clustered server: as remoting shuts down (the
 * last step of a graceful shutdown, after the node has left the cluster), Artery aborts its own
 * outbound connections to the other members and logs each as {@code [outbound connection to [pekko://…],
 * control stream] Upstream failed, cause: StreamTcpException: The connection has been aborted}. Tcp
 * answers "aborted" only to an abort this node asked for, so nothing failed; the line would make every
 * stop look like an error. Only after {@link #serverStopping()}: at any other time the line stays.
 */
public final class ShutdownLogFilter extends Filter<ILoggingEvent> {
    static final String LOGGER = "org.apache.pekko.stream.Materializer";
    static final String PREFIX = "[outbound connection to [";
    static final String ABORTED = "Upstream failed, cause: StreamTcpException: The connection has been aborted";

    private static volatile boolean stopping;

    /** Called when this JVM's server starts its graceful shutdown. */
    static void serverStopping() {
        stopping = true;
    }

    /** For tests: back to a running server. */
    static void reset() {
        stopping = false;
    }

    @Override
    public FilterReply decide(ILoggingEvent event) {
        if (stopping && event.getLevel() == Level.WARN && LOGGER.equals(event.getLoggerName())) {
            String message = event.getFormattedMessage();
            if (message != null && message.startsWith(PREFIX) && message.endsWith(ABORTED)) {
                return FilterReply.DENY;
            }
        }
        return FilterReply.NEUTRAL;
    }
}
