package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;
import java.util.Optional;

/**
 * The uid and/or resourceVersion an object must have for a write to apply ({@code
 * DeleteOptions.preconditions}, or a Binding's metadata); null: no condition.
 */
public record Preconditions(String uid, String resourceVersion) {
    public static final Preconditions NONE = new Preconditions(null, null);

    /**
     * What {@code existing} fails of these, in storage's words and order ({@code
     * storage.Preconditions.Check}: the uid first), if anything.
     */
    public Optional<String> violatedBy(ObjectNode existing) {
        String have = orEmpty(ObjectMeta.uid(existing));
        if (uid != null && !uid.equals(have)) {
            return Optional.of("UID in precondition: " + uid + ", UID in object meta: " + have);
        }
        String version = orEmpty(ObjectMeta.resourceVersion(existing));
        if (resourceVersion != null && !resourceVersion.equals(version)) {
            return Optional.of(
                    "ResourceVersion in precondition: "
                            + resourceVersion
                            + ", ResourceVersion in object meta: "
                            + version);
        }
        return Optional.empty();
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
