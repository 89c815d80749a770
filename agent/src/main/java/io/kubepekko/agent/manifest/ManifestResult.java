package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one manifest (one file, or one URL's body) gave: its pods, defaulted, or why it gave none.
 */
public sealed interface ManifestResult {

    /** The manifest's pods, each defaulted as a static pod of this node. */
    record Pods(List<ObjectNode> pods) implements ManifestResult {
        public Pods {
            pods = List.copyOf(pods);
        }
    }

    record Invalid(ManifestError error) implements ManifestResult {}
}
