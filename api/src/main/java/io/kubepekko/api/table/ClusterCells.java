package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.selector.LabelSelector;

/**
 * Cell helpers shared by the cluster-family printers. They read stored JSON the way Go decodes it
 * into Kubernetes' types: an absent or null field is the zero value (or a nil pointer, for which
 * the printers substitute their own text), and a field of the wrong type never throws.
 */
final class ClusterCells {
    private ClusterCells() {}

    /** The Age column every cluster-family printer shows. */
    static final Column AGE = Column.string("Age", Descriptions.CREATION_TIMESTAMP);

    /** {@code metadata.name}, empty when unset. */
    static String name(JsonNode object) {
        return text(object.path("metadata").path("name"), "");
    }

    /** A string field, or {@code whenUnset} when it is absent, null or not a string. */
    static String text(JsonNode node, String whenUnset) {
        return node != null && node.isTextual() ? node.textValue() : whenUnset;
    }

    /** An integer field as the int64 kube emits; 0 when absent or not a number. */
    static long int64(JsonNode node) {
        return node != null && node.isNumber() ? node.asLong() : 0L;
    }

    /** A boolean field; false when absent or not a boolean. */
    static boolean bool(JsonNode node) {
        return node != null && node.isBoolean() && node.booleanValue();
    }

    /**
     * An {@code intstr.IntOrString} as its {@code String()} prints it (the number, or the string
     * such as {@code 50%}); {@code whenUnset} for a nil pointer.
     */
    static String intOrString(JsonNode node, String whenUnset) {
        if (node == null) {
            return whenUnset;
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isNumber()) {
            // Go's decoder rejects a fraction here; its integer part is the closest thing to print.
            return Long.toString(node.asLong());
        }
        return whenUnset;
    }

    /**
     * A {@code metav1.LabelSelector} in kube's string form ({@code app=x,tier in (a,b)}), with
     * {@code <none>} when it selects everything and {@code <error>} when it is invalid, as {@code
     * metav1.FormatLabelSelector} prints it.
     */
    static String labelSelector(JsonNode selector) {
        // A missing field is Go's zero-valued struct (everything) where the shared parser reads the
        // nil pointer (nothing): both print as <none>, so the distinction does not reach the cell.
        return LabelSelector.format(selector);
    }
}
