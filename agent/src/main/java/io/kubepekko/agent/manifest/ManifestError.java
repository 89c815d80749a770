package io.kubepekko.agent.manifest;

/**
 * A manifest the agent cannot run: which one and why. It only keeps the pods of that manifest from
 * running; the other manifests of the same source run.
 *
 * @param problem what kind of fault it is (a client posting the manifest is answered by it)
 */
public record ManifestError(ManifestOrigin origin, String reason, Problem problem) {

    /** What is wrong with a manifest. */
    public enum Problem {
        /** Neither YAML nor JSON. */
        MALFORMED,
        /** An object, but not a v1 Pod (or a list of them where lists are allowed). */
        NOT_A_POD,
        /** A Pod whose fields fail validation. */
        INVALID,
        /** Larger than the source's limit: not read at all. */
        TOO_LARGE
    }

    public ManifestError(ManifestOrigin origin, String reason) {
        this(origin, reason, Problem.INVALID);
    }

    @Override
    public String toString() {
        return origin + ": " + reason;
    }
}
