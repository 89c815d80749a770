package io.kubepekko.http.server;

import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.auth.authorizer.AuthorizationMode;
import io.kubepekko.api.flags.Flag;
import io.kubepekko.api.flags.Ports;
import io.kubepekko.api.meta.GoDurations;
import io.kubepekko.http.security.CipherSuites;
import io.kubepekko.http.security.TlsVersion;
import io.kubepekko.persistence.StorageSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How the text of an API server flag becomes its value: each converter checks the text and refuses
 * it with a {@link Flag.InvalidValue} in kube-apiserver's wording (or the wording of the tool whose
 * flag it mirrors: etcd, Cassandra). {@link ApiServerFlags} names one of these per flag; a new flag
 * of a new kind of value adds its converter here.
 */
final class ServerFlagValues {
    private ServerFlagValues() {}

    static Path dataDir(String value) throws Flag.InvalidValue {
        if (value.isEmpty()) {
            throw new Flag.InvalidValue(value, "must not be empty");
        }
        return Path.of(value);
    }

    static StorageSettings.Profile profile(String value) throws Flag.InvalidValue {
        return StorageSettings.Profile.named(value)
                .orElseThrow(() -> new Flag.InvalidValue(value, "must be embedded or cassandra"));
    }

    /** A byte count, as etcd's {@code --quota-backend-bytes} takes it (0: the default). */
    static long quotaBytes(String value) throws Flag.InvalidValue {
        try {
            long bytes = Long.parseLong(value);
            if (bytes >= 0) {
                return bytes;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Flag.InvalidValue(value, "must be a number of bytes, 0 or more");
    }

    /** {@code host:port[,host:port...]}; an IPv6 host in brackets ({@code [::1]:9042}). */
    static List<String> hostPorts(String value) throws Flag.InvalidValue {
        List<String> points = new ArrayList<>();
        for (String raw : value.split(",", -1)) {
            String point = raw.trim();
            int colon = point.lastIndexOf(':');
            String host = colon > 0 ? point.substring(0, colon) : "";
            String port = colon > 0 ? point.substring(colon + 1) : "";
            boolean portOk =
                    port.matches("[0-9]{1,5}")
                            && Integer.parseInt(port) >= 1
                            && Integer.parseInt(port) <= 65535;
            boolean hostOk =
                    !host.isEmpty()
                            && (host.matches("\\[[0-9a-fA-F:.]+]")
                                    || host.matches("[A-Za-z0-9.-]+"));
            if (!portOk || !hostOk) {
                throw new Flag.InvalidValue(value, "\"" + point + "\" is not host:port");
            }
            points.add(point);
        }
        return points;
    }

    /** Cassandra's own rule for keyspace names (the plugin checks the same). */
    static String keyspace(String value) throws Flag.InvalidValue {
        if (!value.matches("[a-zA-Z][a-zA-Z0-9_]{0,47}")) {
            throw new Flag.InvalidValue(
                    value,
                    "must be a letter followed by at most 47 letters, digits or underscores");
        }
        return value;
    }

    /**
     * One IPv4 CIDR. kube-apiserver's own refusal of a malformed value is kept; IPv6 and a second
     * (dual-stack) range, which kube-apiserver accepts, are refused as not supported here.
     */
    static Ipv4Cidr clusterIpRange(String value) throws Flag.InvalidValue {
        if (value.contains(",")) {
            throw new Flag.InvalidValue(
                    value, "dual-stack service CIDRs are not supported, give one IPv4 range");
        }
        if (value.contains(":")) {
            throw new Flag.InvalidValue(
                    value, "IPv6 service CIDRs are not supported, give an IPv4 range");
        }
        try {
            return Ipv4Cidr.parse(value.trim());
        } catch (IllegalArgumentException e) {
            throw new Flag.InvalidValue(value, "service-cluster-ip-range[0] is not a valid cidr");
        }
    }

    static PortRange nodePortRange(String value) throws Flag.InvalidValue {
        try {
            return PortRange.parse(value);
        } catch (IllegalArgumentException e) {
            throw new Flag.InvalidValue(value, e.getMessage());
        }
    }

    static String address(String value) throws Flag.InvalidValue {
        if (value.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            try {
                InetAddress.getByName(value); // a literal only (checked above): never a name lookup
                return value;
            } catch (UnknownHostException e) {
                // refused below
            }
        }
        throw new Flag.InvalidValue(value, "not an IP address");
    }

    /** An IP address or a DNS name. */
    static String hostname(String value) throws Flag.InvalidValue {
        if (!value.matches("[A-Za-z0-9.-]+|[0-9a-fA-F:]+")
                || value.startsWith("-")
                || value.startsWith(".")) {
            throw new Flag.InvalidValue(value, "not an IP address or host name");
        }
        return value;
    }

    static int port(String value) throws Flag.InvalidValue {
        String reason = "must be a port number 0-65535";
        return Ports.parse(
                value,
                text -> {
                    try {
                        return Integer.parseInt(text);
                    } catch (NumberFormatException e) {
                        throw new Flag.InvalidValue(text, reason);
                    }
                },
                p -> reason);
    }

    /** A byte count as etcd's {@code --max-request-bytes} takes it: a positive decimal integer. */
    static long positiveBytes(String value) throws Flag.InvalidValue {
        try {
            long n = Long.parseLong(value);
            if (n > 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Flag.InvalidValue(
                value, "must be a number of bytes from 1 to " + Integer.MAX_VALUE);
    }

    static Duration positive(String value) throws Flag.InvalidValue {
        Duration d = duration(value);
        if (d.isZero()) {
            throw new Flag.InvalidValue(value, "must be positive");
        }
        return d;
    }

    /** A Go duration ({@code 10s}, {@code 1m30s}), not negative. */
    static Duration duration(String value) throws Flag.InvalidValue {
        try {
            Duration d = Duration.ofNanos(GoDurations.parse(value));
            if (!d.isNegative()) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // refused below
        }
        throw new Flag.InvalidValue(value, "time: invalid duration \"" + value + "\"");
    }

    /**
     * A Go duration as pflag's duration flags take it, negative ones too: the flag's own check
     * refuses what it does not want, in its words.
     */
    static Duration signedDuration(String value) throws Flag.InvalidValue {
        try {
            return Duration.ofNanos(GoDurations.parse(value));
        } catch (IllegalArgumentException e) {
            throw new Flag.InvalidValue(value, "time: " + e.getMessage());
        }
    }

    /**
     * pflag's string slice ({@code strings}): every occurrence is a comma-separated list, appended
     * to the ones before; an empty value is an empty list. (pflag reads each as a CSV record;
     * quoted fields are not read here.)
     */
    static List<String> stringSlice(List<String> given) {
        List<String> values = new ArrayList<>();
        for (String text : given) {
            if (!text.isEmpty()) {
                values.addAll(List.of(text.split(",", -1)));
            }
        }
        return List.copyOf(values);
    }

    static TlsVersion tlsVersion(String value) throws Flag.InvalidValue {
        return TlsVersion.named(value)
                .orElseThrow(
                        () ->
                                new Flag.InvalidValue(
                                        value, "unknown tls version \"" + value + "\""));
    }

    static List<String> cipherSuites(String value) throws Flag.InvalidValue {
        try {
            return CipherSuites.parse(value);
        } catch (CipherSuites.Unknown e) {
            throw new Flag.InvalidValue(value, e.getMessage());
        }
    }

    /** {@code --authorization-mode}: kube's list, refused in kube's words. */
    static List<AuthorizationMode> authorizationModes(String value) throws Flag.InvalidValue {
        AuthorizationMode.Parsed parsed = AuthorizationMode.parse(value);
        if (parsed.problem().isPresent()) {
            throw new Flag.InvalidValue(value, parsed.problem().get());
        }
        return parsed.modes();
    }

    /** A Go {@code int} flag: pflag's refusal of a value that is not one. */
    static int integer(String value) throws Flag.InvalidValue {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new Flag.InvalidValue(
                    value, "strconv.ParseInt: parsing \"" + value + "\": invalid syntax");
        }
    }
}
