package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriError;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.pod.ContainerSpec;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodConfigException;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.VolumePlan;
import io.kubepekko.agent.runtime.VolumePlanner;
import io.kubepekko.agent.runtime.VolumeWriter;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import io.kubepekko.api.status.Failures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The runtime steps of a sync pass: the sandbox, and those that start one container, as
 * kuberuntime's {@code startContainer}: image status (then a pull if the {@link ImageStep} says
 * so), its config and files on disk, create, start. Each step is one asynchronous call whose result
 * the pod worker receives as a message, so a pod being terminated can drop what comes back. Disk
 * work runs on the blocking executor, never on the actor's thread.
 */
final class ContainerSteps {

    /** One container to start in a pass, into which sandbox (created with which config). */
    record Job(
            JsonNode container,
            ContainerSpec spec,
            int attempt,
            ObservedPod.Sandbox sandbox,
            PodSandboxConfig sandboxConfig) {}

    /** Why a step failed, and what the container shows for it (empty: it stays as it was). */
    record Failure(String message, Optional<Waiting> waiting) {}

    private final CriRuntime cri;
    private final NodeContext node;
    private final Executor blocking;

    ContainerSteps(CriRuntime cri, NodeContext node, Executor blocking) {
        this.cri = cri;
        this.node = node;
        this.blocking = blocking;
    }

    /**
     * Runs the pod's sandbox; its id. The kubelet creates the pod's log directory before it asks
     * for it.
     */
    CompletionStage<String> runSandbox(PodSandboxConfig config, String runtimeHandler) {
        return CompletableFuture.runAsync(
                        () -> createDirectories(Path.of(config.getLogDirectory())), blocking)
                .thenCompose(v -> cri.runPodSandbox(config, runtimeHandler));
    }

    CompletionStage<Optional<Image>> imageStatus(Job job) {
        return cri.imageStatus(job.spec().image());
    }

    /**
     * Pulls the job's image (events Pulling, then Pulled with how long it took); the image
     * reference on success.
     */
    CompletionStage<String> pull(Job job, PodEvents events, Clock clock) {
        String name = job.spec().name();
        String image = job.spec().image();
        events.pulling(name, image);
        Instant began = clock.instant();
        return cri.pullImage(image, null, job.sandboxConfig())
                .thenApply(
                        ref -> {
                            events.pulled(name, image, Duration.between(began, clock.instant()));
                            return ref;
                        });
    }

    /** The kubelet shows a pull error as grpc-go words it, waiting {@code ErrImagePull}. */
    static Failure pullFailure(Throwable t) {
        String message = grpcText(CriError.of(t));
        return new Failure(
                message, Optional.of(new Waiting(WaitingReasons.ERR_IMAGE_PULL, message)));
    }

    /**
     * The container's config built and what it needs on disk made. {@code failedMounts}: the {@code
     * FailedMount} messages of volumes set up before whose source is gone now; they keep their
     * content (see {@link VolumePlanner#planForStart}).
     */
    record Prepared(ContainerConfigs.Plan plan, List<String> failedMounts) {
        Prepared {
            failedMounts = List.copyOf(failedMounts);
        }
    }

    /** The volumes written, the container's config built, its log directory made. */
    CompletionStage<Prepared> prepare(Job job, String imageRef, JsonNode pod, PodInputs inputs) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        List<String> ips = job.sandbox().ips();
                        VolumePlanner.Remount remount =
                                VolumePlanner.planForStart(
                                        pod, inputs, node, ips, VolumeWriter::isSetUp);
                        VolumePlan volumes = remount.plan();
                        VolumeWriter.materialize(remount.toWrite());
                        ContainerConfigs.Plan plan =
                                ContainerConfigs.build(
                                        pod,
                                        job.container(),
                                        job.attempt(),
                                        imageRef,
                                        ips,
                                        inputs,
                                        volumes,
                                        node,
                                        UUID.randomUUID().toString().substring(0, 8));
                        VolumeWriter.ensureSubPaths(plan.mounts());
                        if (plan.terminationLogHostPath().isPresent()) {
                            VolumeWriter.createTerminationLog(plan.terminationLogHostPath().get());
                        }
                        createDirectories(
                                Path.of(job.sandboxConfig().getLogDirectory(), job.spec().name()));
                        return new Prepared(plan, List.copyOf(remount.kept().values()));
                    } catch (PodConfigException e) {
                        throw new CompletionException(e);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                },
                blocking);
    }

    /**
     * A config error waits {@code CreateContainerConfigError}; a failed mount leaves the container
     * as it was.
     */
    static Failure prepareFailure(Throwable t) {
        Throwable cause = Failures.unwrap(t);
        if (cause instanceof PodConfigException e) {
            Optional<Waiting> waiting =
                    e.reason() == PodConfigException.Reason.CREATE_CONTAINER_CONFIG_ERROR
                            ? Optional.of(
                                    new Waiting(
                                            WaitingReasons.CREATE_CONTAINER_CONFIG_ERROR,
                                            e.eventMessage()))
                            : Optional.empty(); // ContainerCreating
            return new Failure(e.eventMessage(), waiting);
        }
        return new Failure(String.valueOf(cause), Optional.empty());
    }

    /** Creates the container in the job's sandbox; its id. */
    CompletionStage<String> create(Job job, ContainerConfigs.Plan plan) {
        return cri.createContainer(job.sandbox().id(), plan.config(), job.sandboxConfig());
    }

    /**
     * Starts the created container, then runs its postStart hook (kuberuntime's {@code
     * startContainer} step 4): a failing hook kills the container (it restarts by the pod's policy)
     * and fails the step with {@link PostStartHookFailed}.
     */
    CompletionStage<Void> start(Job job, String containerId, PodEvents events, Clock clock) {
        String name = job.spec().name();
        return cri.startContainer(containerId)
                .thenCompose(
                        v -> {
                            events.started(name);
                            JsonNode hook = job.container().path("lifecycle").get("postStart");
                            if (hook == null) {
                                return CompletableFuture.completedFuture(null);
                            }
                            LifecycleHooks.Target target =
                                    new LifecycleHooks.Target(
                                            name,
                                            containerId,
                                            job.container(),
                                            job.sandbox().ips().isEmpty()
                                                    ? ""
                                                    : job.sandbox().ips().get(0));
                            return LifecycleHooks.run(
                                            cri, hook, target, events.podText(), HOOK_TIMEOUT)
                                    .thenCompose(
                                            failure -> {
                                                if (failure.isEmpty()) {
                                                    return CompletableFuture.<Void>completedFuture(
                                                            null);
                                                }
                                                events.failedPostStartHook(name);
                                                JsonNode pod = events.pod();
                                                long grace =
                                                        pod.path("spec")
                                                                .path(
                                                                        "terminationGracePeriodSeconds")
                                                                .asLong(30);
                                                return LifecycleHooks.kill(
                                                                cri,
                                                                clock,
                                                                events,
                                                                target,
                                                                Duration.ofSeconds(grace),
                                                                "FailedPostStartHook")
                                                        .handle(
                                                                (x, t) -> {
                                                                    throw new CompletionException(
                                                                            new PostStartHookFailed(
                                                                                    failure.get()));
                                                                });
                                            });
                        });
    }

    /** A postStart hook that has no deadline of its own is not left to hang a pass forever. */
    static final Duration HOOK_TIMEOUT = Duration.ofMinutes(2);

    /**
     * The container's postStart hook failed (the message is the kubelet's); the container was
     * killed.
     */
    static final class PostStartHookFailed extends RuntimeException {
        PostStartHookFailed(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * A failed start: a failed postStart hook waits {@code PostStartHookError}, a CRI error {@code
     * RunContainerError}.
     */
    static Failure startFailure(Throwable t) {
        Throwable cause = Failures.unwrap(t);
        if (cause instanceof PostStartHookFailed hook) {
            return new Failure(
                    hook.getMessage(),
                    Optional.of(
                            new Waiting(WaitingReasons.POST_START_HOOK_ERROR, hook.getMessage())));
        }
        return criFailure(t, WaitingReasons.RUN_CONTAINER_ERROR);
    }

    /**
     * A failed CRI call; the container waits with {@code waitingReason} and the runtime's message,
     * if given.
     */
    static Failure criFailure(Throwable t, String waitingReason) {
        CriError error = CriError.of(t);
        return new Failure(
                error.toString(),
                Optional.ofNullable(waitingReason).map(r -> new Waiting(r, error.message())));
    }

    /** How grpc-go prints a status error: {@code rpc error: code = Unknown desc = ...}. */
    static String grpcText(CriError error) {
        StringBuilder code = new StringBuilder();
        for (String part : error.code().name().split("_")) {
            code.append(part.charAt(0)).append(part.substring(1).toLowerCase(Locale.ROOT));
        }
        return "rpc error: code = " + code + " desc = " + error.message();
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
