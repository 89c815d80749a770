package io.kubepekko.agent.pleg;

import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One node-wide listing of the runtime (the kubelet's PLEG relist, pkg/kubelet/pleg/generic.go),
 * reduced to what tells whether a pod changed: per pod uid (its CRI label) each sandbox's and each
 * container's id and state. Sandboxes and containers without the label are not ours and are left
 * out.
 */
public record RuntimeListing(Map<String, PodRecord> pods) {

    public static final RuntimeListing EMPTY = new RuntimeListing(Map.of());

    public RuntimeListing {
        pods = Map.copyOf(pods);
    }

    /** What the runtime holds of one pod: sandbox id → state, container id → state. */
    public record PodRecord(
            Map<String, PodSandboxState> sandboxes, Map<String, ContainerState> containers) {
        public PodRecord {
            sandboxes = Map.copyOf(sandboxes);
            containers = Map.copyOf(containers);
        }
    }

    /** The listing of everything ListPodSandbox and ListContainers (without a filter) returned. */
    public static RuntimeListing of(List<PodSandbox> sandboxes, List<Container> containers) {
        Map<String, Map<String, PodSandboxState>> sandboxesByPod = new HashMap<>();
        for (PodSandbox s : sandboxes) {
            String uid = s.getLabelsOrDefault(SandboxConfigs.POD_UID_LABEL, "");
            if (!uid.isEmpty()) {
                sandboxesByPod
                        .computeIfAbsent(uid, k -> new HashMap<>())
                        .put(s.getId(), s.getState());
            }
        }
        Map<String, Map<String, ContainerState>> containersByPod = new HashMap<>();
        for (Container c : containers) {
            String uid = c.getLabelsOrDefault(SandboxConfigs.POD_UID_LABEL, "");
            if (!uid.isEmpty()) {
                containersByPod
                        .computeIfAbsent(uid, k -> new HashMap<>())
                        .put(c.getId(), c.getState());
            }
        }
        Set<String> uids = new HashSet<>(sandboxesByPod.keySet());
        uids.addAll(containersByPod.keySet());
        Map<String, PodRecord> pods = new HashMap<>();
        for (String uid : uids) {
            pods.put(
                    uid,
                    new PodRecord(
                            sandboxesByPod.getOrDefault(uid, Map.of()),
                            containersByPod.getOrDefault(uid, Map.of())));
        }
        return new RuntimeListing(pods);
    }

    /**
     * The pods whose sandboxes or containers differ from {@code previous}: one that appeared, went,
     * or has a sandbox or container created, removed or in another state (the kubelet's
     * per-container events, one per pod here since a worker relists its whole pod anyway).
     */
    public Set<String> changedSince(RuntimeListing previous) {
        Set<String> changed = new HashSet<>();
        pods.forEach(
                (uid, record) -> {
                    if (!record.equals(previous.pods.get(uid))) {
                        changed.add(uid);
                    }
                });
        previous.pods.keySet().stream().filter(uid -> !pods.containsKey(uid)).forEach(changed::add);
        return changed;
    }
}
