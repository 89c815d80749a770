package io.kubepekko.api.kinds;

import io.kubepekko.api.registry.Strategy;

/**
 * The per-kind strategies of the built-in kinds, by group and kind. Kinds without an entry behave
 * generically.
 */
public final class KindStrategies {
    private KindStrategies() {}

    public static Strategy of(String group, String kind) {
        return Strategy.GENERIC;
    }
}
