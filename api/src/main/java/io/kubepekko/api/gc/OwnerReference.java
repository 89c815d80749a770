package io.kubepekko.api.gc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code metadata.ownerReferences}: the owner's kind at a group-version, its name and
 * uid. It names no namespace: a namespaced owner lives in its dependent's namespace.
 */
public record OwnerReference(
        String apiVersion,
        String kind,
        String name,
        String uid,
        boolean controller,
        boolean blockOwnerDeletion) {

    /** The owner references of {@code obj}, in order; entries without a uid are skipped. */
    public static List<OwnerReference> of(ObjectNode obj) {
        List<OwnerReference> out = new ArrayList<>();
        for (JsonNode ref : obj.path("metadata").path("ownerReferences")) {
            String uid = ref.path("uid").asText("");
            if (uid.isEmpty()) {
                continue;
            }
            out.add(
                    new OwnerReference(
                            ref.path("apiVersion").asText(""),
                            ref.path("kind").asText(""),
                            ref.path("name").asText(""),
                            uid,
                            ref.path("controller").asBoolean(false),
                            ref.path("blockOwnerDeletion").asBoolean(false)));
        }
        return out;
    }
}
