package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditRequestFacts;
import io.kubepekko.api.audit.RequestAudit;
import io.kubepekko.api.audit.RequestAuditConfig;
import io.kubepekko.api.auth.Credentials;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The server's audit: the policy, and the sink events go to. The request path calls {@link #begin}
 * once a request is authenticated (before impersonation and authorization, where kube's audit
 * filter sits) and reports to the handle; a request whose credentials were refused is reported with
 * {@link #authenticationFailed}. A server without {@code --audit-policy-file} and {@code
 * --audit-log-path} has a {@link #disabled} auditor, whose handles record nothing.
 */
public final class Auditor implements AutoCloseable {
    private final Optional<AuditPolicy> policy;
    private final AuditSink sink;
    private final AuditMode mode;
    private final InstantSource clock;
    private final Supplier<String> ids;

    public Auditor(
            Optional<AuditPolicy> policy,
            AuditSink sink,
            AuditMode mode,
            InstantSource clock,
            Supplier<String> ids) {
        this.policy = policy;
        this.sink = sink;
        this.mode = mode;
        this.clock = clock;
        this.ids = ids;
    }

    /** Audits nothing. */
    public static Auditor disabled() {
        return new Auditor(
                Optional.empty(),
                AuditSink.NONE,
                AuditMode.BLOCKING,
                InstantSource.system(),
                AuditIds::next);
    }

    /**
     * The auditor of {@code settings}: the log file is created (mode 0600) now, so a path that
     * cannot be written fails at start as in kube.
     *
     * @param completions where a request waiting for its event to be written goes on (the server's
     *     dispatcher), never the log's writer
     * @throws IOException when the log file cannot be created
     */
    public static Auditor open(AuditSettings settings, Executor completions) throws IOException {
        if (!settings.enabled()) {
            return disabled();
        }
        AuditLog.LineWriter out =
                settings.toStdout() ? stdout() : file(settings, Clock.systemUTC());
        AuditLog log =
                new AuditLog(
                        out,
                        settings.format(),
                        settings.mode(),
                        settings.bufferSize(),
                        AuditLog.DEFAULT_CLOSE_TIMEOUT,
                        completions);
        return new Auditor(
                settings.policy(), log, settings.mode(), InstantSource.system(), AuditIds::next);
    }

    static AuditLog.LineWriter file(AuditSettings settings, Clock clock) throws IOException {
        RotatingFile file =
                new RotatingFile(
                        Path.of(settings.logPath()),
                        settings.maxSizeMegabytes() * 1024L * 1024L,
                        settings.maxBackups(),
                        Duration.ofDays(settings.maxAgeDays()),
                        clock);
        try {
            file.ensureExists();
        } catch (IOException e) {
            throw new IOException("ensureLogFile: " + e.getMessage(), e);
        }
        return new AuditLog.LineWriter() {
            @Override
            public void write(byte[] line) throws IOException {
                file.write(line);
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    private static AuditLog.LineWriter stdout() {
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        return new AuditLog.LineWriter() {
            @Override
            public void write(byte[] line) throws IOException {
                out.write(line);
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.flush(); // standard output stays open for the rest of the process
            }
        };
    }

    /** Whether any request can be audited. */
    public boolean enabled() {
        return policy.isPresent();
    }

    /**
     * Starts the audit of an authenticated request and records its {@code RequestReceived} event
     * when the policy asks for it.
     *
     * @param attrs the request's authorization attributes, with the authenticated user
     * @param requestURI the path and query as sent
     * @param sourceIPs the client addresses
     * @param userAgent the User-Agent header, or empty
     * @param auditIdHeader the request's {@code Audit-ID} header, if sent
     * @param longRunning whether the request is long-running (kube's check: a watch, the log, exec,
     *     attach, portforward and proxy subresources)
     */
    public AuditHandle begin(
            AuthorizationAttributes attrs,
            String requestURI,
            List<String> sourceIPs,
            String userAgent,
            Optional<String> auditIdHeader,
            boolean longRunning) {
        return begin(
                attrs, () -> requestURI, () -> sourceIPs, userAgent, auditIdHeader, longRunning);
    }

    /**
     * {@link #begin(AuthorizationAttributes, String, List, String, Optional, boolean)} with the URI
     * and source addresses worked out only when the policy audits the request: most requests of
     * most servers are not audited, and each would otherwise build both for nothing.
     */
    public AuditHandle begin(
            AuthorizationAttributes attrs,
            Supplier<String> requestURI,
            Supplier<List<String>> sourceIPs,
            String userAgent,
            Optional<String> auditIdHeader,
            boolean longRunning) {
        RequestAuditConfig config =
                policy.isPresent() ? policy.get().evaluate(attrs) : RequestAuditConfig.NONE;
        String id = auditID(auditIdHeader);
        if (!config.audited()) {
            return AuditHandle.unaudited(id);
        }
        AuditRequestFacts facts =
                new AuditRequestFacts(
                        id,
                        requestURI.get(),
                        sourceIPs.get(),
                        userAgent,
                        clock.instant(),
                        longRunning);
        return new AuditHandle(
                RequestAudit.start(config, attrs, facts, clock), id, sink, mode, longRunning);
    }

    /**
     * Records kube's single {@code ResponseStarted} event of a request whose credentials were
     * refused (with {@code code}, 401). {@code attrs}' user is ignored: the event has none. The
     * handle records nothing more; it gives the response its audit id, and answers when the event
     * is stored.
     */
    public AuditHandle authenticationFailed(
            AuthorizationAttributes attrs,
            String requestURI,
            List<String> sourceIPs,
            String userAgent,
            Optional<String> auditIdHeader,
            Credentials presented,
            int code) {
        AuditRequestFacts facts = facts(requestURI, sourceIPs, userAgent, auditIdHeader, false);
        if (policy.isEmpty()) {
            return AuditHandle.over(facts.auditID(), CompletableFuture.completedFuture(true));
        }
        RequestAuditConfig config = policy.get().evaluateWithoutUser(attrs);
        return AuditHandle.over(
                facts.auditID(),
                RequestAudit.authenticationFailed(config, attrs, facts, presented, code, clock)
                        .map(sink::record)
                        .orElse(CompletableFuture.completedFuture(true)));
    }

    /** The request's audit id: the one it sent, else a new one. */
    private String auditID(Optional<String> auditIdHeader) {
        return auditIdHeader.filter(s -> !s.isEmpty()).orElseGet(ids);
    }

    private AuditRequestFacts facts(
            String requestURI,
            List<String> sourceIPs,
            String userAgent,
            Optional<String> auditIdHeader,
            boolean longRunning) {
        return new AuditRequestFacts(
                auditID(auditIdHeader),
                requestURI,
                sourceIPs,
                userAgent,
                clock.instant(),
                longRunning);
    }

    /** Writes what is queued and closes the log. */
    @Override
    public void close() {
        sink.close();
    }
}
