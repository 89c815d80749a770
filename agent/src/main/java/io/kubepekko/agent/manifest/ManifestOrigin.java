package io.kubepekko.agent.manifest;

import java.net.URI;
import java.nio.file.Path;

/**
 * Where a static pod manifest was read: a file (one of {@code --pod-manifest-path}), {@code
 * --manifest-url}, or a manifest posted to the agent's own server (stored under {@code
 * --root-dir}).
 *
 * @param kind the source kind; its {@link Kind#configSource()} is the {@code
 *     kubernetes.io/config.source} annotation
 * @param location the file's path or the URL, as the kubelet hashes it into the pod's uid; a posted
 *     manifest's name
 */
public record ManifestOrigin(Kind kind, String location) {

    /** The static pod sources this agent reads. */
    public enum Kind {
        FILE("file"),
        HTTP("http"),
        /**
         * Posted to the agent's own server. {@code server} is the value the kubelet gave the same
         * source ({@code kubetypes.ServerSource}, "updates received to the kubelet server") while
         * it had one; today's kubelet treats every value but {@code api} as static ({@code
         * IsStaticPod}), so clients see a static pod.
         */
        SERVER("server");

        private final String configSource;

        Kind(String configSource) {
            this.configSource = configSource;
        }

        /** The value of {@code kubernetes.io/config.source} for pods of this kind. */
        public String configSource() {
            return configSource;
        }
    }

    public static ManifestOrigin file(Path path) {
        return new ManifestOrigin(Kind.FILE, path.toString());
    }

    public static ManifestOrigin url(URI url) {
        return new ManifestOrigin(Kind.HTTP, url.toString());
    }

    /** The manifest posted under {@code name}. */
    public static ManifestOrigin posted(String name) {
        return new ManifestOrigin(Kind.SERVER, name);
    }

    @Override
    public String toString() {
        return kind.configSource() + " " + location;
    }
}
