package io.kubepekko.api.auth.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link BoundObjects} a server answers from memory: for each service account, pod, secret and
 * node, only its uid and deletion timestamp, and a pod's node (kube's token getter and its
 * NodeRestriction admission plugin read whole objects from their informers; a token check and that
 * admission need no more than these facts, so whole objects are not kept). Fed by informers (a
 * relist replaces a kind, each change puts or removes one object) and read by the token
 * authenticator on the request thread without waiting.
 */
public final class BoundObjectIndex implements BoundObjects {

    /** The resources whose objects tokens name, by the kind they are indexed as. */
    public static final Map<GroupResource, Kind> SOURCES =
            Map.of(
                    new GroupResource("", "serviceaccounts"), Kind.SERVICE_ACCOUNT,
                    new GroupResource("", "pods"), Kind.POD,
                    new GroupResource("", "secrets"), Kind.SECRET,
                    new GroupResource("", "nodes"), Kind.NODE);

    /**
     * The paths of an object the index reads: its informers parse no more, so a relist of 100,000
     * pods or of large secrets never holds them whole.
     */
    public static final Set<String> FIELDS =
            Set.of(
                    "metadata.namespace",
                    "metadata.name",
                    "metadata.uid",
                    "metadata.deletionTimestamp",
                    "spec.nodeName");

    private final Map<Kind, Map<String, Live>> objects = new ConcurrentHashMap<>();
    private final Set<Kind> listedKinds = ConcurrentHashMap.newKeySet();

    public BoundObjectIndex() {
        for (Kind kind : Kind.values()) {
            objects.put(kind, new ConcurrentHashMap<>());
        }
    }

    @Override
    public Optional<Live> find(Kind kind, String namespace, String name) {
        return Optional.ofNullable(objects.get(kind).get(key(namespace, name)));
    }

    /** A relist of {@code kind}: what is listed now is all there is. */
    public void replace(Kind kind, List<? extends JsonNode> listed) {
        Map<String, Live> fresh = new ConcurrentHashMap<>();
        for (JsonNode object : listed) {
            fresh.put(key(object), live(object));
        }
        Map<String, Live> current = objects.get(kind);
        current.keySet().retainAll(fresh.keySet());
        current.putAll(fresh);
        listedKinds.add(kind);
    }

    /**
     * Empty once every kind was listed; until then why not: a token checked before would be refused
     * for an object the index has not seen yet.
     */
    public Optional<String> readiness() {
        return listedKinds.size() == Kind.values().length
                ? Optional.empty()
                : Optional.of("service-account token objects not listed yet");
    }

    /** An object of {@code kind} added or changed. */
    public void put(Kind kind, JsonNode object) {
        objects.get(kind).put(key(object), live(object));
    }

    /** An object of {@code kind} deleted. */
    public void remove(Kind kind, JsonNode object) {
        objects.get(kind).remove(key(object));
    }

    private static String key(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return key(meta.path("namespace").asText(""), meta.path("name").asText(""));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    private static Live live(JsonNode object) {
        JsonNode meta = object.path("metadata");
        return new Live(
                meta.path("uid").asText(""),
                deletionTimestamp(meta),
                object.path("spec").path("nodeName").asText(""));
    }

    private static Optional<Instant> deletionTimestamp(JsonNode meta) {
        String text = meta.path("deletionTimestamp").asText("");
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
