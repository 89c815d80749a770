package io.kubepekko.api.protobuf;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** One message definition: its qualified name ({@code core.v1.ConfigMap}) and fields by number. */
public final class ProtoMessage {
    private final String name;
    private final TreeMap<Integer, ProtoField> byNumber = new TreeMap<>();
    private final Map<String, ProtoField> byJsonName = new HashMap<>();

    ProtoMessage(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    void add(ProtoField field) {
        if (byNumber.putIfAbsent(field.number(), field) != null) {
            throw new IllegalArgumentException(
                    name + ": field number " + field.number() + " defined twice");
        }
        if (byJsonName.putIfAbsent(field.jsonName(), field) != null) {
            throw new IllegalArgumentException(
                    name + ": field " + field.jsonName() + " defined twice");
        }
    }

    /** The field with this wire number, or null. */
    public ProtoField field(int number) {
        return byNumber.get(number);
    }

    /** The field with this JSON name, or null. */
    public ProtoField field(String jsonName) {
        return byJsonName.get(jsonName);
    }

    /** The fields in number order (the order Kubernetes' clients write them). */
    public Collection<ProtoField> fields() {
        return byNumber.values();
    }
}
