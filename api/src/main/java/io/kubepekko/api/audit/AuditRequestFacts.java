package io.kubepekko.api.audit;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the edge knows of a request that audit reports besides its authorization attributes. It
 * deliberately has no headers: no Authorization header, token or certificate can reach an event.
 *
 * @param auditID the request's audit id (the {@code Audit-ID} header's value, else a new UUID)
 * @param requestURI the path and query as sent
 * @param sourceIPs the client addresses, as kube's {@code utilnet.SourceIPs} lists them
 * @param userAgent the User-Agent header, empty when absent
 * @param receivedAt when the request arrived
 * @param longRunning whether the request is long-running (kube's check: a watch, the log, exec,
 *     attach, portforward and proxy subresources): only those report a {@link
 *     AuditStage#RESPONSE_STARTED} stage
 */
public record AuditRequestFacts(
        String auditID,
        String requestURI,
        List<String> sourceIPs,
        String userAgent,
        Instant receivedAt,
        boolean longRunning) {

    /** kube's limit on the User-Agent it records, and the suffix it appends when it cuts one. */
    static final int MAX_USER_AGENT = 1024;

    static final String TRUNCATED = "...TRUNCATED";

    public AuditRequestFacts {
        Objects.requireNonNull(auditID, "auditID");
        Objects.requireNonNull(requestURI, "requestURI");
        Objects.requireNonNull(receivedAt, "receivedAt");
        sourceIPs = List.copyOf(sourceIPs);
        userAgent = userAgent == null ? "" : userAgent;
        if (userAgent.length() > MAX_USER_AGENT) {
            userAgent = userAgent.substring(0, MAX_USER_AGENT) + TRUNCATED;
        }
    }
}
