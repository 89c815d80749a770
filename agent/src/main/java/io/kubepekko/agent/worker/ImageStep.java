package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.pod.CrashLoopBackOff;
import io.kubepekko.agent.worker.PodStatusBuilder.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What to do about a container's image once its status is known, as the kubelet's image manager
 * ({@code EnsureImageExists}, pkg/kubelet/images/image_manager.go) decides: use it, refuse ({@code
 * Never}), wait out the pull back-off of a failed pull, or pull. Keeps the pull back-off per image
 * (the kubelet keys it by pod uid and image; this is one pod's): client-go's {@code Backoff.Next},
 * doubling to the cap, reset after 2 × cap idle. Not thread-safe: the pod worker's actor owns it.
 */
final class ImageStep {

    /** What the image step does next. */
    sealed interface Decision {
        /** The image is there: go on with it. */
        record Use(String imageRef) implements Decision {}

        /** Pull it. */
        record Pull() implements Decision {}

        /**
         * The container cannot start now; it waits so, and is looked at again after {@code retryIn}
         * if given.
         */
        record Refuse(Waiting waiting, Optional<Duration> retryIn) implements Decision {}
    }

    private final Duration initial;
    private final Duration max;
    private final Map<String, CrashLoopBackOff.Entry> pullBackOff = new HashMap<>();

    ImageStep(Duration initial, Duration max) {
        this.initial = initial;
        this.max = max;
    }

    /**
     * @param image the container's image as written
     * @param policy its pull policy ({@link #pullPolicy})
     * @param presentId the image's id when the runtime has it
     */
    Decision decide(String image, String policy, Optional<String> presentId, Instant now) {
        if (presentId.isPresent() && !"Always".equals(policy)) {
            return new Decision.Use(presentId.get());
        }
        if ("Never".equals(policy)) {
            String message =
                    "Container image \"" + image + "\" is not present with pull policy of Never";
            return new Decision.Refuse(
                    new Waiting(WaitingReasons.ERR_IMAGE_NEVER_PULL, message), Optional.empty());
        }
        CrashLoopBackOff.Entry wait = pullBackOff.get(image);
        if (wait != null
                && Duration.between(wait.lastUpdate(), now).compareTo(wait.backOff()) < 0) {
            String message = "Back-off pulling image \"" + image + "\"";
            return new Decision.Refuse(
                    new Waiting(WaitingReasons.IMAGE_PULL_BACK_OFF, message),
                    Optional.of(Duration.between(now, wait.lastUpdate().plus(wait.backOff()))));
        }
        return new Decision.Pull();
    }

    /** A pull of {@code image} failed at {@code now}: the next waits longer. */
    void pullFailed(String image, Instant now) {
        CrashLoopBackOff.Entry e = pullBackOff.get(image);
        Duration next =
                e == null
                                || Duration.between(e.lastUpdate(), now)
                                                .compareTo(max.multipliedBy(2))
                                        > 0
                        ? initial
                        : e.backOff().multipliedBy(2).compareTo(max) > 0
                                ? max
                                : e.backOff().multipliedBy(2);
        pullBackOff.put(image, new CrashLoopBackOff.Entry(next, now));
    }

    /** The image is there now: its back-off is forgotten. */
    void ready(String image) {
        pullBackOff.remove(image);
    }

    /** {@code imagePullPolicy}, defaulted as the API server does when absent. */
    static String pullPolicy(JsonNode container) {
        String policy = container.path("imagePullPolicy").asText("");
        if (!policy.isEmpty()) {
            return policy;
        }
        String image = container.path("image").asText("");
        String last = image.substring(image.lastIndexOf('/') + 1);
        if (last.contains("@")) {
            return "IfNotPresent";
        }
        return !last.contains(":") || last.endsWith(":latest") ? "Always" : "IfNotPresent";
    }
}
