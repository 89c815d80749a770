package io.kubepekko.api.table;

/**
 * One column of a Table ({@code meta.k8s.io} TableColumnDefinition). kubectl shows columns of
 * priority 0 always and the others only with {@code -o wide}.
 *
 * @param type an OpenAPI type: {@code string}, {@code integer}, {@code number}, {@code boolean}
 * @param format an OpenAPI format or a hint such as {@code name} or {@code date}; may be empty
 */
public record Column(String name, String type, String format, String description, int priority) {

    /** The Name column every built-in printer starts with. */
    public static final Column NAME = new Column("Name", "string", "name", Descriptions.NAME, 0);

    /** A string column shown always. */
    public static Column string(String name, String description) {
        return new Column(name, "string", "", description, 0);
    }

    /** An integer column shown always. */
    public static Column integer(String name, String description) {
        return new Column(name, "integer", "", description, 0);
    }

    /** This column, shown only in wide output. */
    public Column wide() {
        return new Column(name, type, format, description, 1);
    }
}
