package io.kubepekko.api.registry;

/**
 * One field-selector label a kind accepts beyond {@code metadata.name} and {@code
 * metadata.namespace}, and where its value comes from. A label is normally the dotted JSON path of
 * its value; the few where Kubernetes differs (its {@code ...ToSelectableFields} functions) name
 * another path, a second path to read when the first is empty, or a value for an absent field.
 *
 * @param label the label clients send ({@code status.successful})
 * @param path the dotted JSON path the value is read from ({@code status.succeeded})
 * @param absent the text the label has when the field is absent ({@code "0"} for a count, {@code
 *     "false"} for a formatted bool, empty otherwise)
 * @param fallback the dotted JSON path read when {@code path} is absent or empty (an Event's {@code
 *     source} is its reporting controller when it has no source component), or null
 */
public record SelectableField(String label, String path, String absent, String fallback) {

    public SelectableField(String label, String path, String absent) {
        this(label, path, absent, null);
    }

    /** A label that is its own path and reads empty when absent. */
    public static SelectableField of(String label) {
        return new SelectableField(label, label, "");
    }
}
