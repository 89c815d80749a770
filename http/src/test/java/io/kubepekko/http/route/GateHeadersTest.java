package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.junit.jupiter.api.Test;

class GateHeadersTest {

    @Test
    void theFirstOfEachHeaderIsReadWhateverItsCase() {
        HttpRequest request =
                HttpRequest.GET("/api")
                        .addHeaders(
                                List.of(
                                        HttpHeader.parse("authorization", "Bearer one"),
                                        HttpHeader.parse("Authorization", "Bearer two"),
                                        HttpHeader.parse("user-agent", "kubectl/v1.35.0"),
                                        HttpHeader.parse("AUDIT-ID", "a1"),
                                        HttpHeader.parse("Audit-ID", "a2"),
                                        HttpHeader.parse("x-forwarded-for", "10.0.0.1"),
                                        HttpHeader.parse("X-Real-IP", "10.0.0.2")));
        GateHeaders h = GateHeaders.of(request);
        assertEquals("Bearer one", h.authorization());
        assertEquals("kubectl/v1.35.0", h.userAgent());
        assertEquals(Optional.of("a1"), h.auditId());
        assertEquals("10.0.0.1", h.forwardedFor());
        assertEquals("10.0.0.2", h.realIp());
    }

    @Test
    void everyImpersonationHeaderIsKeptInOrder() {
        HttpRequest request =
                HttpRequest.GET("/api")
                        .addHeaders(
                                List.of(
                                        HttpHeader.parse("Impersonate-User", "jane"),
                                        HttpHeader.parse("impersonate-group", "g1"),
                                        HttpHeader.parse("Impersonate-Group", "g2"),
                                        HttpHeader.parse("Impersonate-Extra-Scopes", "view")));
        assertEquals(
                List.of(
                        Map.entry("Impersonate-User", "jane"),
                        Map.entry("impersonate-group", "g1"),
                        Map.entry("Impersonate-Group", "g2"),
                        Map.entry("Impersonate-Extra-Scopes", "view")),
                GateHeaders.of(request).impersonation());
    }

    @Test
    void absentHeadersAreNoneAndAnEmptyUserAgent() {
        GateHeaders h = GateHeaders.of(HttpRequest.GET("/api"));
        assertNull(h.authorization());
        assertEquals("", h.userAgent());
        assertEquals(Optional.empty(), h.auditId());
        assertNull(h.forwardedFor());
        assertNull(h.realIp());
        assertEquals(List.of(), h.impersonation());
    }
}
