package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where a {@link PodWorker} reports the events the kubelet records about a pod (core/v1 {@code
 * Event}s: Pulled, Created, Killing, ...). Called from actors; an implementation must not block
 * (hand the event to an actor). Events are best effort: an implementation may aggregate, rate-limit
 * or drop them.
 */
public interface EventSink {

    /** Records nothing (standalone mode, tests that do not look). */
    EventSink NONE = (pod, fieldPath, type, reason, message) -> {};

    /**
     * @param pod the pod the event is about (its metadata names the involved object)
     * @param fieldPath the container's path ({@code spec.containers{app}}), or empty for the pod
     *     itself
     * @param type {@code Normal} or {@code Warning}
     * @param reason the kubelet's reason ({@code Pulled}, {@code Killing}, ...)
     * @param message the kubelet's message
     */
    void event(JsonNode pod, String fieldPath, String type, String reason, String message);
}
