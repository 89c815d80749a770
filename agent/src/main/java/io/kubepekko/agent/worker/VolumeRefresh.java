package io.kubepekko.agent.worker;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.VolumePlan;
import io.kubepekko.agent.runtime.VolumePlanner;
import io.kubepekko.agent.runtime.VolumeWriter;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * Writes a running pod's content volumes (configMap, secret, downwardAPI, projected) again from its
 * newest object and inputs, as the kubelet's volume manager remounts them ({@code RequiresRemount})
 * when it syncs the pod: each volume through {@link VolumeWriter}'s {@code ..data} swap, an
 * unchanged one left alone. Containers are not touched: their environment stays as it was built,
 * and subPath mounts are bound from copies made when they were prepared. A volume whose source is
 * gone (a non-optional ConfigMap or Secret deleted) keeps its last content and is logged, as a
 * failed {@code SetUpAt} leaves it. Refreshes of one pod run one after the other, in the order
 * asked.
 */
final class VolumeRefresh {

    private final NodeContext node;
    private final Executor blocking;
    private final Logger log;
    private final String uid;
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

    VolumeRefresh(NodeContext node, Executor blocking, Logger log, String uid) {
        this.node = node;
        this.blocking = blocking;
        this.log = log;
        this.uid = uid;
    }

    /**
     * Queues a refresh of {@code pod}'s content volumes for a sandbox with {@code podIps};
     * completes when written.
     */
    CompletionStage<Void> refresh(JsonNode pod, PodInputs inputs, List<String> podIps) {
        tail = tail.handle((v, t) -> null).thenRunAsync(() -> write(pod, inputs, podIps), blocking);
        return tail;
    }

    private void write(JsonNode pod, PodInputs inputs, List<String> podIps) {
        VolumePlanner.ContentRefresh plan = VolumePlanner.contentVolumes(pod, inputs, node, podIps);
        plan.failed()
                .forEach(
                        (name, why) ->
                                log.warn(
                                        "pod {} volume {} keeps its last content: {}",
                                        uid,
                                        name,
                                        why));
        for (VolumePlan.Content c : plan.volumes()) {
            try {
                VolumeWriter.writeAtomically(c.hostPath(), c.files());
            } catch (IOException e) {
                log.warn("pod {} volume {} could not be updated: {}", uid, c.name(), e.toString());
            }
        }
    }
}
