package io.kubepekko.api.admission.quota;

import java.util.Collection;
import java.util.Map;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;

/** kube's {@code quota} helpers over resource lists (a resource name to an amount). */
final class ResourceLists {
    private ResourceLists() {}

    /** {@code quota.Add}: every amount of both, summed by name. */
    static SortedMap<String, QuotaAmount> add(
            Map<String, QuotaAmount> a, Map<String, QuotaAmount> b) {
        SortedMap<String, QuotaAmount> sum = new TreeMap<>(a);
        b.forEach((name, amount) -> sum.merge(name, amount, QuotaAmount::plus));
        return sum;
    }

    /**
     * {@code quota.Subtract}: {@code a} minus {@code b}, by name (a name only in b goes negative).
     */
    static SortedMap<String, QuotaAmount> subtract(
            Map<String, QuotaAmount> a, Map<String, QuotaAmount> b) {
        SortedMap<String, QuotaAmount> diff = new TreeMap<>(a);
        b.forEach(
                (name, amount) ->
                        diff.put(name, diff.getOrDefault(name, QuotaAmount.ZERO).minus(amount)));
        return diff;
    }

    /** {@code quota.SubtractWithNonNegativeResult}: as subtract, a negative difference zero. */
    static SortedMap<String, QuotaAmount> subtractNonNegative(
            Map<String, QuotaAmount> a, Map<String, QuotaAmount> b) {
        SortedMap<String, QuotaAmount> diff = subtract(a, b);
        diff.replaceAll((name, amount) -> amount.value().signum() < 0 ? QuotaAmount.ZERO : amount);
        return diff;
    }

    /** {@code quota.Mask}: the amounts of {@code names} only. */
    static SortedMap<String, QuotaAmount> mask(
            Map<String, QuotaAmount> list, Collection<String> names) {
        SortedMap<String, QuotaAmount> masked = new TreeMap<>();
        for (String name : names) {
            QuotaAmount amount = list.get(name);
            if (amount != null) {
                masked.put(name, amount);
            }
        }
        return masked;
    }

    /** {@code quota.RemoveZeros}. */
    static SortedMap<String, QuotaAmount> removeZeros(Map<String, QuotaAmount> list) {
        SortedMap<String, QuotaAmount> kept = new TreeMap<>();
        list.forEach(
                (name, amount) -> {
                    if (!amount.isZero()) {
                        kept.put(name, amount);
                    }
                });
        return kept;
    }

    /** kube's admission {@code prettyPrint}: {@code name=quantity} in name order, comma-joined. */
    static String print(Map<String, QuotaAmount> list) {
        StringJoiner joined = new StringJoiner(",");
        new TreeMap<>(list).forEach((name, amount) -> joined.add(name + "=" + amount));
        return joined.toString();
    }
}
