package io.kubepekko.agent.probe;

import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * An {@code exec} probe as the kubelet runs it (pkg/probe/exec, kuberuntime's {@code
 * RunInContainer}): CRI {@code ExecSync} with the probe's timeout; exit code 0 passes, any other
 * fails, and a command that outlives its timeout fails with {@code command "<cmd>" timed out}. The
 * output is stdout then stderr. Any other runtime error is the prober's ({@link
 * ProbeResult#UNKNOWN}).
 */
public final class ExecProbe {
    private ExecProbe() {}

    public static CompletionStage<ProbeOutcome> run(
            CriRuntime cri, String containerId, List<String> command, Duration timeout) {
        return cri.execSync(containerId, command, timeout)
                .handle(
                        (response, failure) -> {
                            if (failure == null) {
                                String output =
                                        response.getStdout().toStringUtf8()
                                                + response.getStderr().toStringUtf8();
                                return response.getExitCode() == 0
                                        ? ProbeOutcome.success(output)
                                        : ProbeOutcome.failure(output);
                            }
                            CriError error = CriError.of(failure);
                            if (error.code() == CriError.Code.DEADLINE_EXCEEDED) {
                                return ProbeOutcome.failure(
                                        "command \"" + String.join(" ", command) + "\" timed out");
                            }
                            return ProbeOutcome.error(error.toString());
                        });
    }
}
