package io.kubepekko.api.watch;

import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The server's {@code --feature-gates} setting: which gates are on. Parsed once at start with
 * kube-apiserver 1.35's syntax, rules and messages (component-base's feature gate behind its
 * component registry); a value afterwards, so request code can read it without synchronisation.
 *
 * <p>The server knows every gate kube-apiserver 1.35 does ({@link FeatureGateSpecs}: kubelet,
 * scheduler, controller, logging and client-go gates too, as one {@code --feature-gates} is passed
 * to every component), each with its stage as kube 1.35 has it: an alpha gate is off by default, a
 * beta one on (unless kube ships it off), a GA gate is on and mostly locked, a deprecated one may
 * be locked too; setting a locked gate to anything but its default refuses to start, setting a GA
 * or deprecated gate logs kube's warning, and a gate kube has removed (as SPEC's {@code
 * APIListChunking}, {@code RemainingItemCount}, {@code EfficientWatchResumption}, {@code
 * RemoveSelfLink}) is unrecognized, its feature simply always on.
 *
 * @param explicit the gates named in the flag, with the value given there, in the order first named
 *     (later entries win, as in kube-apiserver, where the flag fills a map)
 */
public record FeatureGates(Map<String, Boolean> explicit) {

    /** Lets a watch start with the current state ({@code sendInitialEvents}). */
    public static final String WATCH_LIST = "WatchList";

    /** kube-apiserver's meta-gates that move the default of every gate in one stage. */
    static final String ALL_ALPHA = "AllAlpha";

    static final String ALL_BETA = "AllBeta";

    /** The component the flag's entries belong to when they name none. */
    private static final String KUBE = "kube";

    /** Feature maturity; it decides the default, the lock and which meta-gate moves it. */
    public enum Stage {
        ALPHA,
        BETA,
        GA,
        DEPRECATED
    }

    /**
     * A gate the server knows at kube 1.35: its stage, default and whether it is locked to that
     * default.
     */
    public record Gate(String name, Stage stage, boolean defaultEnabled, boolean locked) {}

    public FeatureGates {
        explicit = Collections.unmodifiableMap(new LinkedHashMap<>(explicit));
    }

    /** Every gate at its default, as with no {@code --feature-gates} flag. */
    public static FeatureGates defaults() {
        return new FeatureGates(Map.of());
    }

    /** The gates the server knows, in kube's order (byte order: upper case first). */
    public static List<Gate> known() {
        return FeatureGateSpecs.KNOWN;
    }

    /**
     * Parses the flag's value: every occurrence of {@code --feature-gates}, joined with commas, as
     * kube-apiserver collects them. Entries are {@code [component:]Name=bool}; the component is
     * {@code kube} or none, not both. Empty entries are skipped and whitespace around names and
     * values is trimmed, as component-base does.
     *
     * @throws IllegalArgumentException with kube-apiserver's message for a malformed entry, an
     *     unknown component or gate, or a locked gate set away from its default
     */
    public static FeatureGates parse(String flag) {
        Map<String, List<String>> byComponent = new LinkedHashMap<>();
        for (String pair : flag == null ? new String[0] : flag.split(",", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int colon = pair.indexOf(':');
            String component = colon < 0 ? "" : pair.substring(0, colon).trim();
            String entry = (colon < 0 ? pair : pair.substring(colon + 1)).trim();
            byComponent.computeIfAbsent(component, c -> new ArrayList<>()).add(entry);
        }
        for (String component : byComponent.keySet()) {
            if (component.isEmpty() && byComponent.containsKey(KUBE)) {
                throw new IllegalArgumentException(
                        "set kube feature gates with default empty prefix or kube: prefix"
                                + " consistently, do not mix use");
            }
            if (!component.isEmpty() && !component.equals(KUBE)) {
                throw new IllegalArgumentException("component not registered: " + component);
            }
        }
        List<String> entries = new ArrayList<>();
        byComponent.values().forEach(entries::addAll);
        return fromMap(values(String.join(",", entries)));
    }

    /** component-base's {@code Set}: every entry's bool, before any name is looked up. */
    private static Map<String, Boolean> values(String entries) {
        Map<String, Boolean> values = new LinkedHashMap<>();
        for (String entry : entries.split(",", -1)) {
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
            values.put(name, parsed);
        }
        return values;
    }

    /**
     * component-base's {@code SetFromMap}: an unknown name stops at once; every gate set away from
     * its locked default is reported, one message or several in Go's aggregate form.
     */
    private static FeatureGates fromMap(Map<String, Boolean> values) {
        for (String name : values.keySet()) {
            if (!isMetaGate(name) && gate(name) == null) {
                throw new IllegalArgumentException("unrecognized feature gate: " + name);
            }
        }
        List<String> locked = new ArrayList<>();
        values.forEach(
                (name, value) -> {
                    Gate gate = gate(name);
                    if (gate != null && gate.locked() && gate.defaultEnabled() != value) {
                        locked.add(
                                "cannot set feature gate "
                                        + name
                                        + " to "
                                        + value
                                        + ", feature is locked to "
                                        + gate.defaultEnabled());
                    }
                });
        if (locked.size() == 1) {
            throw new IllegalArgumentException(locked.get(0));
        }
        if (!locked.isEmpty()) {
            throw new IllegalArgumentException("[" + String.join(", ", locked) + "]");
        }
        return new FeatureGates(values);
    }

    /**
     * kube's warnings for the gates set here that it will remove: a GA or deprecated gate, one line
     * each (klog's text, logged once at start).
     */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        explicit.forEach(
                (name, value) -> {
                    Gate gate = gate(name);
                    if (gate == null) {
                        return;
                    }
                    String stage =
                            switch (gate.stage()) {
                                case GA -> "GA";
                                case DEPRECATED -> "deprecated";
                                default -> null;
                            };
                    if (stage != null) {
                        warnings.add(
                                "Setting "
                                        + stage
                                        + " feature gate "
                                        + name
                                        + "="
                                        + value
                                        + ". It will be removed in a future release.");
                    }
                });
        return warnings;
    }

    /**
     * Whether the gate is on: its value in the flag, else its stage's meta-gate ({@code AllAlpha},
     * {@code AllBeta}, which never move GA or deprecated gates), else its default.
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
        String stageGate =
                switch (gate.stage()) {
                    case ALPHA -> ALL_ALPHA;
                    case BETA -> ALL_BETA;
                    default -> null;
                };
        Boolean stageDefault = stageGate == null ? null : explicit.get(stageGate);
        return stageDefault != null ? stageDefault : gate.defaultEnabled();
    }

    private static boolean isMetaGate(String name) {
        return name.equals(ALL_ALPHA) || name.equals(ALL_BETA);
    }

    private static Gate gate(String name) {
        return FeatureGateSpecs.BY_NAME.get(name);
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
