package io.kubepekko.agent.probe;

/** The three probes of a container and how each starts and acts (pkg/kubelet/prober/worker.go). */
public enum ProbeKind {
    /** Failing restarts the container; assumed passing until it fails. */
    LIVENESS("livenessProbe", ProbeResult.SUCCESS),
    /** Decides {@code ready}; assumed failing until it passes. */
    READINESS("readinessProbe", ProbeResult.FAILURE),
    /**
     * Holds the other two back until it passes; failing restarts the container; unknown until it
     * runs.
     */
    STARTUP("startupProbe", ProbeResult.UNKNOWN);

    private final String field;
    private final ProbeResult initial;

    ProbeKind(String field, ProbeResult initial) {
        this.field = field;
        this.initial = initial;
    }

    /** The container's field holding this probe. */
    public String field() {
        return field;
    }

    /** The result reported for a new container before any probe ran. */
    public ProbeResult initial() {
        return initial;
    }

    /** Whether a failure (past the threshold) restarts the container. */
    public boolean restartsOnFailure() {
        return this != READINESS;
    }
}
