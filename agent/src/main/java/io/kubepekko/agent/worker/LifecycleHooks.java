package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.probe.HttpProbe;
import io.kubepekko.agent.probe.ProbeResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Container lifecycle hooks as the kubelet runs them (pkg/kubelet/lifecycle/handlers.go,
 * kuberuntime's {@code executePreStopHook} and {@code killContainer}): a handler is an {@code exec}
 * (CRI ExecSync; a non-zero exit fails), an {@code httpGet} (only a failed request fails, not the
 * status code) or a {@code sleep}. A kill runs the container's preStop first, within the grace
 * period: the hook is abandoned when the grace period is over, and StopContainer gets what is left,
 * at least {@link #MINIMUM_GRACE_SECONDS}.
 */
final class LifecycleHooks {
    private LifecycleHooks() {}

    /**
     * kuberuntime's {@code minimumGracePeriodInSeconds}: a container always gets this long after
     * SIGTERM.
     */
    static final long MINIMUM_GRACE_SECONDS = 2;

    /** What a kill needs to know of the container and its pod. */
    record Target(String name, String containerId, JsonNode container, String podIp) {}

    /**
     * Runs {@code handler}; empty on success, else the kubelet's message for the failure.
     *
     * @param timeout how long an exec or a request may take (the grace left for a preStop)
     */
    static CompletionStage<Optional<String>> run(
            CriRuntime cri, JsonNode handler, Target target, String podText, Duration timeout) {
        String where =
                " for Container \""
                        + target.name()
                        + "\" in Pod \""
                        + podText
                        + "\" failed - error: ";
        if (handler.has("exec")) {
            List<String> command = new ArrayList<>();
            handler.path("exec").path("command").forEach(c -> command.add(c.asText()));
            String head = "Exec lifecycle hook (" + goList(command) + ")" + where;
            return cri.execSync(target.containerId(), command, timeout)
                    .handle(
                            (r, t) -> {
                                if (t != null) {
                                    return Optional.of(
                                            head + CriError.of(t).message() + ", message: \"\"");
                                }
                                String output =
                                        r.getStdout().toStringUtf8() + r.getStderr().toStringUtf8();
                                if (r.getExitCode() == 0) {
                                    return Optional.empty();
                                }
                                return Optional.of(
                                        head
                                                + "command '"
                                                + String.join(" ", command)
                                                + "' exited with "
                                                + r.getExitCode()
                                                + ": "
                                                + r.getStderr().toStringUtf8()
                                                + ", message: \""
                                                + output
                                                + "\"");
                            });
        }
        if (handler.has("httpGet")) {
            JsonNode get = handler.path("httpGet");
            String head = "HTTP lifecycle hook (" + get.path("path").asText("") + ")" + where;
            return HttpProbe.run(get, target.container(), target.podIp(), timeout)
                    .thenApply(
                            o ->
                                    o.result() == ProbeResult.SUCCESS
                                                    || o.output()
                                                            .startsWith(
                                                                    "HTTP probe failed with statuscode")
                                            ? Optional.<String>empty()
                                            : Optional.of(head + o.output()));
        }
        if (handler.has("sleep")) {
            long seconds = handler.path("sleep").path("seconds").asLong(0);
            return CompletableFuture.supplyAsync(
                    Optional::<String>empty,
                    CompletableFuture.delayedExecutor(seconds, TimeUnit.SECONDS));
        }
        return CompletableFuture.completedFuture(
                Optional.of("Cannot run handler: invalid handler: " + handler));
    }

    /**
     * kuberuntime's {@code killContainer}: a {@code Killing} event with {@code message}, the
     * preStop hook (if any and the grace period is not zero) cut off at the grace period, then
     * StopContainer with the grace left.
     */
    static CompletionStage<Void> kill(
            CriRuntime cri,
            Clock clock,
            PodEvents events,
            Target target,
            Duration grace,
            String message) {
        events.killing(target.name(), message);
        JsonNode preStop =
                target.container() == null
                        ? null
                        : target.container().path("lifecycle").get("preStop");
        CompletionStage<Long> left =
                preStop == null || grace.isZero()
                        ? CompletableFuture.completedFuture(grace.toSeconds())
                        : preStop(cri, clock, events, target, preStop, grace);
        return left.thenCompose(
                seconds ->
                        cri.stopContainer(
                                target.containerId(),
                                Duration.ofSeconds(Math.max(MINIMUM_GRACE_SECONDS, seconds))));
    }

    /**
     * Runs the preStop hook for at most {@code grace}; the whole seconds of the grace period left
     * after it.
     */
    private static CompletionStage<Long> preStop(
            CriRuntime cri,
            Clock clock,
            PodEvents events,
            Target target,
            JsonNode hook,
            Duration grace) {
        Instant start = clock.instant();
        return run(cri, hook, target, events.podText(), grace)
                .toCompletableFuture()
                .thenApply(
                        failure -> {
                            failure.ifPresent(f -> events.failedPreStopHook(target.name()));
                            return true;
                        })
                .exceptionally(t -> true)
                .completeOnTimeout(false, grace.toMillis(), TimeUnit.MILLISECONDS)
                .thenApply(
                        done ->
                                done
                                        ? grace.toSeconds()
                                                - Duration.between(start, clock.instant())
                                                        .toSeconds()
                                        : 0L);
    }

    /** Go's {@code %s} of a string slice: {@code [sh -c exit 1]}. */
    private static String goList(List<String> items) {
        return "[" + String.join(" ", items) + "]";
    }
}
