package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditEvent;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Where audit events go, kube's audit {@code Sink}. Events of one request are given in the order
 * their stages happen, from one thread at a time; a sink keeps that order.
 */
public interface AuditSink extends AutoCloseable {
    /**
     * Takes one event without ever blocking the caller. The answer completes once the sink has done
     * what its mode promises (written the event, or only queued it), true, or once it gave the
     * event up (dropped, or its write failed), false. It never completes on a thread that writes
     * events: what the caller chains to it runs elsewhere.
     */
    CompletionStage<Boolean> record(AuditEvent event);

    /** Writes what was taken and releases the sink's resources. */
    @Override
    void close();

    /** The sink of a server without auditing: takes nothing. */
    AuditSink NONE =
            new AuditSink() {
                @Override
                public CompletionStage<Boolean> record(AuditEvent event) {
                    return CompletableFuture.completedFuture(true);
                }

                @Override
                public void close() {}
            };
}
