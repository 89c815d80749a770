package io.kubepekko.api.watch;

import io.kubepekko.api.meta.DefinitionLines;
import io.kubepekko.api.watch.FeatureGates.Gate;
import io.kubepekko.api.watch.FeatureGates.Stage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every gate kube-apiserver 1.35 registers in its feature gate, each at the stage, default and lock
 * its versioned spec gives it at 1.35, and the gates SPEC names that kube has removed since. Data
 * only: {@link FeatureGates} applies kube's rules to it.
 *
 * <p>kube-apiserver's one registry holds far more than the generic API server's gates: every gate
 * of {@code pkg/features} (kubelet, scheduler and controller gates too), component-base's logging
 * and metrics gates and client-go's. Users pass one {@code --feature-gates} to every component, so
 * the server accepts them all, though most have no feature here. The list is a resource file
 * ({@code feature-gates-1.35.txt}) read once, so a new kube release is a data change.
 */
final class FeatureGateSpecs {
    private FeatureGateSpecs() {}

    static final String RESOURCE = "feature-gates-1.35.txt";

    /** A gate kube has removed: naming it is refused as unrecognized, its feature always on. */
    record Removed(String name, String gaSince, String removedIn) {}

    /** The known gates in kube's order (byte order of the names). */
    static final List<Gate> KNOWN = read();

    /** The known gates by name, for the lookups of every parse and {@code enabled} call. */
    static final Map<String, Gate> BY_NAME = byName(KNOWN);

    /**
     * SPEC's gates: beta for years, then GA locked on, then removed after kube's three releases of
     * GA. Their features are what this server always does (paged lists, remaining item counts,
     * progress bookmarks, no {@code selfLink}).
     */
    static final List<Removed> REMOVED =
            List.of(
                    new Removed("APIListChunking", "1.29", "1.33"),
                    new Removed("EfficientWatchResumption", "1.24", "1.33"),
                    new Removed("RemainingItemCount", "1.29", "1.33"),
                    new Removed("RemoveSelfLink", "1.24", "1.30"));

    private static List<Gate> read() {
        String text = DefinitionLines.resource(FeatureGateSpecs.class, RESOURCE);
        if (text == null) {
            throw new IllegalStateException("missing resource " + RESOURCE);
        }
        List<Gate> gates = new ArrayList<>();
        for (DefinitionLines.Line line : DefinitionLines.of(text)) {
            gates.add(gate(line.text()));
        }
        return List.copyOf(gates);
    }

    /** One line: {@code Name STAGE default [locked]}. */
    static Gate gate(String line) {
        String[] f = line.split("\\s+");
        if (f.length < 3 || f.length > 4 || (f.length == 4 && !f[3].equals("locked"))) {
            throw new IllegalStateException("bad feature gate line: " + line);
        }
        if (!f[2].equals("true") && !f[2].equals("false")) {
            throw new IllegalStateException("bad feature gate default: " + line);
        }
        return new Gate(f[0], Stage.valueOf(f[1]), Boolean.parseBoolean(f[2]), f.length == 4);
    }

    private static Map<String, Gate> byName(List<Gate> gates) {
        Map<String, Gate> map = new LinkedHashMap<>();
        for (Gate g : gates) {
            if (map.put(g.name(), g) != null) {
                throw new IllegalStateException("feature gate listed twice: " + g.name());
            }
        }
        return Collections.unmodifiableMap(map);
    }
}
