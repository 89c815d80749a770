package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Where a {@link PodWorker} hands the pod statuses it computes (the status manager writes them to
 * {@code pods/{name}/status}). Called from the worker's actor, only when the status changed; an
 * implementation must not block (hand the value to an actor).
 */
public interface StatusSink {

    /**
     * @param namespace the pod's namespace
     * @param name the pod's name
     * @param uid the pod's uid (a write must be guarded by it)
     * @param status the pod's whole {@code status}; the sink owns it from now on
     */
    void podStatus(String namespace, String name, String uid, ObjectNode status);
}
