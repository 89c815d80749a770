package io.kubepekko.agent.manifest;

/**
 * Where a static pod manifest was read: a file (one of {@code --pod-manifest-path}) or {@code --manifest-url}.
 *
 * @param kind     the source kind; its {@link Kind#configSource()} is the {@code kubernetes.io/config.source} annotation
 * @param location the file's path or the URL, as the kubelet hashes it into the pod's uid
 */
public record ManifestOrigin(Kind kind, String location) {

    /** The static pod sources this agent reads. */
    public enum Kind {
        FILE("file"), HTTP("http");

        private final String configSource;

        Kind(String configSource) {
            this.configSource = configSource;
        }

        /** The value of {@code kubernetes.io/config.source} for pods of this kind. */
        public String configSource() {
            return configSource;
        }
    }

    public static ManifestOrigin file(java.nio.file.Path path) {
        return new ManifestOrigin(Kind.FILE, path.toString());
    }

    public static ManifestOrigin url(java.net.URI url) {
        return new ManifestOrigin(Kind.HTTP, url.toString());
    }

    @Override
    public String toString() {
        return kind.configSource() + " " + location;
    }
}
