package io.kubepekko.http;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How an API server runs, read once from its flags.
 *
 * @param dataDir            where the embedded database and {@code admin.kubeconfig} live
 * @param bindAddress        the address the HTTP listener binds
 * @param port               the plain-HTTP port; 0 picks a free one
 * @param livezGracePeriod   how long after start /livez treats unfinished start-up as passing
 * @param shutdownDelay      how long the server keeps serving, with /readyz failing, after a shutdown starts
 */
public record ApiServerSettings(Path dataDir, String bindAddress, int port, Duration livezGracePeriod,
                                Duration shutdownDelay) {

    public static ApiServerSettings defaults() {
        return new ApiServerSettings(Path.of("data"), "127.0.0.1", 8080, Duration.ZERO, Duration.ZERO);
    }

    public ApiServerSettings withDataDir(Path dir) {
        return new ApiServerSettings(dir, bindAddress, port, livezGracePeriod, shutdownDelay);
    }

    public ApiServerSettings withPort(int p) {
        return new ApiServerSettings(dataDir, bindAddress, p, livezGracePeriod, shutdownDelay);
    }
}
