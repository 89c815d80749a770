package io.kubepekko.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.meta.Json;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A test server's audit log: a file of its own, a policy from YAML, the events written. */
final class AuditLogs {

    private AuditLogs() {}

    /** A log file in a temporary directory of its own (removed when the JVM exits). */
    static Path newFile() {
        try {
            Path dir = Files.createTempDirectory("kubepekko-audit-");
            dir.toFile().deleteOnExit();
            return dir.resolve("audit.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The policy {@code yaml} (an {@code audit.k8s.io/v1} Policy) says. */
    static AuditPolicy policy(String yaml) {
        AuditPolicyReader.Result read =
                AuditPolicyReader.read(yaml.getBytes(StandardCharsets.UTF_8));
        return ((AuditPolicyReader.Result.Loaded) read).policy();
    }

    /** JSON lines to {@code log} as {@code policy} asks, each event written before the answer. */
    static AuditSettings settings(AuditPolicy policy, Path log) {
        return new AuditSettings(
                Optional.of(policy),
                log.toString(),
                0,
                0,
                0,
                AuditLogFormat.JSON,
                AuditMode.BLOCKING,
                AuditSettings.DEFAULT_BUFFER_SIZE);
    }

    /** Every event written to {@code log} so far, in order. */
    static List<JsonNode> events(Path log) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(log)) {
            return out;
        }
        for (String line : Files.readAllLines(log)) {
            if (!line.isBlank()) {
                out.add(Json.MAPPER.readTree(line));
            }
        }
        return out;
    }
}
