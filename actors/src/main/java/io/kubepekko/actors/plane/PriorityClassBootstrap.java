package io.kubepekko.actors.plane;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.priority.SystemPriorityClasses;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.api.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * kube-apiserver's {@code scheduling/bootstrap-system-priority-classes} post-start hook: each
 * built-in PriorityClass ({@link SystemPriorityClasses}) is created when missing and left as it is
 * when present (another start, or another server of the cluster, made it). Nothing when
 * PriorityClasses are not served.
 */
final class PriorityClassBootstrap {

    private PriorityClassBootstrap() {}

    static final GroupResource PRIORITY_CLASSES =
            new GroupResource("scheduling.k8s.io", "priorityclasses");

    /** Completes when both classes exist; fails with a refusal other than 409. */
    static CompletionStage<Void> create(ControlPlane controlPlane) {
        Optional<ResourceType> type = controlPlane.registry().find(PRIORITY_CLASSES);
        if (type.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Void>> creates = new ArrayList<>();
        for (ObjectNode pc : SystemPriorityClasses.objects()) {
            creates.add(
                    controlPlane
                            .write(type.get(), "", new WriteOp.Create(pc, WriteOptions.DEFAULT))
                            .thenAccept(PriorityClassBootstrap::createdOrThere)
                            .toCompletableFuture());
        }
        return CompletableFuture.allOf(creates.toArray(CompletableFuture[]::new));
    }

    private static void createdOrThere(WriteResult result) {
        if (result instanceof WriteResult.Refused refused && refused.status().code() != 409) {
            throw refused.status().exception();
        }
    }
}
