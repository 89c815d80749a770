package io.kubepekko.api.admission.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.admission.InformedIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ServiceAccounts of every namespace as the ServiceAccount admission plugin reads them: fed by
 * an informer (a relist replaces all, each change puts or removes one) and read inside pod creates
 * without waiting, as kube's plugin reads its lister. An account found by the plugin's live look-up
 * where the informer had not shown it yet ({@link #confirm}) is known for a short while too, until
 * the informer has caught up.
 *
 * <p>Writes come from one informer actor; reads see an immutable snapshot, replaced whole on each
 * change.
 */
public final class ServiceAccountIndex implements InformedIndex {

    /** How long an account found live counts without the informer: its event is ms behind. */
    static final Duration CONFIRMED_FOR = Duration.ofSeconds(10);

    private record Confirmed(ObjectNode account, Instant until) {}

    private final Clock clock;
    private volatile Map<String, ObjectNode> byKey = Map.of();
    private final Map<String, Confirmed> confirmed = new ConcurrentHashMap<>();
    private volatile boolean listed;

    public ServiceAccountIndex(Clock clock) {
        this.clock = clock;
    }

    /** The account {@code name} of {@code namespace}, when the informer or a look-up saw it. */
    public Optional<ObjectNode> find(String namespace, String name) {
        String key = key(namespace, name);
        ObjectNode informed = byKey.get(key);
        if (informed != null) {
            return Optional.of(informed);
        }
        Confirmed live = confirmed.get(key);
        if (live == null) {
            return Optional.empty();
        }
        if (clock.instant().isAfter(live.until())) {
            confirmed.remove(key, live);
            return Optional.empty();
        }
        return Optional.of(live.account());
    }

    /** An account the plugin's live look-up found (the informer has not shown it yet). */
    public void confirm(ObjectNode account) {
        confirmed.put(key(account), new Confirmed(account, clock.instant().plus(CONFIRMED_FOR)));
    }

    /** A relist: what is listed now is all there is. */
    @Override
    public synchronized void replace(List<? extends JsonNode> accounts) {
        Map<String, ObjectNode> fresh = new HashMap<>();
        for (JsonNode account : accounts) {
            fresh.put(key(account), (ObjectNode) account);
        }
        byKey = fresh;
        listed = true;
    }

    /** An account added or changed. */
    @Override
    public synchronized void put(JsonNode account) {
        Map<String, ObjectNode> next = new HashMap<>(byKey);
        next.put(key(account), (ObjectNode) account);
        byKey = next;
    }

    /** An account deleted: found live a moment ago or not, it is gone. */
    @Override
    public synchronized void remove(JsonNode account) {
        confirmed.remove(key(account));
        if (byKey.containsKey(key(account))) {
            Map<String, ObjectNode> next = new HashMap<>(byKey);
            next.remove(key(account));
            byKey = next;
        }
    }

    /** Empty once the accounts were listed; until then why not (kube's plugin waits too). */
    public Optional<String> readiness() {
        return listed ? Optional.empty() : Optional.of("service accounts not listed yet");
    }

    private static String key(JsonNode account) {
        JsonNode meta = account.path("metadata");
        return key(meta.path("namespace").asText(""), meta.path("name").asText(""));
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
