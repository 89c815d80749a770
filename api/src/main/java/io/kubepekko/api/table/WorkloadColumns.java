package io.kubepekko.api.table;

/**
 * Columns and descriptions the workload printers share. The descriptions are those kube-apiserver
 * sends: mostly the API documentation of the fields shown, taken (as Kubernetes does) from the
 * {@code extensions/v1beta1} and {@code batch/v1beta1} types where its printers name those.
 */
final class WorkloadColumns {
    private WorkloadColumns() {}

    static final Column AGE = Column.string("Age", Descriptions.CREATION_TIMESTAMP);

    static final Column CONTAINERS =
            Column.string("Containers", "Names of each container in the template.").wide();

    static final Column IMAGES =
            Column.string("Images", "Images referenced by each container in the template.").wide();

    /** The {@code ready/desired} column of Deployments and StatefulSets. */
    static final Column READY_PODS = Column.string("Ready", "Number of the pod with ready state");

    static final String DAEMON_SET_INFO =
            " More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/";

    static final String LABEL_SELECTORS_INFO =
            " More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";

    static final String REPLICA_SET_INFO =
            " More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset";
}
