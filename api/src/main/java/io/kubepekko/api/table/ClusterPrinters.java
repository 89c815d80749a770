package io.kubepekko.api.table;

import java.util.Map;

/** The Table printers of the networking.k8s.io, policy, rbac.authorization.k8s.io, storage.k8s.io, scheduling.k8s.io and coordination.k8s.io kinds. */
final class ClusterPrinters {
    private ClusterPrinters() {}

    static final Map<String, TablePrinter> ALL = Map.of();
}
