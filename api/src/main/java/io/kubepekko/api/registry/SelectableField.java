package io.kubepekko.api.registry;

/**
 * One field-selector label a kind accepts beyond {@code metadata.name} and {@code
 * metadata.namespace}, and where its value comes from. A label is normally the dotted JSON path of
 * its value; the few where Kubernetes differs (its {@code ...ToSelectableFields} functions) name
 * another path or report a value for an absent field.
 *
 * @param label the label clients send ({@code status.successful})
 * @param path the dotted JSON path the value is read from ({@code status.succeeded})
 * @param absent the text the label has when the field is absent ({@code "0"} for a count, {@code
 *     "false"} for a formatted bool, empty otherwise)
 */
public record SelectableField(String label, String path, String absent) {

    /** A label that is its own path and reads empty when absent. */
    public static SelectableField of(String label) {
        return new SelectableField(label, label, "");
    }
}
