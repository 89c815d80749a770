package io.kubepekko.actors.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An informer's objects by namespace and name, each kept as the bytes of the fields read from it
 * and parsed again when looked at. A controller that must remember every pod (100,000 of them, say)
 * but looks at few at a time keeps a few hundred bytes per pod this way instead of a tree of dozens
 * of nodes. Not thread-safe: an actor's state.
 */
final class CompactObjects {
    private final Map<String, Map<String, byte[]>> byNamespace = new HashMap<>();

    /** Remembers {@code object} (replacing what was kept under its namespace and name). */
    void put(ObjectNode object) {
        byNamespace
                .computeIfAbsent(ObjectMeta.namespace(object), n -> new HashMap<>())
                .put(ObjectMeta.name(object), Json.bytes(object));
    }

    /** Forgets the object under {@code namespace} and {@code name}, if any. */
    void remove(String namespace, String name) {
        Map<String, byte[]> inNamespace = byNamespace.get(namespace);
        if (inNamespace != null && inNamespace.remove(name) != null && inNamespace.isEmpty()) {
            byNamespace.remove(namespace);
        }
    }

    /** The object under {@code namespace} and {@code name}, parsed again. */
    Optional<ObjectNode> get(String namespace, String name) {
        Map<String, byte[]> inNamespace = byNamespace.get(namespace);
        byte[] kept = inNamespace == null ? null : inNamespace.get(name);
        return kept == null ? Optional.empty() : Optional.of(Json.parseTrusted(kept));
    }

    /** Every object of {@code namespace}, parsed again. */
    List<JsonNode> inNamespace(String namespace) {
        Map<String, byte[]> inNamespace = byNamespace.get(namespace);
        if (inNamespace == null) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>(inNamespace.size());
        for (byte[] kept : inNamespace.values()) {
            out.add(Json.parseTrusted(kept));
        }
        return out;
    }

    void clear() {
        byNamespace.clear();
    }
}
