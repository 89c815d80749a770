package io.kubepekko.agent.manifest;

/**
 * A manifest the agent cannot run: which one and why. It only keeps the pods of that manifest from running;
 * the other manifests of the same source run.
 */
public record ManifestError(ManifestOrigin origin, String reason) {
    @Override
    public String toString() {
        return origin + ": " + reason;
    }
}
