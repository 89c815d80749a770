package io.kubepekko.api.protobuf;

/**
 * One field of a message definition: its number on the wire, its JSON name, and its type.
 *
 * @param type a scalar ({@code string}, {@code bytes}, {@code bool}, {@code int32}, {@code int64},
 *     {@code double}) or a message name, resolved to a qualified name ({@code meta.ObjectMeta})
 * @param repeated a JSON array of {@code type}
 * @param mapValue for a {@code map<string,V>}: V (scalar or qualified message); null otherwise
 * @param presence whether the field's presence is significant (a Go pointer): its zero value is
 *     kept. Other scalar fields are always written by Kubernetes' clients, so their zero value
 *     means "unset" and is left out of the JSON, as the JSON field's {@code omitempty} does
 * @param inline a Go struct embedded with {@code json:",inline"}: a field of its own on the wire,
 *     but its fields are the enclosing object's in JSON (e.g. a Volume's VolumeSource)
 */
public record ProtoField(
        int number,
        String jsonName,
        String type,
        boolean repeated,
        String mapValue,
        boolean presence,
        boolean inline) {

    static boolean isScalar(String type) {
        return switch (type) {
            case "string", "bytes", "bool", "int32", "int64", "double" -> true;
            default -> false;
        };
    }

    public boolean isMap() {
        return mapValue != null;
    }
}
