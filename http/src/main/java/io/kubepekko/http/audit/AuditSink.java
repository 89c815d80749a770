package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditEvent;

/**
 * Where audit events go, kube's audit {@code Sink}. Events of one request are given in the order
 * their stages happen, from one thread at a time; a sink keeps that order.
 */
public interface AuditSink extends AutoCloseable {
    /**
     * Takes one event. Never blocks the caller forever: a sink that cannot take it in time drops it
     * and answers false.
     *
     * @return whether the event was taken
     */
    boolean record(AuditEvent event);

    /** Writes what was taken and releases the sink's resources. */
    @Override
    void close();

    /** The sink of a server without auditing: takes nothing. */
    AuditSink NONE =
            new AuditSink() {
                @Override
                public boolean record(AuditEvent event) {
                    return true;
                }

                @Override
                public void close() {}
            };
}
