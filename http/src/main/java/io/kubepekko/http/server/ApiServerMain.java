package io.kubepekko.http.server;

import io.kubepekko.http.route.DocumentHandler;

/** Entry point of {@code cluster-config/bin/apiserver}. */
public final class ApiServerMain {
    private ApiServerMain() {}

    public static void main(String[] args) throws Exception {
        ApiServerFlags.Parsed parsed;
        try {
            parsed = ApiServerFlags.parse(args);
        } catch (ApiServerFlags.UsageException e) {
            System.err.println("Error: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (parsed.help()) {
            System.out.print(ApiServerFlags.USAGE);
            return;
        }
        if (parsed.version()) {
            System.out.println(
                    "kubepekko "
                            + version()
                            + " (Kubernetes "
                            + DocumentHandler.KUBERNETES_VERSION
                            + ")");
            return;
        }
        // Before anything logs, so the whole run has one format.
        parsed.logging().apply();
        parsed.warnings().forEach(System.err::println);
        ApiServer server = ApiServer.start(parsed.settings());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kubepekko-shutdown"));
        server.whenTerminated().toCompletableFuture().join();
        if (!server.closing()) {
            // The cluster downed or removed this node and its actor system stopped: nothing is
            // served any
            // more. Exiting (rather than idling on) lets the supervisor see it and start a fresh
            // server,
            // which joins the cluster again.
            System.err.println(
                    "kubepekko apiserver: this node was removed from the cluster and has stopped; exiting");
            System.exit(EXIT_REMOVED_FROM_CLUSTER);
        }
    }

    /** The exit code of a server that stopped because the cluster downed or removed it. */
    static final int EXIT_REMOVED_FROM_CLUSTER = 1;

    static String version() {
        String v = ApiServerMain.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
