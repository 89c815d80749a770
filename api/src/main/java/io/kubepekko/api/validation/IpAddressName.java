package io.kubepekko.api.validation;

import io.kubepekko.api.meta.GoIp;
import java.util.List;

/**
 * The name rule of networking.k8s.io IPAddresses ({@code ValidateIPAddressName}): the name is an IP
 * address as kube's {@code validation.IsValidIP} wants a new value, parsed as Go's {@code
 * net.ParseIP} does, then refused with leading zeros in an IPv4 part (which Go's {@code netip}
 * rejects), as an IPv4-mapped IPv6 address, or when it is not written the way Go prints it ({@code
 * net.IP.String()}: dotted decimal, or RFC 5952's lowercase, shortest IPv6 form). IPAddresses
 * generate no names, so a {@code generateName} must be such an address too.
 */
public final class IpAddressName {
    private IpAddressName() {}

    static final String INVALID = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";

    /** kube's messages for {@code name}; empty when it names an IP address in canonical form. */
    public static List<String> messages(String name) {
        int[] ip = parse(name);
        if (ip == null) {
            return List.of(INVALID);
        }
        if (hasLeadingZero(name)) {
            return List.of("must not have leading 0s");
        }
        if (GoIp.v4Mapped(ip)) {
            return List.of("must not be an IPv4-mapped IPv6 address");
        }
        String canonical = format(ip);
        if (!canonical.equals(name)) {
            return List.of("must be in canonical form (\"" + canonical + "\")");
        }
        return List.of();
    }

    /** The address's bytes (4 for IPv4, 16 for IPv6), or null when Go's net.ParseIP refuses it. */
    static int[] parse(String s) {
        if (s.indexOf(':') < 0) {
            return parse4(s);
        }
        return parse6(s);
    }

    private static int[] parse4(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        int[] out = new int[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            out[i] = v;
        }
        return out;
    }

    private static int[] parse6(String s) {
        int[] out = new int[16];
        String body = s;
        int limit = 16;
        int lastColon = s.lastIndexOf(':');
        String tail = s.substring(lastColon + 1);
        if (tail.contains(".")) {
            int[] v4 = parse4(tail);
            if (v4 == null) {
                return null;
            }
            for (int i = 0; i < 4; i++) {
                out[12 + i] = v4[i];
            }
            limit = 12;
            // "1::1.2.3.4" keeps its "::"; "::ffff:1.2.3.4" drops the colon before the address
            body = s.substring(0, lastColon);
            if (body.endsWith(":")) {
                body = body + ":";
            }
            if (body.isEmpty()) {
                return null;
            }
        }
        int dbl = body.indexOf("::");
        if (dbl >= 0 && body.indexOf("::", dbl + 1) >= 0) {
            return null;
        }
        List<String> left;
        List<String> right;
        if (dbl >= 0) {
            left = groups(body.substring(0, dbl));
            right = groups(body.substring(dbl + 2));
        } else {
            left = groups(body);
            right = List.of();
        }
        if (left == null || right == null) {
            return null;
        }
        int have = 2 * (left.size() + right.size());
        if (dbl >= 0 ? have >= limit : have != limit) {
            return null;
        }
        int i = 0;
        for (String g : left) {
            int v = Integer.parseInt(g, 16);
            out[i++] = v >> 8;
            out[i++] = v & 0xff;
        }
        int j = limit - 2 * right.size();
        for (String g : right) {
            int v = Integer.parseInt(g, 16);
            out[j++] = v >> 8;
            out[j++] = v & 0xff;
        }
        return out;
    }

    /** Colon-separated hex groups of one to four digits; null when malformed. */
    private static List<String> groups(String part) {
        if (part.isEmpty()) {
            return List.of();
        }
        String[] gs = part.split(":", -1);
        for (String g : gs) {
            if (g.isEmpty() || g.length() > 4 || !g.chars().allMatch(IpAddressName::isHex)) {
                return null;
            }
        }
        return List.of(gs);
    }

    private static boolean isHex(int c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** An IPv4 part written with a leading zero ({@code 010}), which netip.ParseAddr refuses. */
    private static boolean hasLeadingZero(String s) {
        int lastColon = s.lastIndexOf(':');
        String v4 = s.substring(lastColon + 1);
        if (!v4.contains(".")) {
            return false;
        }
        for (String p : v4.split("\\.", -1)) {
            if (p.length() > 1 && p.charAt(0) == '0') {
                return true;
            }
        }
        return false;
    }

    /** Go's {@code net.IP.String()}. */
    static String format(int[] ip) {
        return GoIp.format(ip);
    }
}
