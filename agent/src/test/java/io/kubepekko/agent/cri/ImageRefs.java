package io.kubepekko.agent.cri;

/**
 * Docker-style image reference normalisation as containerd applies it before looking an image up:
 * {@code busybox:1.36} is {@code docker.io/library/busybox:1.36}, a reference without tag or digest
 * means {@code :latest}.
 */
final class ImageRefs {

    private ImageRefs() {}

    static String normalize(String ref) {
        String domain;
        String remainder;
        int slash = ref.indexOf('/');
        String first = slash < 0 ? "" : ref.substring(0, slash);
        if (slash >= 0
                && (first.contains(".") || first.contains(":") || first.equals("localhost"))) {
            domain = first;
            remainder = ref.substring(slash + 1);
        } else {
            domain = "docker.io";
            remainder = ref;
        }
        if (domain.equals("docker.io") && !remainder.contains("/")) {
            remainder = "library/" + remainder;
        }
        boolean hasDigest = remainder.contains("@");
        String beforeDigest =
                hasDigest ? remainder.substring(0, remainder.indexOf('@')) : remainder;
        boolean hasTag = beforeDigest.lastIndexOf(':') > beforeDigest.lastIndexOf('/');
        if (!hasTag && !hasDigest) {
            remainder = remainder + ":latest";
        }
        return domain + "/" + remainder;
    }

    /**
     * The repository part: {@code docker.io/library/busybox} for {@code
     * docker.io/library/busybox:1.36}.
     */
    static String repository(String normalized) {
        int at = normalized.indexOf('@');
        String name = at < 0 ? normalized : normalized.substring(0, at);
        int colon = name.lastIndexOf(':');
        return colon > name.lastIndexOf('/') ? name.substring(0, colon) : name;
    }

    /**
     * Where a pull of {@code normalized} would go first, for the registry error containerd reports.
     */
    static String registryHost(String normalized) {
        String domain = normalized.substring(0, normalized.indexOf('/'));
        return domain.equals("docker.io") ? "registry-1.docker.io" : domain;
    }
}
