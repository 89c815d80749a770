package io.kubepekko.agent.cri;

import io.kubepekko.agent.node.RuntimeFacts;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The node status's view of the runtime ({@link RuntimeFacts}), answered by CRI {@code Status},
 * {@code Version} and {@code ListImages}.
 */
public final class CriRuntimeFacts implements RuntimeFacts {
    private final CriRuntime runtime;

    public CriRuntimeFacts(CriRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public CompletionStage<List<Condition>> status() {
        return runtime.status()
                .thenApply(
                        r ->
                                r.getStatus().getConditionsList().stream()
                                        .map(
                                                c ->
                                                        new Condition(
                                                                c.getType(),
                                                                c.getStatus(),
                                                                c.getReason(),
                                                                c.getMessage()))
                                        .toList());
    }

    @Override
    public CompletionStage<Version> version() {
        return runtime.version()
                .thenApply(v -> new Version(v.getRuntimeName(), v.getRuntimeVersion()));
    }

    @Override
    public CompletionStage<List<RuntimeFacts.Image>> images() {
        return runtime.listImages()
                .thenApply(list -> list.stream().map(CriRuntimeFacts::image).toList());
    }

    // The CRI message, not RuntimeFacts.Image (which the inherited member name would mean here).
    private static RuntimeFacts.Image image(io.kubepekko.agent.cri.v1.Image i) {
        return new RuntimeFacts.Image(i.getRepoTagsList(), i.getRepoDigestsList(), i.getSize());
    }
}
