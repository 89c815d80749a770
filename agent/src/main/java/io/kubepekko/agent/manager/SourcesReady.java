package io.kubepekko.agent.manager;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Which pod sources have told their pods at least once (the kubelet's {@code sourcesReady}): what
 * the node holds of pods no source knows is removed only once every source was heard from, so a
 * source read late does not lose its pods.
 */
final class SourcesReady {
    private final Set<Object> unseen;
    private boolean ready;

    /**
     * {@code sources}: the API's pods, each static source's kind; none means ready at the first
     * {@link #seen}.
     */
    SourcesReady(Collection<?> sources) {
        this.unseen = new HashSet<>(sources);
    }

    /**
     * {@code source} was heard from (null: none, only to check). True exactly once: on the call
     * that leaves no source unseen.
     */
    boolean seen(Object source) {
        unseen.remove(source);
        if (unseen.isEmpty() && !ready) {
            ready = true;
            return true;
        }
        return false;
    }
}
