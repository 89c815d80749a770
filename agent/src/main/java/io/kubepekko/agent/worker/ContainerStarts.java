package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.Image;
import io.kubepekko.agent.runtime.ContainerConfigs;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.worker.ContainerSteps.Job;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Starts the containers a {@link PodWorker}'s sync pass planned ({@link PassPlanner}), one after
 * the other, as kuberuntime's {@code startContainer} does: the image ({@link ImageStep}: pull
 * policy and pull back-off; CRI ImageStatus, then PullImage), the container's configs,
 * CreateContainer, StartContainer and its postStart hook ({@link ContainerSteps}). Each step's
 * result comes back to the worker as a {@link Step}, which the worker hands to {@link #on}. A
 * container that cannot start records why (its waiting reason, an event, a failure streak, a retry
 * a relist period later) and the pass goes on with the next; when none is left the pass ends. Runs
 * inside the worker's actor.
 *
 * @param <M> the worker's message type
 */
final class ContainerStarts<M> {

    /** A step's result, to be handed back to {@link #on}. */
    sealed interface Step {}

    private record ImageChecked(Job job, Optional<Image> image) implements Step {}

    private record ImageReady(Job job, String imageRef) implements Step {}

    private record Prepared(Job job, ContainerConfigs.Plan plan, List<String> failedMounts)
            implements Step {}

    private record Created(Job job, String containerId) implements Step {}

    private record Started(Job job) implements Step {}

    private record Failed(String step, Job job, ContainerSteps.Failure failure) implements Step {}

    private final ActorContext<M> ctx;
    private final Function<Step, M> wrap;
    private final ContainerSteps steps;
    private final ImageStep images;
    private final PodEvents events;
    private final Clock clock;
    private final SyncTriggers<M> sync;
    private final FailureStreaks failures;
    private final Map<String, Waiting> reasons;
    private final String uid;
    private final Supplier<JsonNode> pod;
    private final Supplier<PodInputs> inputs;
    private final Runnable passEnded;
    private final Deque<Job> pass = new ArrayDeque<>();

    /**
     * Results come to the worker as {@code wrap}ped steps; waiting reasons go to (and are cleared
     * from) the worker's {@code reasons}; the pod and its inputs are read as they are when a
     * container is prepared; {@code passEnded} runs when no job is left.
     */
    ContainerStarts(
            ActorContext<M> ctx,
            Function<Step, M> wrap,
            ContainerSteps steps,
            ImageStep images,
            PodEvents events,
            Clock clock,
            SyncTriggers<M> sync,
            FailureStreaks failures,
            Map<String, Waiting> reasons,
            String uid,
            Supplier<JsonNode> pod,
            Supplier<PodInputs> inputs,
            Runnable passEnded) {
        this.ctx = ctx;
        this.wrap = wrap;
        this.steps = steps;
        this.images = images;
        this.events = events;
        this.clock = clock;
        this.sync = sync;
        this.failures = failures;
        this.reasons = reasons;
        this.uid = uid;
        this.pod = pod;
        this.inputs = inputs;
        this.passEnded = passEnded;
    }

    /** Queues a container to start in this pass. */
    void add(Job job) {
        pass.add(job);
    }

    /** Forgets the containers still queued (the pod terminates). */
    void clear() {
        pass.clear();
    }

    /** Starts the next queued container, or ends the pass if none is left. */
    void next() {
        Job job = pass.poll();
        if (job == null) {
            passEnded.run();
            return;
        }
        ctx.getLog().debug("pod {} container {} image status requested", uid, job.spec().name());
        ctx.pipeToSelf(
                steps.imageStatus(job),
                (img, t) ->
                        wrap.apply(
                                t == null
                                        ? new ImageChecked(job, img)
                                        : new Failed(
                                                "image status",
                                                job,
                                                ContainerSteps.criFailure(t, null))));
    }

    /** A step's result. */
    void on(Step step) {
        if (step instanceof ImageChecked checked) {
            onImageChecked(checked);
        } else if (step instanceof ImageReady ready) {
            onImageReady(ready);
        } else if (step instanceof Prepared prepared) {
            onPrepared(prepared);
        } else if (step instanceof Created created) {
            onCreated(created);
        } else if (step instanceof Started started) {
            onStarted(started);
        } else if (step instanceof Failed failed) {
            onFailed(failed);
        }
    }

    private void onImageChecked(ImageChecked checked) {
        Job job = checked.job();
        String image = job.spec().image();
        ImageStep.Decision decision =
                images.decide(
                        image,
                        ImageStep.pullPolicy(job.container()),
                        checked.image().map(Image::getId),
                        clock.instant());
        if (decision instanceof ImageStep.Decision.Use use) {
            events.alreadyPresent(job.spec().name(), image);
            onImageReady(new ImageReady(job, use.imageRef()));
            return;
        }
        if (decision instanceof ImageStep.Decision.Refuse refuse) {
            refuse.retryIn().ifPresent(wait -> sync.wakeUp("pull " + image, wait));
            onFailed(
                    new Failed(
                            "image",
                            job,
                            new ContainerSteps.Failure(
                                    refuse.waiting().message(), Optional.of(refuse.waiting()))));
            return;
        }
        ctx.pipeToSelf(
                steps.pull(job, events, clock),
                (ref, t) ->
                        wrap.apply(
                                t == null
                                        ? new ImageReady(job, ref)
                                        : new Failed("pull", job, ContainerSteps.pullFailure(t))));
    }

    private void onImageReady(ImageReady ready) {
        Job job = ready.job();
        images.ready(job.spec().image());
        ctx.pipeToSelf(
                steps.prepare(job, ready.imageRef(), pod.get(), inputs.get()),
                (p, t) ->
                        wrap.apply(
                                t == null
                                        ? new Prepared(job, p.plan(), p.failedMounts())
                                        : new Failed(
                                                "config", job, ContainerSteps.prepareFailure(t))));
    }

    private void onPrepared(Prepared prepared) {
        Job job = prepared.job();
        prepared.failedMounts().forEach(events::failedMount);
        ctx.getLog().debug("pod {} container {} create requested", uid, job.spec().name());
        ctx.pipeToSelf(
                steps.create(job, prepared.plan()),
                (id, t) ->
                        wrap.apply(
                                t == null
                                        ? new Created(job, id)
                                        : new Failed(
                                                "create",
                                                job,
                                                ContainerSteps.criFailure(
                                                        t,
                                                        WaitingReasons.CREATE_CONTAINER_ERROR))));
    }

    private void onCreated(Created created) {
        Job job = created.job();
        events.created(job.spec().name());
        ctx.getLog().debug("pod {} container {} created, start requested", uid, job.spec().name());
        ctx.pipeToSelf(
                steps.start(job, created.containerId(), events, clock),
                (v, t) ->
                        wrap.apply(
                                t == null
                                        ? new Started(job)
                                        : new Failed(
                                                "start", job, ContainerSteps.startFailure(t))));
    }

    private void onStarted(Started started) {
        Job job = started.job();
        failures.succeeded(job.spec().name());
        reasons.remove(job.spec().name());
        sync.progressed();
        ctx.getLog()
                .info(
                        "pod {} container {} attempt {} started",
                        uid,
                        job.spec().name(),
                        job.attempt());
        next();
    }

    private void onFailed(Failed failure) {
        sync.retryLater();
        String name = failure.job().spec().name();
        if (failure.step().equals("pull")) {
            images.pullFailed(failure.job().spec().image(), clock.instant());
        }
        failures.failed(
                name,
                failure.step() + " of container " + name + ": " + failure.failure().message());
        events.stepFailed(failure.step(), name, failure.failure());
        failure.failure().waiting().ifPresent(w -> reasons.put(name, w));
        next(); // one container's trouble does not hold the others up
    }
}
