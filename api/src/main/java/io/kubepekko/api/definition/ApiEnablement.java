package io.kubepekko.api.definition;

import io.kubepekko.api.definition.VersionLifecycle.Track;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which group versions and resources are served: kube 1.35's defaults for the versions the registry
 * holds, overridden by {@code --runtime-config} as kube-apiserver merges it ({@code
 * resourceconfig.MergeAPIResourceConfigs}, after {@code APIEnablementOptions.Validate}).
 *
 * <p>Precedence is kube's, whatever the order on the command line: {@code api/all}, then {@code
 * api/ga}, {@code api/beta}, {@code api/alpha}, then every {@code group/version}, then every {@code
 * group/version/resource}. A later level drops the resource settings of the versions it sets, so
 * {@code batch/v1=false,batch/v1/jobs=true} serves jobs alone in batch/v1. A resource set on its
 * own is served or not whatever its version says.
 */
public final class ApiEnablement {

    /** The {@code --runtime-config} keys that address every version of a track, in kube's order. */
    static final List<String> TRACK_KEYS = List.of("api/all", "api/ga", "api/beta", "api/alpha");

    /** A group and version: {@code group} is empty for the core group. */
    record GroupVersion(String group, String version) {
        /** As Go's {@code schema.GroupVersion.String()}: {@code v1} for the core group. */
        @Override
        public String toString() {
            return group.isEmpty() ? version : group + "/" + version;
        }
    }

    /** A group version the registry holds, and whether kube serves it by default. */
    record Known(GroupVersion version, boolean enabledByDefault) {}

    private final Map<GroupVersion, Boolean> versions;
    private final Map<String, Boolean> resources;

    private ApiEnablement(Map<GroupVersion, Boolean> versions, Map<String, Boolean> resources) {
        this.versions = versions;
        this.resources = resources;
    }

    /**
     * Why a {@code --runtime-config} cannot be applied, in kube-apiserver's words (one line, which
     * names the key or value).
     */
    public static final class InvalidException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidException(String message) {
            super(message);
        }
    }

    /**
     * What is served: {@code config} over the defaults of {@code known}.
     *
     * @param known every group version the registry holds, with its default
     * @param registeredVersions what else may be named: every group version kube's scheme
     *     registers, by group
     * @throws InvalidException for kube's refusals: {@code api/all=false} alone, a key that is no
     *     group/version[/resource], an unknown group, a track key whose value is not {@code true}
     *     or {@code false}, a version of a known group that is not registered, a value that is no
     *     boolean, a resource that is not lowercase
     */
    static ApiEnablement resolve(
            RuntimeConfig config,
            Collection<Known> known,
            Map<String, ? extends Collection<String>> registeredVersions) {
        Map<String, String> entries = config.entries();
        Map<GroupVersion, Boolean> versions = new LinkedHashMap<>();
        for (Known k : known) {
            versions.merge(k.version(), k.enabledByDefault(), Boolean::logicalOr);
        }
        Map<String, Set<String>> registered = new LinkedHashMap<>();
        registeredVersions.forEach(
                (g, vs) -> registered.computeIfAbsent(g, x -> new TreeSet<>()).addAll(vs));
        for (Known k : known) {
            registered
                    .computeIfAbsent(k.version().group(), x -> new TreeSet<>())
                    .add(k.version().version());
        }
        validate(entries, registered);

        Map<String, Boolean> resources = new LinkedHashMap<>();
        for (String key : TRACK_KEYS) {
            String value = entries.get(key);
            if (value == null) {
                continue;
            }
            if (!value.equals("true") && !value.equals("false")) {
                throw new InvalidException("invalid value " + key + "=" + value);
            }
            boolean on = value.equals("true");
            for (GroupVersion gv : versions.keySet()) {
                if (key.equals("api/all")
                        || key.equals(Track.of(gv.version()).runtimeConfigKey())) {
                    versions.put(gv, on);
                    dropResources(resources, gv);
                }
            }
        }
        Map<GroupVersion, Boolean> versionPrefs = new LinkedHashMap<>();
        Map<String, Boolean> resourcePrefs = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            String key = e.getKey();
            if (TRACK_KEYS.contains(key)) {
                continue;
            }
            String[] tokens = key.split("/", -1);
            GroupVersion gv = new GroupVersion(tokens[0], tokens[1]);
            if (!registered.containsKey(gv.group())) {
                continue;
            }
            if (!registered.get(gv.group()).contains(gv.version())) {
                throw new InvalidException("group version " + gv + " that has not been registered");
            }
            boolean on = value(key, e.getValue());
            if (tokens.length == 2) {
                versionPrefs.put(gv, on);
            } else {
                if (!tokens[2].toLowerCase(Locale.ROOT).equals(tokens[2])) {
                    throw new InvalidException(
                            "invalid key "
                                    + key
                                    + ": group/version/resource and resource is always lowercase plural, not "
                                    + goQuote(tokens[2]));
                }
                resourcePrefs.put(resourceKey(gv.group(), gv.version(), tokens[2]), on);
            }
        }
        versionPrefs.forEach(
                (gv, on) -> {
                    versions.put(gv, on);
                    dropResources(resources, gv);
                });
        resources.putAll(resourcePrefs);
        return new ApiEnablement(versions, resources);
    }

    /**
     * {@code APIEnablementOptions.Validate}: {@code api/all=false} with nothing else, keys that are
     * no group/version[/resource], and groups no scheme registers.
     */
    private static void validate(Map<String, String> entries, Map<String, Set<String>> registered) {
        if ("false".equals(entries.get("api/all")) && entries.size() == 1) {
            throw new InvalidException("invalid key with only api/all=false");
        }
        List<String> unknown = new ArrayList<>();
        for (String key : entries.keySet()) {
            if (TRACK_KEYS.contains(key)) {
                continue;
            }
            String[] tokens = key.split("/", -1);
            if (tokens.length != 2 && tokens.length != 3) {
                throw new InvalidException("runtime-config invalid key " + key);
            }
            if (!registered.containsKey(tokens[0])) {
                unknown.add(tokens[0]);
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidException("unknown api groups " + String.join(",", unknown));
        }
    }

    /** kube's {@code getRuntimeConfigValue}: empty is true, else Go's {@code ParseBool}. */
    private static boolean value(String key, String value) {
        return switch (value) {
            case "", "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default ->
                    throw new InvalidException(
                            "invalid value of "
                                    + key
                                    + ": "
                                    + value
                                    + ", err: strconv.ParseBool: parsing "
                                    + goQuote(value)
                                    + ": invalid syntax");
        };
    }

    private static void dropResources(Map<String, Boolean> resources, GroupVersion gv) {
        String prefix = resourceKey(gv.group(), gv.version(), "");
        resources.keySet().removeIf(k -> k.startsWith(prefix));
    }

    private static String resourceKey(String group, String version, String resource) {
        return group + "/" + version + "/" + resource;
    }

    /** Go's {@code %q} for the printable ASCII a key or value holds. */
    private static String goQuote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /**
     * Whether a resource of a group version is served ({@code ResourceConfig.ResourceEnabled}): as
     * its own setting says, else as its version's; a version the registry does not hold is not.
     */
    public boolean enabled(String group, String version, String resource) {
        Boolean own = resources.get(resourceKey(group, version, resource));
        if (own != null) {
            return own;
        }
        return versions.getOrDefault(new GroupVersion(group, version), false);
    }
}
