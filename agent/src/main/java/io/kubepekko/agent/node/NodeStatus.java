package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The Node's status as the kubelet's setters compute it (pkg/kubelet/nodestatus/setters.go), from
 * the host's facts, the runtime's answers and the status the API server has now. Pure: the caller
 * brings the facts and the time.
 */
public final class NodeStatus {
    private NodeStatus() {}

    /** The kubelet's {@code maxImagesInNodeStatus} and {@code MaxNamesPerImageInNodeStatus}. */
    static final int MAX_IMAGES = 50;

    static final int MAX_NAMES_PER_IMAGE = 5;

    /**
     * The kubelet's default hard eviction thresholds, subtracted from capacity to give allocatable.
     */
    static final long MEMORY_EVICTION_BYTES = 100L * 1024 * 1024;

    static final float NODEFS_EVICTION_FRACTION = 0.1f;

    /**
     * What the agent knows besides the host: its settings and the runtime's last answers.
     *
     * @param nodeIps {@code --node-ip} values; empty: the host's addresses
     * @param maxPods {@code --max-pods}, the {@code pods} capacity
     * @param kubeletPort {@code daemonEndpoints.kubeletEndpoint.port}
     * @param agentVersion {@code nodeInfo.kubeletVersion}
     * @param runtimeVersion the runtime's version now; empty: unknown this time (the old value
     *     stays)
     * @param images the runtime's images now; empty: unknown this time (the old list stays)
     * @param notReadyErrors why the node is not ready (runtime down, …); empty when it is
     */
    public record Inputs(
            List<InetAddress> nodeIps,
            int maxPods,
            int kubeletPort,
            String agentVersion,
            Optional<RuntimeFacts.Version> runtimeVersion,
            Optional<List<RuntimeFacts.Image>> images,
            List<String> notReadyErrors) {
        public Inputs {
            nodeIps = List.copyOf(nodeIps);
            notReadyErrors = List.copyOf(notReadyErrors);
        }
    }

    /**
     * The new status: {@code current} with every field the agent owns set from {@code host}, {@code
     * in} and {@code now}.
     */
    public static ObjectNode compute(JsonNode current, HostFacts host, Inputs in, Instant now) {
        ObjectNode s =
                current instanceof ObjectNode o ? o.deepCopy() : Json.MAPPER.createObjectNode();

        ObjectNode capacity = s.putObject("capacity");
        capacity.put("cpu", Integer.toString(host.cpuCores()));
        capacity.put("ephemeral-storage", binarySi(host.ephemeralStorageBytes()));
        capacity.put("memory", binarySi(host.memoryBytes()));
        capacity.put("pods", Integer.toString(in.maxPods()));
        ObjectNode allocatable = s.putObject("allocatable");
        allocatable.put("cpu", Integer.toString(host.cpuCores()));
        long nodefsReserve =
                (long) ((double) NODEFS_EVICTION_FRACTION * host.ephemeralStorageBytes());
        allocatable.put(
                "ephemeral-storage",
                binarySi(Math.max(0, host.ephemeralStorageBytes() - nodefsReserve)));
        allocatable.put(
                "memory", binarySi(Math.max(0, host.memoryBytes() - MEMORY_EVICTION_BYTES)));
        allocatable.put("pods", Integer.toString(in.maxPods()));

        List<String> errors = new ArrayList<>(in.notReadyErrors());
        List<String> missing = new ArrayList<>();
        if (host.cpuCores() <= 0) {
            missing.add("cpu");
        }
        if (host.memoryBytes() <= 0) {
            missing.add("memory");
        }
        if (host.ephemeralStorageBytes() <= 0) {
            missing.add("ephemeral-storage");
        }
        if (!missing.isEmpty()) {
            errors.add("missing node capacity for resources: " + String.join(", ", missing));
        }
        s.set(
                "conditions",
                NodeConditions.update(
                        s.path("conditions"),
                        new NodeConditions.Inputs(errors, false, false, false),
                        now));

        ArrayNode addresses = s.putArray("addresses");
        for (InetAddress ip : in.nodeIps().isEmpty() ? host.internalIps() : in.nodeIps()) {
            addresses.addObject().put("type", "InternalIP").put("address", ip.getHostAddress());
        }
        addresses.addObject().put("type", "Hostname").put("address", host.hostname());

        s.putObject("daemonEndpoints").putObject("kubeletEndpoint").put("Port", in.kubeletPort());

        ObjectNode oldInfo =
                s.path("nodeInfo") instanceof ObjectNode o ? o : Json.MAPPER.createObjectNode();
        ObjectNode info = Json.MAPPER.createObjectNode();
        info.put("machineID", host.machineId());
        info.put("systemUUID", host.systemUuid());
        info.put("bootID", host.bootId());
        info.put("kernelVersion", host.kernelVersion());
        info.put("osImage", host.osImage());
        info.put(
                "containerRuntimeVersion",
                in.runtimeVersion()
                        .map(RuntimeFacts.Version::nodeInfoString)
                        .orElse(oldInfo.path("containerRuntimeVersion").asText("")));
        info.put("kubeletVersion", in.agentVersion());
        info.put("kubeProxyVersion", "");
        info.put("operatingSystem", host.operatingSystem());
        info.put("architecture", host.architecture());
        s.set("nodeInfo", info);

        in.images().ifPresent(images -> s.set("images", images(images)));
        return s;
    }

    /**
     * The images the kubelet reports: biggest first, at most 50, each with its digests then tags,
     * at most 5 names.
     */
    static ArrayNode images(List<RuntimeFacts.Image> images) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        images.stream()
                .sorted(Comparator.comparingLong(RuntimeFacts.Image::sizeBytes).reversed())
                .limit(MAX_IMAGES)
                .forEach(
                        i -> {
                            List<String> names = new ArrayList<>(i.repoDigests());
                            names.addAll(i.repoTags());
                            ObjectNode o = out.addObject();
                            ArrayNode n = o.putArray("names");
                            names.stream().limit(MAX_NAMES_PER_IMAGE).forEach(n::add);
                            o.put("sizeBytes", i.sizeBytes());
                        });
        return out;
    }

    /**
     * The kubelet's {@code nodeStatusHasChanged}: any difference but the conditions' heartbeat
     * times (conditions compared by type, whatever their order).
     */
    public static boolean hasChanged(JsonNode before, JsonNode after) {
        return !withoutHeartbeats(before).equals(SAME_NUMBER, withoutHeartbeats(after));
    }

    /**
     * Numbers by value: a status read back from the server has {@code int}s where the agent wrote
     * {@code long}s.
     */
    private static final Comparator<JsonNode> SAME_NUMBER =
            (a, b) -> {
                if (a.isNumber() && b.isNumber()) {
                    return a.decimalValue().compareTo(b.decimalValue());
                }
                return a.equals(b) ? 0 : 1;
            };

    private static JsonNode withoutHeartbeats(JsonNode status) {
        if (!(status instanceof ObjectNode o)) {
            return Json.MAPPER.createObjectNode();
        }
        ObjectNode copy = o.deepCopy();
        List<ObjectNode> conditions = new ArrayList<>();
        for (JsonNode c : o.path("conditions")) {
            if (c instanceof ObjectNode co) {
                ObjectNode cc = co.deepCopy();
                cc.remove("lastHeartbeatTime");
                conditions.add(cc);
            }
        }
        conditions.sort(Comparator.comparing(c -> c.path("type").asText()));
        ArrayNode sorted = copy.putArray("conditions");
        conditions.forEach(sorted::add);
        return copy;
    }

    /**
     * The strategic merge patch of {@code nodes/{name}/status} that writes {@code status}'s
     * agent-owned fields: conditions merge by type (others' conditions stay), addresses are
     * replaced whole (the kubelet's {@code $patch: replace} fix-up: their merge key {@code type} is
     * not unique).
     */
    public static ObjectNode patch(ObjectNode status) {
        ObjectNode p = Json.MAPPER.createObjectNode();
        ObjectNode s = p.putObject("status");
        for (String f :
                List.of(
                        "capacity",
                        "allocatable",
                        "conditions",
                        "daemonEndpoints",
                        "nodeInfo",
                        "images")) {
            if (status.has(f)) {
                s.set(f, status.get(f).deepCopy());
            }
        }
        ArrayNode addresses = s.putArray("addresses");
        status.path("addresses").forEach(a -> addresses.add(a.deepCopy()));
        addresses.addObject().put("$patch", "replace");
        return p;
    }

    /**
     * A byte count as {@code resource.Quantity} prints a BinarySI value: with the largest binary
     * suffix (Ki, Mi, Gi, Ti, Pi, Ei) that divides it exactly, as a plain number when none does.
     */
    static String binarySi(long bytes) {
        String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
        long v = bytes;
        int i = 0;
        while (v != 0 && v % 1024 == 0 && i < suffixes.length - 1) {
            v /= 1024;
            i++;
        }
        return v + suffixes[i];
    }
}
