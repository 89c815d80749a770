package io.kubepekko.api.admission.priority;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.List;

/**
 * kube's built-in PriorityClasses ({@code scheduling.SystemPriorityClasses}), which
 * kube-apiserver's {@code scheduling/bootstrap-system-priority-classes} post-start hook creates
 * when missing: the only classes whose name may start with {@code system-} and whose value may
 * exceed the highest user-definable priority.
 */
public final class SystemPriorityClasses {

    private SystemPriorityClasses() {}

    /** kube's {@code SystemCriticalPriority}: twice the highest user-definable priority. */
    public static final long SYSTEM_CRITICAL_PRIORITY = 2_000_000_000L;

    public static final String SYSTEM_NODE_CRITICAL = "system-node-critical";
    public static final String SYSTEM_CLUSTER_CRITICAL = "system-cluster-critical";

    /** The classes as the hook creates them (a fresh copy each call). */
    public static List<ObjectNode> objects() {
        return List.of(
                priorityClass(
                        SYSTEM_NODE_CRITICAL,
                        SYSTEM_CRITICAL_PRIORITY + 1000,
                        "Used for system critical pods that must not be moved from their current"
                                + " node."),
                priorityClass(
                        SYSTEM_CLUSTER_CRITICAL,
                        SYSTEM_CRITICAL_PRIORITY,
                        "Used for system critical pods that must run in the cluster, but can be"
                                + " moved to another node if necessary."));
    }

    private static ObjectNode priorityClass(String name, long value, String description) {
        ObjectNode pc = Json.MAPPER.createObjectNode();
        pc.put("apiVersion", "scheduling.k8s.io/v1").put("kind", "PriorityClass");
        pc.putObject("metadata").put("name", name);
        pc.put("value", value).put("globalDefault", false).put("description", description);
        return pc;
    }
}
