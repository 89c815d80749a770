package io.kubepekko.api.audit;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** When in the handling of a request an audit event is emitted: kube's {@code audit.Stage}. */
public enum AuditStage {
    /** As soon as the request is received, before it is handled. */
    REQUEST_RECEIVED("RequestReceived"),
    /** Once the response headers are sent, for long-running requests (watch, exec, log). */
    RESPONSE_STARTED("ResponseStarted"),
    /** Once the response is complete and no more bytes will be sent. */
    RESPONSE_COMPLETE("ResponseComplete"),
    /** When handling the request failed unexpectedly. */
    PANIC("Panic");

    private final String wireName;

    AuditStage(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<AuditStage> parse(String text) {
        return Arrays.stream(values()).filter(s -> s.wireName.equals(text)).findFirst();
    }

    /** The spellings a policy accepts, in kube's order. */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(AuditStage::wireName).toList();
    }
}
