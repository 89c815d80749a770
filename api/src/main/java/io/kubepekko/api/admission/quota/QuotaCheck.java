package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.admission.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's {@code CheckRequest} of the ResourceQuota admission plugin, over the namespace's quotas
 * and what each has used: the quotas whose resources and scopes match the object, the resources
 * they require it to state, and whether adding what the write uses (on an update, what it uses more
 * than before) keeps each within its hard limits.
 */
public final class QuotaCheck {
    private QuotaCheck() {}

    /** What the check made of a write. */
    public sealed interface Result {}

    /**
     * The write may go on, charging {@code usage} (the object's whole usage; empty when it charges
     * nothing) to {@code quotas}.
     */
    public record Admitted(SortedMap<String, QuotaAmount> usage, List<String> quotas)
            implements Result {}

    /** The write is refused; {@code why} is kube's message (the 403's reason). */
    public record Refused(String why) implements Result {}

    /**
     * @param quotas the namespace's quotas
     * @param used what each quota (by name) has used, without this write
     * @param usageListed false while the informer of the evaluated resource has not listed: {@code
     *     used} may miss its objects, so every quota limiting it is as one whose status does not
     *     report the usage of what it limits
     * @param oldObject the stored object on an update, else null
     */
    public static Result check(
            QuotaEvaluator evaluator,
            List<QuotaSpec> quotas,
            Map<String, ? extends Map<String, QuotaAmount>> used,
            boolean usageListed,
            Operation operation,
            JsonNode object,
            JsonNode oldObject,
            Instant now) {
        List<QuotaSpec> interesting = new ArrayList<>();
        for (QuotaSpec quota : quotas) {
            if (!evaluator.matches(quota, object)) {
                continue;
            }
            Set<String> restricted = evaluator.matchingResources(quota.hard().keySet());
            var missing = evaluator.constraints(restricted, object);
            if (missing.isPresent()) {
                return new Refused("failed quota: " + quota.name() + ": " + missing.get());
            }
            SortedSet<String> unknown = new TreeSet<>(restricted);
            if (usageListed) {
                unknown.removeAll(quota.usedKnown());
            }
            if (!unknown.isEmpty()) {
                // kube names every restricted resource then, not only those without a usage.
                return new Refused(
                        "status unknown for quota: "
                                + quota.name()
                                + ", resources: "
                                + String.join(",", new TreeSet<>(restricted)));
            }
            interesting.add(quota);
        }
        if (interesting.isEmpty()) {
            return new Admitted(new TreeMap<>(), List.of());
        }
        SortedMap<String, QuotaAmount> usage = evaluator.usage(object, now);
        SortedMap<String, QuotaAmount> delta = usage;
        if (operation == Operation.UPDATE
                && oldObject != null
                && !oldObject.path("metadata").path("resourceVersion").asText("").isEmpty()) {
            delta = ResourceLists.subtractNonNegative(usage, evaluator.usage(oldObject, now));
        }
        delta = ResourceLists.removeZeros(delta);
        if (delta.isEmpty()) {
            return new Admitted(new TreeMap<>(), List.of());
        }
        List<String> charged = new ArrayList<>();
        for (QuotaSpec quota : interesting) {
            SortedMap<String, QuotaAmount> requested =
                    ResourceLists.mask(delta, quota.hard().keySet());
            Map<String, QuotaAmount> quotaUsed =
                    used.containsKey(quota.name()) ? used.get(quota.name()) : Map.of();
            SortedMap<String, QuotaAmount> exceeded = new TreeMap<>();
            SortedMap<String, QuotaAmount> failedUsed = new TreeMap<>();
            SortedMap<String, QuotaAmount> failedHard = new TreeMap<>();
            requested.forEach(
                    (name, amount) -> {
                        QuotaAmount before = quotaUsed.getOrDefault(name, QuotaAmount.ZERO);
                        QuotaAmount hard = quota.hard().get(name);
                        if (before.plus(amount).compareTo(hard) > 0) {
                            exceeded.put(name, amount);
                            failedUsed.put(name, before);
                            failedHard.put(name, hard);
                        }
                    });
            if (!exceeded.isEmpty()) {
                return new Refused(
                        "exceeded quota: "
                                + quota.name()
                                + ", requested: "
                                + ResourceLists.print(exceeded)
                                + ", used: "
                                + ResourceLists.print(failedUsed)
                                + ", limited: "
                                + ResourceLists.print(failedHard));
            }
            if (!requested.isEmpty()) {
                charged.add(quota.name());
            }
        }
        return new Admitted(usage, charged);
    }
}
