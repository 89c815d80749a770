package io.kubepekko.api.table;

import io.kubepekko.api.status.ApiStatus;

/** What each Table row carries besides its cells: the {@code includeObject} query parameter. */
public enum IncludeObject {
    /** No object. */
    NONE,
    /** The object's metadata as a PartialObjectMetadata (the default). */
    METADATA,
    /** The whole object. */
    OBJECT;

    /**
     * Parses the parameter as kube-apiserver does: absent or empty means {@link #METADATA}; any
     * other value than {@code None}, {@code Metadata} or {@code Object} is a 400.
     */
    public static IncludeObject parse(String value) {
        if (value == null || value.isEmpty()) {
            return METADATA;
        }
        return switch (value) {
            case "None" -> NONE;
            case "Metadata" -> METADATA;
            case "Object" -> OBJECT;
            default ->
                    throw ApiStatus.badRequest(
                                    "unrecognized includeObject value: \"" + value + "\"")
                            .exception();
        };
    }
}
