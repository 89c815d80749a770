package io.kubepekko.http.route;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;

/**
 * The headers the gate reads, gathered in one pass over the request's headers: each lookup by name
 * would walk them again and lower-case the name, on every request.
 *
 * @param authorization the first {@code Authorization} header's value, or null
 * @param userAgent the first {@code User-Agent}'s, or empty
 * @param auditId the first {@code Audit-ID}'s
 * @param forwardedFor the first {@code X-Forwarded-For}'s, or null
 * @param realIp the first {@code X-Real-Ip}'s, or null
 * @param impersonation every {@code Impersonate-*} header, in order
 */
record GateHeaders(
        String authorization,
        String userAgent,
        Optional<String> auditId,
        String forwardedFor,
        String realIp,
        List<Map.Entry<String, String>> impersonation) {

    private static final String IMPERSONATE = "Impersonate-";

    static GateHeaders of(HttpRequest request) {
        String authorization = null;
        String userAgent = null;
        String auditId = null;
        String forwardedFor = null;
        String realIp = null;
        List<Map.Entry<String, String>> impersonation = List.of();
        for (HttpHeader h : request.getHeaders()) {
            String name = h.name();
            if (authorization == null && name.equalsIgnoreCase("Authorization")) {
                authorization = h.value();
            } else if (userAgent == null && name.equalsIgnoreCase("User-Agent")) {
                userAgent = h.value();
            } else if (auditId == null && name.equalsIgnoreCase("Audit-ID")) {
                auditId = h.value();
            } else if (forwardedFor == null && name.equalsIgnoreCase("X-Forwarded-For")) {
                forwardedFor = h.value();
            } else if (realIp == null && name.equalsIgnoreCase("X-Real-Ip")) {
                realIp = h.value();
            } else if (name.regionMatches(true, 0, IMPERSONATE, 0, IMPERSONATE.length())) {
                if (impersonation.isEmpty()) {
                    impersonation = new ArrayList<>();
                }
                impersonation.add(Map.entry(name, h.value()));
            }
        }
        return new GateHeaders(
                authorization,
                userAgent == null ? "" : userAgent,
                Optional.ofNullable(auditId),
                forwardedFor,
                realIp,
                impersonation);
    }
}
