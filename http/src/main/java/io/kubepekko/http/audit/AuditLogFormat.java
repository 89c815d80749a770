package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditEvent;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.FieldError;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** kube's {@code --audit-log-format}: one line per event, JSON or the legacy text. */
public enum AuditLogFormat {
    /** One compact {@code audit.k8s.io/v1} Event JSON object per line (kube's default). */
    JSON("json") {
        @Override
        byte[] line(AuditEvent event) {
            byte[] json = Json.bytes(event.toJson());
            byte[] line = Arrays.copyOf(json, json.length + 1);
            line[json.length] = '\n';
            return line;
        }
    },
    /** kube's one-line text summary ({@code audit.EventString}). */
    LEGACY("legacy") {
        @Override
        byte[] line(AuditEvent event) {
            return (legacyText(event) + "\n").getBytes(StandardCharsets.UTF_8);
        }
    };

    /** Go's {@code time.RFC3339Nano}: fractional seconds without trailing zeros. */
    private static final DateTimeFormatter RFC3339_NANO =
            DateTimeFormatter.ISO_INSTANT.withZone(ZoneOffset.UTC);

    private final String flagValue;

    AuditLogFormat(String flagValue) {
        this.flagValue = flagValue;
    }

    public String flagValue() {
        return flagValue;
    }

    /** The bytes of one event's line, newline included. */
    abstract byte[] line(AuditEvent event);

    public static Optional<AuditLogFormat> parse(String value) {
        return Arrays.stream(values()).filter(f -> f.flagValue.equals(value)).findFirst();
    }

    /** The values kube lists, in its order. */
    public static String allowed() {
        return "legacy,json";
    }

    static String legacyText(AuditEvent ev) {
        String username = "<none>";
        String groups = "<none>";
        if (ev.user() != null) {
            username = ev.user().name();
            if (!ev.user().groups().isEmpty()) {
                groups = quotedList(ev.user().groups());
            }
        }
        String as = "<self>";
        String asGroups = "<lookup>";
        if (ev.impersonatedUser() != null) {
            as = ev.impersonatedUser().name();
            asGroups = quotedList(ev.impersonatedUser().groups());
        }
        String namespace =
                ev.objectRef() != null && !ev.objectRef().namespace().isEmpty()
                        ? ev.objectRef().namespace()
                        : "<none>";
        String response =
                ev.responseStatus() == null
                        ? "<deferred>"
                        : Integer.toString(ev.responseStatus().code());
        String ip = ev.sourceIPs().isEmpty() ? "<unknown>" : ev.sourceIPs().get(0);
        return RFC3339_NANO.format(ev.requestReceivedTimestamp())
                + " AUDIT: id="
                + q(ev.auditID())
                + " stage="
                + q(ev.stage().wireName())
                + " ip="
                + q(ip)
                + " method="
                + q(ev.verb())
                + " user="
                + q(username)
                + " groups="
                + q(groups)
                + " as="
                + q(as)
                + " asgroups="
                + q(asGroups)
                + " user-agent="
                + q(ev.userAgent())
                + " namespace="
                + q(namespace)
                + " uri="
                + q(ev.requestURI())
                + " response=\""
                + response
                + "\"";
    }

    private static String quotedList(List<String> values) {
        return values.stream().map(AuditLogFormat::q).collect(Collectors.joining(","));
    }

    private static String q(String s) {
        return FieldError.quote(s);
    }
}
