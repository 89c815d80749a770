package io.kubepekko.http.server;

import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.FlagSet;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditPolicyFile;
import io.kubepekko.http.audit.AuditSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit flags, as kube-apiserver's ({@code k8s.io/apiserver} {@code server/options/audit.go}),
 * listed in {@link ApiServerFlags#FLAGS}; the log's values are checked only when the log is
 * enabled, as kube validates them.
 */
final class AuditFlags {
    private AuditFlags() {}

    private static final String STRING = "string";

    static final Flag<Optional<String>> AUDIT_POLICY_FILE =
            new Flag<>(
                    "audit-policy-file",
                    STRING,
                    null,
                    "Path to the file that defines the audit policy configuration.",
                    false,
                    false,
                    Flag.optional(value -> value));
    static final Flag<String> AUDIT_LOG_PATH =
            new Flag<>(
                    "audit-log-path",
                    STRING,
                    "",
                    "If set, all requests coming to the apiserver will be logged to this file.  '-' means"
                            + " standard out.",
                    false,
                    false,
                    Flag.last(value -> value));
    static final Flag<Integer> AUDIT_LOG_MAXAGE =
            new Flag<>(
                    "audit-log-maxage",
                    "int",
                    "0",
                    "The maximum number of days to retain old audit log files based on the timestamp encoded in"
                            + " their filename.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::integer));
    static final Flag<Integer> AUDIT_LOG_MAXBACKUP =
            new Flag<>(
                    "audit-log-maxbackup",
                    "int",
                    "0",
                    "The maximum number of old audit log files to retain. Setting a value of 0 will mean"
                            + " there's no restriction on the number of files.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::integer));
    static final Flag<Integer> AUDIT_LOG_MAXSIZE =
            new Flag<>(
                    "audit-log-maxsize",
                    "int",
                    "0",
                    "The maximum size in megabytes of the audit log file before it gets rotated.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::integer));
    static final Flag<String> AUDIT_LOG_FORMAT =
            new Flag<>(
                    "audit-log-format",
                    STRING,
                    "json",
                    "Format of saved audits. \"legacy\" indicates 1-line text format for each event."
                            + " \"json\" indicates structured json format. Known formats are legacy,json.",
                    false,
                    false,
                    Flag.last(value -> value));
    static final Flag<String> AUDIT_LOG_MODE =
            new Flag<>(
                    "audit-log-mode",
                    STRING,
                    "blocking",
                    "Strategy for sending audit events. Blocking indicates sending events should block"
                            + " server responses. Batch causes the backend to buffer and write events"
                            + " asynchronously. Known modes are batch,blocking,blocking-strict.",
                    false,
                    false,
                    Flag.last(value -> value));
    static final Flag<Integer> AUDIT_LOG_BATCH_BUFFER_SIZE =
            new Flag<>(
                    "audit-log-batch-buffer-size",
                    "int",
                    "10000",
                    "The size of the buffer to store events before batching and writing. Only used in"
                            + " batch mode.",
                    false,
                    false,
                    Flag.last(ServerFlagValues::integer));

    /**
     * The audit flags, checked as kube-apiserver checks them: the policy file is read whenever one
     * is named; the log's values only when the log is enabled.
     */
    static AuditSettings settings(FlagSet.Parsed.Values v) throws ApiServerFlags.UsageException {
        Optional<AuditPolicy> policy = Optional.empty();
        Optional<String> policyFile = v.get(AUDIT_POLICY_FILE).filter(f -> !f.isEmpty());
        if (policyFile.isPresent()) {
            try {
                policy = Optional.of(AuditPolicyFile.load(Path.of(policyFile.get())));
            } catch (AuditPolicyFile.Invalid e) {
                throw new ApiServerFlags.UsageException(e.getMessage());
            }
        }
        String path = v.get(AUDIT_LOG_PATH);
        if (path.isEmpty()) {
            return AuditSettings.DISABLED;
        }
        List<String> errors = new ArrayList<>();
        String modeText = v.get(AUDIT_LOG_MODE);
        Optional<AuditMode> mode = AuditMode.parse(modeText);
        if (mode.isEmpty()) {
            errors.add(
                    "invalid audit log mode "
                            + modeText
                            + ", allowed modes are \""
                            + AuditMode.allowed()
                            + "\"");
        }
        int buffer = v.get(AUDIT_LOG_BATCH_BUFFER_SIZE);
        if (mode.orElse(null) == AuditMode.BATCH && buffer <= 0) {
            errors.add(
                    "invalid audit batch log buffer size "
                            + buffer
                            + ", must be a positive number");
        }
        String formatText = v.get(AUDIT_LOG_FORMAT);
        Optional<AuditLogFormat> format = AuditLogFormat.parse(formatText);
        if (format.isEmpty()) {
            errors.add(
                    "invalid audit log format "
                            + formatText
                            + ", allowed formats are \""
                            + AuditLogFormat.allowed()
                            + "\"");
        }
        negative(AUDIT_LOG_MAXAGE, v.get(AUDIT_LOG_MAXAGE), errors);
        negative(AUDIT_LOG_MAXBACKUP, v.get(AUDIT_LOG_MAXBACKUP), errors);
        negative(AUDIT_LOG_MAXSIZE, v.get(AUDIT_LOG_MAXSIZE), errors);
        if (!errors.isEmpty()) {
            throw new ApiServerFlags.UsageException(
                    errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
        }
        return new AuditSettings(
                policy,
                path,
                v.get(AUDIT_LOG_MAXAGE),
                v.get(AUDIT_LOG_MAXBACKUP),
                v.get(AUDIT_LOG_MAXSIZE),
                format.get(),
                mode.get(),
                // the queue is used in every mode here; kube ignores the size outside batch mode
                buffer > 0 ? buffer : AuditSettings.DEFAULT_BUFFER_SIZE);
    }

    private static void negative(Flag<Integer> flag, int value, List<String> errors) {
        if (value < 0) {
            errors.add(flag.option() + " " + value + " can't be a negative number");
        }
    }
}
