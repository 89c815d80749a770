package io.kubepekko.http;

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
            System.out.println("kubepekko " + version() + " (Kubernetes " + DocumentHandler.KUBERNETES_VERSION + ")");
            return;
        }
        ApiServer server = ApiServer.start(parsed.settings());
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kubepekko-shutdown"));
        Thread.currentThread().join();
    }

    static String version() {
        String v = ApiServerMain.class.getPackage().getImplementationVersion();
        return v == null ? "0.1.0-SNAPSHOT" : v;
    }
}
