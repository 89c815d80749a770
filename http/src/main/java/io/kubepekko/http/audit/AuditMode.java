package io.kubepekko.http.audit;

import java.util.Arrays;
import java.util.Optional;

/**
 * kube's {@code --audit-log-mode}: what a request does when the log cannot take its event at once.
 * Here every mode writes off the request thread through a bounded queue; the modes differ when the
 * queue is full.
 */
public enum AuditMode {
    /** Drop the event at once (kube's buffered backend drops when its buffer is full). */
    BATCH("batch"),
    /**
     * Wait for room, the request held meanwhile, as kube's blocking mode holds it while it writes
     * (kube's default for the log backend); bounded here, so a stalled disk cannot hold a request
     * forever: past the wait the event is dropped.
     */
    BLOCKING("blocking"),
    /**
     * As blocking, and a request whose {@code RequestReceived} event could not be taken fails with
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
