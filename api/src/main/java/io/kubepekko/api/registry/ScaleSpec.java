package io.kubepekko.api.registry;

/**
 * Where a kind keeps the values its {@code /scale} subresource exposes as {@code autoscaling/v1
 * Scale}. Paths are dotted JSON paths into the object.
 *
 * @param specReplicasPath desired replicas, e.g. {@code spec.replicas}
 * @param statusReplicasPath observed replicas, e.g. {@code status.replicas}
 * @param selectorPath a {@code LabelSelector} object (built-ins: {@code spec.selector}) rendered as
 *     a string
 */
public record ScaleSpec(String specReplicasPath, String statusReplicasPath, String selectorPath) {
    public static final ScaleSpec WORKLOAD =
            new ScaleSpec("spec.replicas", "status.replicas", "spec.selector");
}
