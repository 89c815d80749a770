package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The annotations the kubelet puts on static pods and their mirror pods ({@code
 * pkg/kubelet/types}).
 */
public final class StaticPodAnnotations {
    private StaticPodAnnotations() {}

    /** The static pod's hash (its uid); on the mirror, the same value. */
    public static final String CONFIG_HASH = "kubernetes.io/config.hash";

    /**
     * {@code file}, {@code http} or {@code server} ({@link ManifestOrigin.Kind#configSource()}).
     */
    public static final String CONFIG_SOURCE = "kubernetes.io/config.source";

    /** When the agent first saw the pod (RFC 3339 with nanoseconds). */
    public static final String CONFIG_SEEN = "kubernetes.io/config.seen";

    /** On a mirror pod only: the hash of the static pod it mirrors. */
    public static final String CONFIG_MIRROR = "kubernetes.io/config.mirror";

    /**
     * Whether {@code pod} is a mirror pod (it belongs to a static pod: the API source never runs
     * it).
     */
    public static boolean isMirror(JsonNode pod) {
        return pod.path("metadata").path("annotations").has(CONFIG_MIRROR);
    }

    /** The static pod hash a mirror pod mirrors, "" when {@code pod} is no mirror. */
    public static String mirrorHash(JsonNode pod) {
        return pod.path("metadata").path("annotations").path(CONFIG_MIRROR).asText("");
    }

    /**
     * Whether {@code pod} is a static pod (from a file, a URL or posted to the agent; not from the
     * API).
     */
    public static boolean isStatic(JsonNode pod) {
        String source = pod.path("metadata").path("annotations").path(CONFIG_SOURCE).asText("");
        for (ManifestOrigin.Kind kind : ManifestOrigin.Kind.values()) {
            if (kind.configSource().equals(source)) {
                return true;
            }
        }
        return false;
    }
}
