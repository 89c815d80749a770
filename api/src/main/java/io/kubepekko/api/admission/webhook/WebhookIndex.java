package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.admission.InformedIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The webhooks of the stored webhook configurations, as this server's informers last saw them:
 * kube's webhook source. Read on every write without a lock (one immutable snapshot per phase);
 * written by the informers. Webhooks are held in kube's call order: configurations by name, then
 * each configuration's webhooks in order.
 */
public final class WebhookIndex {

    private final Map<String, List<Webhook>> mutating = new TreeMap<>();
    private final Map<String, List<Webhook>> validating = new TreeMap<>();
    private volatile List<Webhook> mutatingSnapshot = List.of();
    private volatile List<Webhook> validatingSnapshot = List.of();
    private volatile boolean mutatingSynced;
    private volatile boolean validatingSynced;
    private final MatchConditions.Compiler conditions;

    /** An index whose webhooks' match conditions are not evaluated. */
    public WebhookIndex() {
        this(MatchConditions.Compiler.NONE);
    }

    /** An index that compiles each configuration's match conditions as it takes it. */
    public WebhookIndex(MatchConditions.Compiler conditions) {
        this.conditions = conditions;
    }

    /** The mutating webhooks, in call order. */
    public List<Webhook> mutating() {
        return mutatingSnapshot;
    }

    /** The validating webhooks, in call order. */
    public List<Webhook> validating() {
        return validatingSnapshot;
    }

    /** Whether no webhook is configured: every write then goes on without a look. */
    public boolean isEmpty() {
        return mutatingSnapshot.isEmpty() && validatingSnapshot.isEmpty();
    }

    /** Every configuration of one kind, as listed. */
    public synchronized void replace(boolean isMutating, List<? extends JsonNode> listed) {
        Map<String, List<Webhook>> map = isMutating ? mutating : validating;
        map.clear();
        listed.forEach(c -> map.put(name(c), Webhook.of(c, isMutating, conditions)));
        if (isMutating) {
            mutatingSynced = true;
        } else {
            validatingSynced = true;
        }
        publish();
    }

    /** A configuration created or changed. */
    public synchronized void put(boolean isMutating, JsonNode configuration) {
        (isMutating ? mutating : validating)
                .put(name(configuration), Webhook.of(configuration, isMutating, conditions));
        publish();
    }

    /** A configuration deleted. */
    public synchronized void remove(boolean isMutating, JsonNode configuration) {
        (isMutating ? mutating : validating).remove(name(configuration));
        publish();
    }

    /** The mutating configurations' side of the index, as their informer feeds it. */
    public InformedIndex mutatingConfigurations() {
        return side(true);
    }

    /** The validating configurations' side of the index, as their informer feeds it. */
    public InformedIndex validatingConfigurations() {
        return side(false);
    }

    private InformedIndex side(boolean isMutating) {
        return new InformedIndex() {
            @Override
            public void replace(List<? extends JsonNode> objects) {
                WebhookIndex.this.replace(isMutating, objects);
            }

            @Override
            public void put(JsonNode object) {
                WebhookIndex.this.put(isMutating, object);
            }

            @Override
            public void remove(JsonNode object) {
                WebhookIndex.this.remove(isMutating, object);
            }
        };
    }

    /** Why the index cannot be trusted yet, or empty once both kinds were listed. */
    public Optional<String> readiness() {
        return mutatingSynced && validatingSynced
                ? Optional.empty()
                : Optional.of("webhook configurations not yet synced");
    }

    private void publish() {
        mutatingSnapshot = flatten(mutating);
        validatingSnapshot = flatten(validating);
    }

    private static List<Webhook> flatten(Map<String, List<Webhook>> byName) {
        List<Webhook> all = new ArrayList<>();
        byName.values().forEach(all::addAll);
        all.sort(Comparator.comparing(Webhook::configuration));
        return List.copyOf(all);
    }

    private static String name(JsonNode configuration) {
        return configuration.path("metadata").path("name").asText("");
    }
}
