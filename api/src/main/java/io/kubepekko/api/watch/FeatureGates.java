package io.kubepekko.api.watch;

import io.kubepekko.api.status.FieldError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's {@code --feature-gates} setting: which of the gates we honour are on. Parsed once at
 * start with kube-apiserver's syntax and error messages ({@code Name=true,Other=false}); a value
 * afterwards, so request code can read it without synchronisation.
 *
 * @param explicit the gates named in the flag, with the value given there (later entries win, as in
 *     kube-apiserver, where the flag fills a map)
 */
public record FeatureGates(Map<String, Boolean> explicit) {

    /** Lets clients page lists with {@code limit} and {@code continue}. */
    public static final String API_LIST_CHUNKING = "APIListChunking";

    /** Fills {@code metadata.remainingItemCount} on paged lists. */
    public static final String REMAINING_ITEM_COUNT = "RemainingItemCount";

    /** Sends progress bookmarks so that watchers resume close to where they stopped. */
    public static final String EFFICIENT_WATCH_RESUMPTION = "EfficientWatchResumption";

    /** Leaves {@code metadata.selfLink} unset. */
    public static final String REMOVE_SELF_LINK = "RemoveSelfLink";

    /** kube-apiserver's meta-gates that move the default of every gate in one stage. */
    static final String ALL_ALPHA = "AllAlpha";

    static final String ALL_BETA = "AllBeta";

    /** Feature maturity; it decides the default and which meta-gate moves it. */
    public enum Stage {
        ALPHA,
        BETA
    }

    /** A gate the server knows, with its stage and default. */
    public record Gate(String name, Stage stage, boolean defaultEnabled) {}

    /** The gates we honour, in the order {@code --help} would print them. */
    public static final List<Gate> KNOWN =
            List.of(
                    new Gate(API_LIST_CHUNKING, Stage.BETA, true),
                    new Gate(EFFICIENT_WATCH_RESUMPTION, Stage.BETA, true),
                    new Gate(REMAINING_ITEM_COUNT, Stage.BETA, true),
                    new Gate(REMOVE_SELF_LINK, Stage.BETA, true));

    public FeatureGates {
        explicit = Map.copyOf(explicit);
    }

    /** Every gate at its default, as with no {@code --feature-gates} flag. */
    public static FeatureGates defaults() {
        return new FeatureGates(Map.of());
    }

    /**
     * Parses the flag value. Empty entries are skipped and whitespace around names and values is
     * trimmed, as component-base does.
     *
     * @throws IllegalArgumentException with kube-apiserver's message for a missing or malformed
     *     value or an unknown gate
     */
    public static FeatureGates parse(String flag) {
        Map<String, Boolean> values = new LinkedHashMap<>();
        for (String entry : flag == null ? new String[0] : flag.split(",", -1)) {
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String name = (eq < 0 ? entry : entry.substring(0, eq)).trim();
            if (eq < 0) {
                throw new IllegalArgumentException("missing bool value for " + name);
            }
            String value = entry.substring(eq + 1).trim();
            Boolean parsed = goParseBool(value);
            if (parsed == null) {
                throw new IllegalArgumentException(
                        "invalid value of "
                                + name
                                + "="
                                + value
                                + ", err: strconv.ParseBool: parsing "
                                + quote(value)
                                + ": invalid syntax");
            }
            values.remove(name);
            values.put(name, parsed);
        }
        // Values are all checked before names, because kube-apiserver parses the whole flag into a
        // map before it looks the names up.
        for (String name : values.keySet()) {
            if (!name.equals(ALL_ALPHA) && !name.equals(ALL_BETA) && gate(name) == null) {
                throw new IllegalArgumentException("unrecognized feature gate: " + name);
            }
        }
        return new FeatureGates(values);
    }

    /**
     * Whether the gate is on.
     *
     * @throws IllegalArgumentException for a gate the server does not know: that is a programming
     *     error, not a user one
     */
    public boolean enabled(String name) {
        Gate gate = gate(name);
        if (gate == null) {
            throw new IllegalArgumentException(
                    "feature " + quote(name) + " is not registered in FeatureGates");
        }
        Boolean set = explicit.get(name);
        if (set != null) {
            return set;
        }
        String stageGate = gate.stage() == Stage.ALPHA ? ALL_ALPHA : ALL_BETA;
        Boolean stageDefault = explicit.get(stageGate);
        return stageDefault != null ? stageDefault : gate.defaultEnabled();
    }

    private static Gate gate(String name) {
        for (Gate g : KNOWN) {
            if (g.name().equals(name)) {
                return g;
            }
        }
        return null;
    }

    /** Go's {@code strconv.ParseBool}: the only spellings it accepts; null for anything else. */
    private static Boolean goParseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
            case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
            default -> null;
        };
    }

    private static String quote(String s) {
        return FieldError.quote(s);
    }
}
