package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.audit.AuditLevel;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The audit flags: kube-apiserver's names, defaults and refusals (server/options/audit.go). */
class ApiServerAuditFlagsTest {

    @TempDir static Path dir;

    private static Path policy;

    private static AuditSettings audit(String... args) throws ApiServerFlags.UsageException {
        return ApiServerFlags.parse(args, new Properties()).settings().audit();
    }

    private static String error(String... args) {
        return assertThrows(
                        ApiServerFlags.UsageException.class,
                        () -> ApiServerFlags.parse(args, new Properties()))
                .getMessage();
    }

    private static Path policy() throws IOException {
        if (policy == null) {
            policy = dir.resolve("policy.yaml");
            Files.writeString(
                    policy,
                    "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n");
        }
        return policy;
    }

    @Test
    void noFlagsMeansNoAuditing() throws Exception {
        assertEquals(AuditSettings.DISABLED, audit());
        assertFalse(audit().enabled());
    }

    @Test
    void aLogWithoutAPolicyAuditsNothing() throws Exception {
        assertFalse(audit("--audit-log-path", "-").enabled());
    }

    @Test
    void policyAndLogGiveKubesDefaults() throws Exception {
        AuditSettings s =
                audit("--audit-policy-file", policy().toString(), "--audit-log-path", "/tmp/a.log");
        assertTrue(s.enabled());
        assertEquals(AuditLevel.METADATA, s.policy().orElseThrow().rules().get(0).level());
        assertEquals("/tmp/a.log", s.logPath());
        assertEquals(0, s.maxAgeDays());
        assertEquals(0, s.maxBackups());
        assertEquals(0, s.maxSizeMegabytes());
        assertEquals(AuditLogFormat.JSON, s.format());
        assertEquals(AuditMode.BLOCKING, s.mode());
        assertEquals(10_000, s.bufferSize());
    }

    @Test
    void everyLogFlagIsCarried() throws Exception {
        AuditSettings s =
                audit(
                        "--audit-policy-file=" + policy(),
                        "--audit-log-path=-",
                        "--audit-log-maxage=7",
                        "--audit-log-maxbackup=3",
                        "--audit-log-maxsize=50",
                        "--audit-log-format=legacy",
                        "--audit-log-mode=batch",
                        "--audit-log-batch-buffer-size=5");
        assertTrue(s.toStdout());
        assertEquals(7, s.maxAgeDays());
        assertEquals(3, s.maxBackups());
        assertEquals(50, s.maxSizeMegabytes());
        assertEquals(AuditLogFormat.LEGACY, s.format());
        assertEquals(AuditMode.BATCH, s.mode());
        assertEquals(5, s.bufferSize());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        new String[] {"--audit-log-path=x", "--audit-log-maxsize=-1"},
                        "--audit-log-maxsize -1 can't be a negative number"),
                Arguments.of(
                        new String[] {"--audit-log-path=x", "--audit-log-maxage=-2"},
                        "--audit-log-maxage -2 can't be a negative number"),
                Arguments.of(
                        new String[] {"--audit-log-path=x", "--audit-log-maxbackup=-3"},
                        "--audit-log-maxbackup -3 can't be a negative number"),
                Arguments.of(
                        new String[] {"--audit-log-path=x", "--audit-log-format=xml"},
                        "invalid audit log format xml, allowed formats are \"legacy,json\""),
                Arguments.of(
                        new String[] {"--audit-log-path=x", "--audit-log-mode=async"},
                        "invalid audit log mode async, allowed modes are"
                                + " \"batch,blocking,blocking-strict\""),
                Arguments.of(
                        new String[] {
                            "--audit-log-path=x",
                            "--audit-log-mode=batch",
                            "--audit-log-batch-buffer-size=0"
                        },
                        "invalid audit batch log buffer size 0, must be a positive number"),
                Arguments.of(
                        new String[] {
                            "--audit-log-path=x", "--audit-log-maxsize=-1", "--audit-log-maxage=-1"
                        },
                        "[--audit-log-maxage -1 can't be a negative number,"
                                + " --audit-log-maxsize -1 can't be a negative number]"),
                Arguments.of(
                        new String[] {"--audit-log-maxsize=ten"},
                        "invalid argument \"ten\" for \"--audit-log-maxsize\" flag:"
                                + " strconv.ParseInt: parsing \"ten\": invalid syntax"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void refusesBadValuesWithKubesMessages(String[] args, String message) {
        assertEquals(message, error(args));
    }

    @Test
    void badValuesPassWhenTheLogIsOffAsKubeValidatesOnlyAnEnabledLog() throws Exception {
        assertEquals(AuditSettings.DISABLED, audit("--audit-log-maxsize=-1"));
    }

    @Test
    void aMissingPolicyFileFailsTheStart() {
        Path missing = dir.resolve("none.yaml");
        assertEquals(
                "loading audit policy file: failed to read file path \""
                        + missing
                        + "\": open "
                        + missing
                        + ": no such file or directory",
                error("--audit-policy-file", missing.toString()));
    }

    @Test
    void anInvalidPolicyFailsTheStartWithKubesMessage() throws IOException {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n");
        assertEquals(
                "loading audit policy file: loaded illegal policy with 0 rules: from file " + bad,
                error("--audit-policy-file", bad.toString()));
    }
}
