package io.kubepekko.api.alloc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Decides one write's requests against what is taken, as Kubernetes' allocators do, in order: the
 * first refusal ends the write and nothing of it is granted. Pure: the allocator that holds the
 * taken values calls it and records the result.
 */
public final class Claims {
    private Claims() {}

    /** The key a value is stored under: its pool and canonical spelling. */
    public static String key(String pool, String value) {
        return pool + "/" + value;
    }

    /** The pool part of a {@link #key}. */
    public static String poolOf(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    /**
     * @param taken whether a key is held by any object (reserved values are the pools' business)
     * @param dryRun evaluate as Kubernetes' dry-run allocators do: placeholders instead of picks,
     *     and only the checks they make
     */
    public static ClaimResult evaluate(
            List<ValueRequest> requests,
            Map<String, ValuePool> pools,
            Predicate<String> taken,
            RandomGenerator random,
            boolean dryRun) {
        List<String> granted = new ArrayList<>(requests.size());
        Set<String> chosen = new HashSet<>();
        Map<String, List<String>> chosenByPool = new HashMap<>();
        for (int i = 0; i < requests.size(); i++) {
            ValueRequest r = requests.get(i);
            ValuePool pool = pools.get(r.pool());
            if (pool == null) {
                return ClaimResult.refused(
                        i,
                        new Refusal(
                                Refusal.Reason.NO_POOL,
                                "no value pool named " + r.pool() + " is configured"));
            }
            String value;
            if (r.value() != null) {
                value = pool.canonical(r.value());
                Refusal outside =
                        value == null ? unusable(pool, r.value()) : pool.outOfRange(value, dryRun);
                if (outside != null) {
                    return ClaimResult.refused(i, outside);
                }
                String key = key(pool.name(), value);
                boolean checksTaken = !dryRun || pool.dryRunChecksTaken();
                if (checksTaken
                        && (chosen.contains(key)
                                || (!dryRun && pool.reserved(value))
                                || taken.test(key))) {
                    return ClaimResult.refused(i, pool.taken());
                }
            } else if (dryRun) {
                value = pool.dryRunValue(chosenByPool.getOrDefault(pool.name(), List.of()));
            } else {
                value =
                        pool.pick(
                                v ->
                                        chosen.contains(key(pool.name(), v))
                                                || taken.test(key(pool.name(), v)),
                                random);
                if (value == null) {
                    return ClaimResult.refused(i, pool.full());
                }
            }
            chosen.add(key(pool.name(), value));
            chosenByPool.computeIfAbsent(pool.name(), p -> new ArrayList<>()).add(value);
            granted.add(value);
        }
        return ClaimResult.granted(granted);
    }

    /**
     * A value of the wrong form (validation normally refuses it first): refused as out of range.
     */
    private static Refusal unusable(ValuePool pool, String raw) {
        Refusal r = pool.outOfRange(raw, false);
        return r != null ? r : new Refusal(Refusal.Reason.OUT_OF_RANGE, "invalid value " + raw);
    }
}
