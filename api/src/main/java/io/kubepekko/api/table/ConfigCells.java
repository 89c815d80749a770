package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Field reads shared by the configuration and storage printers. Each answers what kube's printer
 * shows for an unset field, and treats a field of an unexpected JSON type as unset.
 */
final class ConfigCells {
    private ConfigCells() {}

    /** The Age column as every built-in printer declares it. */
    static final Column AGE = Column.string("Age", Descriptions.CREATION_TIMESTAMP);

    /**
     * The annotation that named a volume's class before {@code storageClassName}; it still wins.
     */
    static final String BETA_STORAGE_CLASS = "volume.beta.kubernetes.io/storage-class";

    /** A string field's value, or empty when it is missing or not a string (Go's zero string). */
    static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.asText() : "";
    }

    /** Whether a field is present with a value: a Go pointer that is not nil. */
    static boolean isSet(JsonNode node) {
        return node != null && !node.isMissingNode() && !node.isNull();
    }

    /** The number of entries of a map field; 0 when it is missing or not an object. */
    static long size(JsonNode map) {
        return map != null && map.isObject() ? map.size() : 0;
    }

    /** The object's name. */
    static String name(JsonNode object) {
        return text(object.path("metadata").get("name"));
    }

    /** Whether the object is being deleted ({@code metadata.deletionTimestamp} set). */
    static boolean deleting(JsonNode object) {
        return isSet(object.path("metadata").get("deletionTimestamp"));
    }

    /**
     * Access modes in kube's short form, always in the order RWO, ROX, RWX, RWOP whatever their
     * order in the list, each once; unknown modes are left out.
     */
    static String accessModes(JsonNode modes) {
        List<String> present = new ArrayList<>();
        if (modes != null && modes.isArray()) {
            modes.forEach(m -> present.add(text(m)));
        }
        List<String> shown = new ArrayList<>();
        if (present.contains("ReadWriteOnce")) {
            shown.add("RWO");
        }
        if (present.contains("ReadOnlyMany")) {
            shown.add("ROX");
        }
        if (present.contains("ReadWriteMany")) {
            shown.add("RWX");
        }
        if (present.contains("ReadWriteOncePod")) {
            shown.add("RWOP");
        }
        return String.join(",", shown);
    }

    /** The beta storage-class annotation if the object carries it (even empty), else null. */
    static String betaStorageClass(JsonNode object) {
        JsonNode annotations = object.path("metadata").path("annotations");
        return annotations.has(BETA_STORAGE_CLASS)
                ? text(annotations.get(BETA_STORAGE_CLASS))
                : null;
    }

    /** The value of an optional string field, or {@code <unset>} when it is absent or null. */
    static String orUnset(JsonNode node) {
        return isSet(node) ? text(node) : "<unset>";
    }
}
