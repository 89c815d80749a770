package io.kubepekko.api.audit;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * How much of a request the audit log records, kube's {@code audit.Level}, in increasing order:
 * each level records what the ones before it do and more.
 */
public enum AuditLevel {
    /** Nothing is recorded. */
    NONE("None"),
    /** Who, what, when and the outcome; no bodies. */
    METADATA("Metadata"),
    /** Metadata and the request body. */
    REQUEST("Request"),
    /** Metadata, the request body and the response body. */
    REQUEST_RESPONSE("RequestResponse");

    private final String wireName;

    AuditLevel(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** Whether this level records at least as much as {@code other}. */
    public boolean atLeast(AuditLevel other) {
        return compareTo(other) >= 0;
    }

    /** The level spelled as in a policy file, exactly (kube's comparison is case-sensitive). */
    public static Optional<AuditLevel> parse(String text) {
        return Arrays.stream(values()).filter(l -> l.wireName.equals(text)).findFirst();
    }

    /** The spellings a policy accepts, in kube's order (for its "supported values" message). */
    public static List<String> wireNames() {
        return Arrays.stream(values()).map(AuditLevel::wireName).toList();
    }
}
