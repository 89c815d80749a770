package io.kubepekko.api.definition;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code --runtime-config} flag as kube-apiserver reads it: every occurrence of the flag adds
 * its comma-separated {@code key[=value]} pairs to one map (a key given again takes the later
 * value; a key without {@code =} has the empty value, which means true), keys and values trimmed,
 * empty items skipped ({@code cliflag.ConfigurationMap}). kube-apiserver then rewrites the core
 * group's keys: {@code v1}, {@code api/v1} and any key under them become {@code /v1} (so {@code
 * api/v1/pods=false} turns off the whole core group, as in kube), and drops {@code api/legacy}.
 *
 * <p>Reading the flag never fails; what the keys and values mean is checked against the served
 * versions by {@link ApiEnablement#resolve}.
 */
public final class RuntimeConfig {

    /** No {@code --runtime-config}: every version as kube 1.35 serves it by default. */
    public static final RuntimeConfig NONE = new RuntimeConfig(Map.of());

    /** The core group's key once kube-apiserver has rewritten it. */
    static final String CORE = "/v1";

    private final Map<String, String> entries;

    private RuntimeConfig(Map<String, String> entries) {
        this.entries = Collections.unmodifiableMap(entries);
    }

    /** The flag's values, one per occurrence, in the order given. */
    public static RuntimeConfig parse(List<String> flagValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String value : flagValues) {
            for (String item : value.split(",", -1)) {
                if (item.isEmpty()) {
                    continue;
                }
                int eq = item.indexOf('=');
                String key = (eq < 0 ? item : item.substring(0, eq)).strip();
                String val = eq < 0 ? "" : item.substring(eq + 1).strip();
                map.remove(key);
                map.put(key, val);
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        map.forEach(
                (key, val) -> {
                    if (key.equals("v1")
                            || key.startsWith("v1/")
                            || key.equals("api/v1")
                            || key.startsWith("api/v1/")) {
                        out.remove(CORE);
                        out.put(CORE, val);
                    } else if (!key.equals("api/legacy")) {
                        out.remove(key);
                        out.put(key, val);
                    }
                });
        return new RuntimeConfig(out);
    }

    /** One flag value ({@code batch/v1=false,networking.k8s.io/v1beta1}). */
    public static RuntimeConfig parse(String flagValue) {
        return parse(List.of(flagValue));
    }

    /** The keys and values, in the order they were last given. */
    public Map<String, String> entries() {
        return entries;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuntimeConfig other && entries.equals(other.entries);
    }

    @Override
    public int hashCode() {
        return Objects.hash(entries);
    }

    /** {@code key=value,...}, as the flag would give it. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        entries.forEach(
                (k, v) -> {
                    if (s.length() > 0) {
                        s.append(',');
                    }
                    s.append(k).append('=').append(v);
                });
        return s.toString();
    }
}
