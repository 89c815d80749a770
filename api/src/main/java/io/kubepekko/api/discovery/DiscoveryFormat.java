package io.kubepekko.api.discovery;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The representations {@code /api} and {@code /apis} can be served in, and the choice between them
 * for a request's Accept header.
 */
public enum DiscoveryFormat {
    /** Aggregated discovery, {@code apidiscovery.k8s.io/v2}: one document with every resource. */
    V2("v2"),
    /** Aggregated discovery, {@code apidiscovery.k8s.io/v2beta1}: same shape, older clients. */
    V2BETA1("v2beta1"),
    /** {@code APIVersions}/{@code APIGroupList}, after which clients fetch each group version. */
    LEGACY(null);

    /** The group of the aggregated discovery types. */
    public static final String GROUP = "apidiscovery.k8s.io";

    /** The list kind clients name in {@code as=}. */
    public static final String LIST_KIND = "APIGroupDiscoveryList";

    private final String version;

    DiscoveryFormat(String version) {
        this.version = version;
    }

    public boolean aggregated() {
        return version != null;
    }

    /** {@code apidiscovery.k8s.io/v2} or {@code apidiscovery.k8s.io/v2beta1}; empty for legacy. */
    public Optional<String> apiVersion() {
        return Optional.ofNullable(version).map(v -> GROUP + "/" + v);
    }

    /**
     * The exact Content-Type to answer with. Clients decide how to parse the body from its {@code
     * g}, {@code v} and {@code as} parameters alone, so an aggregated body sent as plain JSON is
     * read as legacy and found empty.
     */
    public String contentType() {
        return version == null
                ? "application/json"
                : "application/json;g=" + GROUP + ";v=" + version + ";as=" + LIST_KIND;
    }

    /**
     * The aggregated format for an {@code apidiscovery.k8s.io} version ({@code v2}, {@code
     * v2beta1}).
     */
    public static Optional<DiscoveryFormat> ofVersion(String version) {
        for (DiscoveryFormat f : values()) {
            if (f.version != null && f.version.equals(version)) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /**
     * Picks the representation for an Accept header. The first acceptable entry in list order wins
     * (kubectl lists v2, then v2beta1, then plain JSON); entries with {@code q=0}, other media
     * types and other conversions ({@code as=Table}, unknown {@code g}/{@code v}) are skipped. A
     * missing or blank header means JSON, as in kube-apiserver.
     *
     * @return the format, or empty when nothing in the header can be served (answer 406)
     */
    public static Optional<DiscoveryFormat> negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return Optional.of(LEGACY);
        }
        for (String range : accept.split(",")) {
            Optional<DiscoveryFormat> f = match(range);
            if (f.isPresent()) {
                return f;
            }
        }
        return Optional.empty();
    }

    private static Optional<DiscoveryFormat> match(String range) {
        String[] parts =
                range.split(";", -1); // -1: ";;;" keeps its (empty) media range instead of none
        String type = parts[0].trim().toLowerCase(Locale.ROOT);
        Map<String, String> params = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf('=');
            if (eq > 0) {
                params.put(
                        parts[i].substring(0, eq).trim().toLowerCase(Locale.ROOT),
                        unquote(parts[i].substring(eq + 1)));
            }
        }
        if (!acceptable(params.get("q"))) {
            return Optional.empty();
        }
        String g = params.get("g");
        String v = params.get("v");
        String as = params.get("as");
        boolean conversion = g != null || v != null || as != null;
        if (type.equals("*/*") || type.equals("application/*")) {
            return conversion ? Optional.empty() : Optional.of(LEGACY);
        }
        if (!type.equals("application/json")) {
            return Optional.empty();
        }
        if (!conversion) {
            return Optional.of(LEGACY);
        }
        return GROUP.equals(g) && LIST_KIND.equals(as) ? ofVersion(v) : Optional.empty();
    }

    private static boolean acceptable(String q) {
        if (q == null) {
            return true;
        }
        try {
            return Double.parseDouble(q) > 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String unquote(String value) {
        String v = value.trim();
        return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")
                ? v.substring(1, v.length() - 1)
                : v;
    }
}
