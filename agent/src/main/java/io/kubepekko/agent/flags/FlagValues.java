package io.kubepekko.agent.flags;

import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.Ports;
import io.kubepekko.api.meta.GoDurations;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.validation.NameValidation;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The value syntaxes of the agent's flags, with the errors Go's pflag and the kubelet give for
 * them.
 */
final class FlagValues {
    private FlagValues() {}

    /** The last text given wins, as in pflag. */
    static <T> Flag.Conversion<T> last(Flag.Parser<T> parser) {
        return Flag.last(parser);
    }

    /** Absent (no default, nothing given) means empty. */
    static <T> Flag.Conversion<Optional<T>> optional(Flag.Parser<T> parser) {
        return Flag.optional(parser);
    }

    static String string(String text) {
        return text;
    }

    /** Go's {@code strconv.ParseBool}. */
    static boolean bool(String text) throws Flag.InvalidValue {
        return Flag.goBool(text);
    }

    private static final Pattern DECIMAL = Pattern.compile("[+-]?[0-9]+");

    /** pflag's int32. */
    static int int32(String text) throws Flag.InvalidValue {
        if (!DECIMAL.matcher(text).matches()) {
            throw new Flag.InvalidValue(
                    text, "strconv.ParseInt: parsing \"" + text + "\": invalid syntax");
        }
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new Flag.InvalidValue(
                    text, "strconv.ParseInt: parsing \"" + text + "\": value out of range");
        }
    }

    /**
     * A Go duration ({@code 20s}, {@code 1m30s}); the agent's durations are periods, so they must
     * be positive.
     */
    static Duration period(String text) throws Flag.InvalidValue {
        Duration d;
        try {
            d = Duration.ofNanos(GoDurations.parse(text));
        } catch (IllegalArgumentException e) {
            throw new Flag.InvalidValue(text, "time: invalid duration \"" + text + "\"");
        }
        if (d.isNegative() || d.isZero()) {
            throw new Flag.InvalidValue(text, "must be a positive duration");
        }
        return d;
    }

    /**
     * A path made absolute against the working directory once, here: the runtime resolves the paths
     * the agent hands it (mounts, log directories) against its own directories, so a relative
     * {@code --root-dir} made every container's mounts point nowhere.
     */
    static Path path(String text) throws Flag.InvalidValue {
        if (text.isEmpty()) {
            throw new Flag.InvalidValue(text, "must not be empty");
        }
        try {
            return Path.of(text).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new Flag.InvalidValue(text, e.getMessage());
        }
    }

    /**
     * The kubelet's {@code GetHostname}: trimmed and lower-cased; blank means "use the host name".
     */
    static Optional<String> hostname(String text) {
        String trimmed = text.trim();
        return trimmed.isEmpty() ? Optional.empty() : Optional.of(trimmed.toLowerCase(Locale.ROOT));
    }

    static Optional<String> nonEmpty(String text) {
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    private static final Pattern IPV4 =
            Pattern.compile(
                    "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /**
     * The kubelet's {@code --node-ip}: one IP or a comma-separated dual-stack pair (one IPv4, one
     * IPv6). Empty means "find it from the host".
     */
    static List<InetAddress> nodeIps(String text) throws Flag.InvalidValue {
        List<InetAddress> ips = new ArrayList<>();
        if (text.isEmpty()) {
            return ips;
        }
        for (String part : text.split(",", -1)) {
            ips.add(ipLiteral(text, part.trim()));
        }
        if (ips.size() > 2
                || (ips.size() == 2
                        && (ips.get(0) instanceof Inet6Address)
                                == (ips.get(1) instanceof Inet6Address))) {
            throw new Flag.InvalidValue(
                    text, "must contain either a single IP or a dual-stack pair of IPs");
        }
        if (ips.size() == 2 && (ips.get(0).isAnyLocalAddress() || ips.get(1).isAnyLocalAddress())) {
            throw new Flag.InvalidValue(
                    text, "dual-stack node IP cannot include '0.0.0.0' or '::'");
        }
        return ips;
    }

    /** {@code utilflag.IPVar} ({@code --address}): one IP literal. */
    static InetAddress ip(String text) throws Flag.InvalidValue {
        try {
            return ipLiteral(text, text.trim());
        } catch (Flag.InvalidValue e) {
            throw new Flag.InvalidValue(text, "\"" + text + "\" is not a valid IP address");
        }
    }

    /** A TCP port to serve on; 0 (ours, not the kubelet's) picks a free one. */
    static int port(String text) throws Flag.InvalidValue {
        return Ports.parse(
                text,
                FlagValues::int32,
                port -> "port (--port) " + port + " must be between 0 and 65535, inclusive");
    }

    private static InetAddress ipLiteral(String whole, String ip) throws Flag.InvalidValue {
        // Only literals reach InetAddress.getByName, so it never resolves a name.
        if (IPV4.matcher(ip).matches() || IPV6_CHARS.matcher(ip).matches()) {
            try {
                return InetAddress.getByName(ip);
            } catch (UnknownHostException e) {
                // not a valid literal: reported below
            }
        }
        throw new Flag.InvalidValue(whole, "could not parse \"" + ip + "\"");
    }

    /**
     * {@code cliflag.ConfigurationMap} ({@code --node-labels}): comma-separated {@code key=value}
     * pairs (a pair without {@code =} has an empty value), every occurrence adding to the map; then
     * the kubelet's checks: keys in the {@code kubernetes.io} and {@code k8s.io} namespaces only
     * from its allowed set, keys qualified names and values label values.
     */
    static Flag.Conversion<Map<String, String>> nodeLabels() {
        return given -> {
            Map<String, String> labels = new LinkedHashMap<>();
            for (String text : given) {
                for (String pair : text.split(",")) {
                    String p = pair.trim();
                    if (p.isEmpty()) {
                        continue;
                    }
                    int eq = p.indexOf('=');
                    labels.put(
                            eq < 0 ? p : p.substring(0, eq).trim(),
                            eq < 0 ? "" : p.substring(eq + 1).trim());
                }
            }
            checkNodeLabels(String.join(",", given), labels);
            return labels;
        };
    }

    static final List<String> KUBELET_LABEL_NAMESPACES =
            List.of("kubelet.kubernetes.io", "node.kubernetes.io");
    static final Set<String> KUBELET_LABELS =
            new TreeSet<>(
                    List.of(
                            "kubernetes.io/hostname",
                            "topology.kubernetes.io/zone",
                            "topology.kubernetes.io/region",
                            "failure-domain.beta.kubernetes.io/zone",
                            "failure-domain.beta.kubernetes.io/region",
                            "beta.kubernetes.io/instance-type",
                            "node.kubernetes.io/instance-type",
                            "kubernetes.io/os",
                            "kubernetes.io/arch",
                            "beta.kubernetes.io/os",
                            "beta.kubernetes.io/arch"));

    private static void checkNodeLabels(String text, Map<String, String> labels)
            throws Flag.InvalidValue {
        Set<String> unknown = new TreeSet<>();
        List<String> invalid = new ArrayList<>();
        for (var e : labels.entrySet()) {
            if (isKubernetesLabel(e.getKey()) && !isKubeletLabel(e.getKey())) {
                unknown.add(e.getKey());
            }
            List<String> keyErrs = NameValidation.qualifiedName(e.getKey());
            if (!keyErrs.isEmpty()) {
                invalid.add("'" + e.getKey() + "' - " + String.join(", ", keyErrs));
            }
            List<String> valueErrs = NameValidation.labelValue(e.getValue());
            if (!valueErrs.isEmpty()) {
                invalid.add("'" + e.getValue() + "' - " + String.join(", ", valueErrs));
            }
        }
        if (!unknown.isEmpty()) {
            // The kubelet breaks this message in two lines; ours stays on one.
            throw new Flag.InvalidValue(
                    text,
                    "unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: "
                            + "["
                            + String.join(" ", unknown)
                            + "]; --node-labels in the 'kubernetes.io' namespace must begin with an"
                            + " allowed prefix ("
                            + String.join(", ", KUBELET_LABEL_NAMESPACES)
                            + ") or be in the specifically"
                            + " allowed set ("
                            + String.join(", ", KUBELET_LABELS)
                            + ")");
        }
        if (!invalid.isEmpty()) {
            throw new Flag.InvalidValue(text, "invalid node labels: " + String.join("; ", invalid));
        }
    }

    private static boolean isKubernetesLabel(String key) {
        String ns = labelNamespace(key);
        return ns.equals("kubernetes.io")
                || ns.endsWith(".kubernetes.io")
                || ns.equals("k8s.io")
                || ns.endsWith(".k8s.io");
    }

    private static boolean isKubeletLabel(String key) {
        if (KUBELET_LABELS.contains(key)) {
            return true;
        }
        String ns = labelNamespace(key);
        return KUBELET_LABEL_NAMESPACES.stream()
                .anyMatch(a -> ns.equals(a) || ns.endsWith("." + a));
    }

    private static String labelNamespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    /**
     * {@code cliflag.ColonSeparatedMultimapStringString} ({@code --manifest-url-header}):
     * comma-separated {@code name:value} pairs, every occurrence adding values in order.
     */
    static Flag.Conversion<Map<String, List<String>>> colonSeparatedMultimap() {
        return given -> {
            Map<String, List<String>> m = new LinkedHashMap<>();
            for (String text : given) {
                for (String pair : text.split(",")) {
                    String p = pair.trim();
                    if (p.isEmpty()) {
                        continue;
                    }
                    int colon = p.indexOf(':');
                    if (colon < 0) {
                        throw new Flag.InvalidValue(text, "malformed pair, expect string:string");
                    }
                    m.computeIfAbsent(p.substring(0, colon).trim(), k -> new ArrayList<>())
                            .add(p.substring(colon + 1).trim());
                }
            }
            return m;
        };
    }

    /** An http(s) URL for {@code --manifest-url}. */
    static URI httpUrl(String text) throws Flag.InvalidValue {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new Flag.InvalidValue(text, "must be an http or https URL");
    }

    /**
     * A CRI endpoint: {@code unix:///path}, or a bare absolute path taken as a unix socket (the
     * kubelet's deprecated form). Only unix sockets exist on Linux.
     */
    static URI runtimeEndpoint(String text) throws Flag.InvalidValue {
        if (text.isEmpty()) {
            throw new Flag.InvalidValue(
                    text, "the containerRuntimeEndpoint was not specified or empty");
        }
        if (text.startsWith("/")) {
            return URI.create("unix://" + text);
        }
        int sep = text.indexOf("://");
        String protocol = sep < 0 ? "" : text.substring(0, sep);
        if (!protocol.equals("unix")) {
            throw new Flag.InvalidValue(text, "protocol \"" + protocol + "\" not supported");
        }
        String path = text.substring(sep + 3);
        if (!path.startsWith("/")) {
            throw new Flag.InvalidValue(text, "the unix socket path must be absolute");
        }
        return URI.create("unix://" + path);
    }

    /**
     * A Kubernetes quantity of bytes ({@code 10Mi}), rounded up to a whole byte as {@code
     * Quantity.Value()}.
     */
    static long bytes(String text) throws Flag.InvalidValue {
        Quantity q =
                Quantity.parse(text)
                        .orElseThrow(() -> new Flag.InvalidValue(text, Quantity.FORMAT_WRONG));
        if (!q.fitsInt64()) {
            throw new Flag.InvalidValue(text, "value out of range");
        }
        return q.value();
    }
}
