package io.kubepekko.api.table;

import java.util.Map;

/** The Table printers of the core/v1 workload-facing kinds: Pod, Node, Service, Endpoints, Event, Namespace (keys "/Kind"). */
final class CorePrinters {
    private CorePrinters() {}

    static final Map<String, TablePrinter> ALL = Map.of(
            "/Pod", PodPrinter.INSTANCE,
            "/Node", NodePrinter.INSTANCE,
            "/Service", ServicePrinter.INSTANCE,
            "/Endpoints", EndpointsPrinter.INSTANCE,
            "/Event", EventPrinter.INSTANCE,
            "/Namespace", NamespacePrinter.INSTANCE);
}
