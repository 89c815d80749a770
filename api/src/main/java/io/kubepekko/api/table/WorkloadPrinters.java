package io.kubepekko.api.table;

import java.util.Map;

/** The Table printers of the apps/v1 and batch/v1 kinds (keys "apps/Kind", "batch/Kind"). */
final class WorkloadPrinters {
    private WorkloadPrinters() {}

    static final Map<String, TablePrinter> ALL = Map.of(
            "apps/Deployment", new DeploymentPrinter(),
            "apps/ReplicaSet", new ReplicaSetPrinter(),
            "apps/StatefulSet", new StatefulSetPrinter(),
            "apps/DaemonSet", new DaemonSetPrinter(),
            "batch/Job", new JobPrinter(),
            "batch/CronJob", new CronJobPrinter());
}
