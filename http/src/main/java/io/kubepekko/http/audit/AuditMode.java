package io.kubepekko.http.audit;

import java.util.Arrays;
import java.util.Optional;

/**
 * kube's {@code --audit-log-mode}: whether a request waits for its events to be written. Every mode
 * writes on the log's own thread through a bounded queue ({@link AuditLog}); no request thread ever
 * waits on it, a waiting request only chains its next step to the write.
 */
public enum AuditMode {
    /**
     * The event is queued and the request goes on at once; a full queue drops it (kube's buffered
     * backend drops when its buffer is full).
     */
    BATCH("batch"),
    /**
     * The request goes on once its event is written, as kube's blocking backend writes it before
     * the request goes on (kube's default for the log backend): received before it is handled, the
     * outcome before the response is sent, a watch's start before its stream. An event that cannot
     * be written (full queue, failing output) does not stop the request.
     */
    BLOCKING("blocking"),
    /**
     * As blocking, and a request whose {@code RequestReceived} event could not be stored fails with
     * 500, as in kube.
     */
    BLOCKING_STRICT("blocking-strict");

    private final String flagValue;

    AuditMode(String flagValue) {
        this.flagValue = flagValue;
    }

    public String flagValue() {
        return flagValue;
    }

    public static Optional<AuditMode> parse(String value) {
        return Arrays.stream(values()).filter(m -> m.flagValue.equals(value)).findFirst();
    }

    /** The values kube lists, in its order. */
    public static String allowed() {
        return "batch,blocking,blocking-strict";
    }
}
