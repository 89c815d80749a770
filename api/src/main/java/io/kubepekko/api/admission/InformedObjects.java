package io.kubepekko.api.admission;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects of one cluster-scoped resource as an admission plugin reads them (kube's informer
 * lister): fed by an informer (a relist replaces all, each change puts or removes one) and read
 * inside writes without waiting. Reads see an immutable snapshot, replaced whole on each change:
 * the resources kept here (PriorityClasses, StorageClasses) are few and change rarely.
 */
public final class InformedObjects implements InformedIndex {

    private final String what;
    private volatile Map<String, JsonNode> byName = Map.of();
    private volatile boolean listed;

    /**
     * @param what the objects' plural, lower case, for {@link #readiness} ("priority classes")
     */
    public InformedObjects(String what) {
        this.what = what;
    }

    /** The object named {@code name}, if the informer has seen it. */
    public Optional<JsonNode> get(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Every object the informer has seen, in no particular order. */
    public Collection<JsonNode> all() {
        return byName.values();
    }

    /** A relist: what is listed now is all there is. */
    @Override
    public synchronized void replace(List<? extends JsonNode> objects) {
        Map<String, JsonNode> fresh = new HashMap<>();
        for (JsonNode object : objects) {
            fresh.put(name(object), object);
        }
        byName = Map.copyOf(fresh);
        listed = true;
    }

    /** An object added or changed. */
    @Override
    public synchronized void put(JsonNode object) {
        Map<String, JsonNode> next = new HashMap<>(byName);
        next.put(name(object), object);
        byName = Map.copyOf(next);
    }

    /** An object deleted. */
    @Override
    public synchronized void remove(JsonNode object) {
        Map<String, JsonNode> next = new HashMap<>(byName);
        next.remove(name(object));
        byName = Map.copyOf(next);
    }

    /**
     * Empty once the objects were listed; until then why not (kube's plugins are not ready until
     * their informer has synced).
     */
    public Optional<String> readiness() {
        return listed ? Optional.empty() : Optional.of(what + " not listed yet");
    }

    /** For tests: listed, with {@code objects} in it. */
    public static InformedObjects of(String what, List<? extends JsonNode> objects) {
        InformedObjects index = new InformedObjects(what);
        index.replace(objects);
        return index;
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }
}
