package io.kubepekko.e2e.support;

/** YAML manifests the kubectl tests write again and again. */
public final class Manifests {
    private Manifests() {}

    /** A ConfigMap {@code name} in {@code namespace} holding {@code key: value}. */
    public static String configMap(String namespace, String name, String value) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                  namespace: %s
                data:
                  key: %s
                """
                .formatted(name, namespace, value);
    }
}
