package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The apps/v1 spec defaults Kubernetes fills and {@code kubectl diff} shows. */
public final class WorkloadDefaults {
    private WorkloadDefaults() {}

    public static void defaultDeploymentSpec(ObjectNode spec) {
        Nodes.defaultInt(spec, "replicas", 1);
        ObjectNode strategy = Nodes.obj(spec, "strategy");
        Nodes.defaultText(strategy, "type", "RollingUpdate");
        if (Nodes.text(strategy, "type").equals("RollingUpdate")) {
            ObjectNode rolling = Nodes.obj(strategy, "rollingUpdate");
            if (!Nodes.has(rolling, "maxUnavailable")) {
                rolling.put("maxUnavailable", "25%");
            }
            if (!Nodes.has(rolling, "maxSurge")) {
                rolling.put("maxSurge", "25%");
            }
        }
        Nodes.defaultInt(spec, "revisionHistoryLimit", 10);
        Nodes.defaultInt(spec, "progressDeadlineSeconds", 600);
    }

    public static void defaultReplicaSetSpec(ObjectNode spec) {
        Nodes.defaultInt(spec, "replicas", 1);
    }

    public static void defaultStatefulSetSpec(ObjectNode spec) {
        Nodes.defaultInt(spec, "replicas", 1);
        Nodes.defaultText(spec, "podManagementPolicy", "OrderedReady");
        ObjectNode strategy = Nodes.obj(spec, "updateStrategy");
        Nodes.defaultText(strategy, "type", "RollingUpdate");
        if (Nodes.text(strategy, "type").equals("RollingUpdate")) {
            Nodes.defaultInt(Nodes.obj(strategy, "rollingUpdate"), "partition", 0);
        }
        Nodes.defaultInt(spec, "revisionHistoryLimit", 10);
        ObjectNode retention = Nodes.obj(spec, "persistentVolumeClaimRetentionPolicy");
        Nodes.defaultText(retention, "whenDeleted", "Retain");
        Nodes.defaultText(retention, "whenScaled", "Retain");
    }

    public static void defaultDaemonSetSpec(ObjectNode spec) {
        ObjectNode strategy = Nodes.obj(spec, "updateStrategy");
        Nodes.defaultText(strategy, "type", "RollingUpdate");
        if (Nodes.text(strategy, "type").equals("RollingUpdate")) {
            ObjectNode rolling = Nodes.obj(strategy, "rollingUpdate");
            if (!Nodes.has(rolling, "maxUnavailable")) {
                rolling.put("maxUnavailable", 1);
            }
            if (!Nodes.has(rolling, "maxSurge")) {
                rolling.put("maxSurge", 0);
            }
        }
        Nodes.defaultInt(spec, "revisionHistoryLimit", 10);
    }
}
