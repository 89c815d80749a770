package io.kubepekko.api.validation;

/**
 * A field path as Kubernetes prints it in validation errors ({@code spec.containers[0].name},
 * {@code data[bad key]}). Immutable; each step returns a new path.
 */
public final class FieldPath {
    private final String text;

    private FieldPath(String text) {
        this.text = text;
    }

    /** A path starting at {@code name}; {@code of("")} prints as {@code []}, the whole object. */
    public static FieldPath of(String name) {
        return new FieldPath(name.isEmpty() ? "[]" : name);
    }

    /** {@code a.b.c} from several names. */
    public static FieldPath of(String first, String... more) {
        FieldPath p = of(first);
        for (String m : more) {
            p = p.child(m);
        }
        return p;
    }

    public FieldPath child(String name) {
        return new FieldPath(text + "." + name);
    }

    public FieldPath child(String name, String... more) {
        FieldPath p = child(name);
        for (String m : more) {
            p = p.child(m);
        }
        return p;
    }

    public FieldPath index(int i) {
        return new FieldPath(text + "[" + i + "]");
    }

    /** A map key, printed unquoted as Kubernetes does: {@code labels[app]}. */
    public FieldPath key(String key) {
        return new FieldPath(text + "[" + key + "]");
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldPath p && p.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }
}
