package io.kubepekko.http.audit;

import io.kubepekko.api.audit.AuditPolicy;
import java.util.Optional;

/**
 * The audit flags, read once: kube-apiserver audits only when it has both a policy ({@code
 * --audit-policy-file}) and a backend ({@code --audit-log-path}).
 *
 * @param policy the policy read from {@code --audit-policy-file}, if one was given
 * @param logPath {@code --audit-log-path}: a file, {@code -} for standard output, empty for none
 * @param maxAgeDays {@code --audit-log-maxage}: days a rotated file is kept; 0 keeps all
 * @param maxBackups {@code --audit-log-maxbackup}: rotated files kept; 0 keeps all
 * @param maxSizeMegabytes {@code --audit-log-maxsize}: size that triggers rotation; 0 means 100
 * @param format {@code --audit-log-format}
 * @param mode {@code --audit-log-mode}
 * @param bufferSize {@code --audit-log-batch-buffer-size}: events queued for the writer
 */
public record AuditSettings(
        Optional<AuditPolicy> policy,
        String logPath,
        int maxAgeDays,
        int maxBackups,
        int maxSizeMegabytes,
        AuditLogFormat format,
        AuditMode mode,
        int bufferSize) {

    /** kube's default buffer of the log backend's queue. */
    public static final int DEFAULT_BUFFER_SIZE = 10_000;

    /** No auditing: kube's behaviour without flags. */
    public static final AuditSettings DISABLED =
            new AuditSettings(
                    Optional.empty(),
                    "",
                    0,
                    0,
                    0,
                    AuditLogFormat.JSON,
                    AuditMode.BLOCKING,
                    DEFAULT_BUFFER_SIZE);

    /** Whether requests are audited: a policy and a log both given. */
    public boolean enabled() {
        return policy.isPresent() && !logPath.isEmpty();
    }

    /** Whether the log goes to standard output. */
    public boolean toStdout() {
        return logPath.equals("-");
    }
}
