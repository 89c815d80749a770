package io.kubepekko.agent.node;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * What the node's status needs from the container runtime (CRI {@code Status}, {@code Version} and
 * {@code ListImages}); wired to the CRI client by the agent, faked in tests. A failed stage means
 * the runtime did not answer.
 */
public interface RuntimeFacts {

    /**
     * CRI {@code VersionResponse}: {@code runtime_name} (e.g. {@code containerd}) and {@code
     * runtime_version}.
     */
    record Version(String runtimeName, String runtimeVersion) {
        /** As {@code nodeInfo.containerRuntimeVersion}: {@code containerd://1.6.20}. */
        public String nodeInfoString() {
            return runtimeName + "://" + runtimeVersion;
        }
    }

    /** One image as CRI {@code ListImages} reports it. */
    record Image(List<String> repoTags, List<String> repoDigests, long sizeBytes) {
        public Image {
            repoTags = List.copyOf(repoTags);
            repoDigests = List.copyOf(repoDigests);
        }
    }

    /** One of CRI {@code RuntimeStatus.conditions} ({@code RuntimeReady}, {@code NetworkReady}). */
    record Condition(String type, boolean status, String reason, String message) {}

    /** CRI {@code Status}: the runtime's conditions. */
    CompletionStage<List<Condition>> status();

    CompletionStage<Version> version();

    CompletionStage<List<Image>> images();
}
