package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.InformedIndex;
import io.kubepekko.api.kinds.LimitRangeDefaults;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The LimitRanges of every namespace as LimitRanger reads them: fed by an informer (a relist
 * replaces all, each change puts or removes one) and read inside the writes of pods and claims
 * without waiting, as kube's plugin reads its informer's lister. Each LimitRange is parsed once,
 * when it comes in, with kube's defaults of its Container items applied (a LimitRange stored before
 * those defaults existed reads as kube would decode it).
 *
 * <p>Writes come from one informer actor; reads see an immutable snapshot, replaced whole on each
 * change (LimitRanges are few and change rarely).
 */
public final class LimitRangeIndex implements InformedIndex {

    /** A namespace's LimitRanges by name: their items. */
    private volatile Map<String, TreeMap<String, List<LimitRangeItem>>> byNamespace = Map.of();

    private volatile boolean listed;

    /** The items of each LimitRange in {@code namespace}, in the LimitRanges' name order. */
    List<List<LimitRangeItem>> inNamespace(String namespace) {
        TreeMap<String, List<LimitRangeItem>> ranges = byNamespace.get(namespace);
        return ranges == null ? List.of() : List.copyOf(ranges.values());
    }

    /** A relist: what is listed now is all there is. */
    @Override
    public synchronized void replace(List<? extends JsonNode> listed) {
        Map<String, TreeMap<String, List<LimitRangeItem>>> fresh = new HashMap<>();
        for (JsonNode limitRange : listed) {
            fresh.computeIfAbsent(namespace(limitRange), ns -> new TreeMap<>())
                    .put(name(limitRange), items(limitRange));
        }
        byNamespace = fresh;
        this.listed = true;
    }

    /** A LimitRange added or changed. */
    @Override
    public synchronized void put(JsonNode limitRange) {
        Map<String, TreeMap<String, List<LimitRangeItem>>> next = new HashMap<>(byNamespace);
        TreeMap<String, List<LimitRangeItem>> ranges =
                new TreeMap<>(next.getOrDefault(namespace(limitRange), new TreeMap<>()));
        ranges.put(name(limitRange), items(limitRange));
        next.put(namespace(limitRange), ranges);
        byNamespace = next;
    }

    /** A LimitRange deleted. */
    @Override
    public synchronized void remove(JsonNode limitRange) {
        TreeMap<String, List<LimitRangeItem>> current = byNamespace.get(namespace(limitRange));
        if (current == null) {
            return;
        }
        Map<String, TreeMap<String, List<LimitRangeItem>>> next = new HashMap<>(byNamespace);
        TreeMap<String, List<LimitRangeItem>> ranges = new TreeMap<>(current);
        ranges.remove(name(limitRange));
        if (ranges.isEmpty()) {
            next.remove(namespace(limitRange));
        } else {
            next.put(namespace(limitRange), ranges);
        }
        byNamespace = next;
    }

    /**
     * Empty once the LimitRanges were listed; until then why not: a pod admitted before would miss
     * its namespace's limits (kube's plugin is not ready until its informer has synced).
     */
    public Optional<String> readiness() {
        return listed ? Optional.empty() : Optional.of("limit ranges not listed yet");
    }

    private static List<LimitRangeItem> items(JsonNode limitRange) {
        ObjectNode defaulted = limitRange.deepCopy();
        LimitRangeDefaults.apply(defaulted);
        return LimitRangeItem.of(defaulted);
    }

    private static String namespace(JsonNode object) {
        return object.path("metadata").path("namespace").asText("");
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }

    /** For tests: the index as listed, with {@code limitRanges} in it. */
    static LimitRangeIndex of(List<? extends JsonNode> limitRanges) {
        LimitRangeIndex index = new LimitRangeIndex();
        index.replace(new ArrayList<>(limitRanges));
        return index;
    }
}
