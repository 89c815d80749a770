package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Every pod a static source holds now (the kubelet's {@code SET} update): a pod of this source not
 * in it is to be stopped. A source that could not be read sends nothing (its pods keep running), as
 * the kubelet's sources do.
 *
 * @param source the source kind ({@code file} or {@code http})
 * @param pods its pods, defaulted ({@link StaticPodManifests})
 */
public record StaticPodSet(ManifestOrigin.Kind source, List<ObjectNode> pods) {
    public StaticPodSet {
        pods = List.copyOf(pods);
    }
}
