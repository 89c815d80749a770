package io.kubepekko.agent.cri;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the container runtime listens: a unix domain socket, written {@code unix:///path/to/socket}
 * as the kubelet's {@code --container-runtime-endpoint} takes it.
 */
public record CriEndpoint(Path socket) {

    private static final String SCHEME = "unix://";

    public CriEndpoint {
        Objects.requireNonNull(socket, "socket");
        if (!socket.isAbsolute()) {
            throw new IllegalArgumentException(
                    "the runtime socket path must be absolute: " + socket);
        }
    }

    /**
     * Parses {@code unix:///absolute/path}.
     *
     * @throws IllegalArgumentException naming what is wrong, for a flag parser to report as it is
     */
    public static CriEndpoint parse(String endpoint) {
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalArgumentException("the container runtime endpoint is empty");
        }
        if (!endpoint.startsWith(SCHEME)) {
            // Only unix sockets: the kubelet on Linux accepts nothing else either (tcp:// was
            // removed).
            throw new IllegalArgumentException(
                    "container runtime endpoint \""
                            + endpoint
                            + "\": only unix:// endpoints are supported");
        }
        String path = endpoint.substring(SCHEME.length());
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException(
                    "container runtime endpoint \""
                            + endpoint
                            + "\": the socket path must be absolute (unix:///path)");
        }
        return new CriEndpoint(Path.of(path));
    }

    @Override
    public String toString() {
        return SCHEME + socket;
    }
}
