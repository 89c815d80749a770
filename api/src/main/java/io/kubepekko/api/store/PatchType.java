package io.kubepekko.api.store;

import java.util.Optional;

/** The patch formats a PATCH request can carry, by their Content-Type. */
public enum PatchType {
    JSON_PATCH("application/json-patch+json"),
    MERGE_PATCH("application/merge-patch+json"),
    STRATEGIC_MERGE_PATCH("application/strategic-merge-patch+json"),
    APPLY_PATCH("application/apply-patch+yaml");

    public final String mediaType;

    PatchType(String mediaType) {
        this.mediaType = mediaType;
    }

    public static Optional<PatchType> fromMediaType(String mediaType) {
        for (PatchType t : values()) {
            if (t.mediaType.equalsIgnoreCase(mediaType)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
