package io.kubepekko.api.kinds;

import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.List;
import java.util.regex.Pattern;

/** Literal IP and CIDR syntax checks, without any name resolution. */
final class IpAddresses {
    private IpAddresses() {}

    private static final Pattern IPV4 =
            Pattern.compile("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})$");
    private static final Pattern HEX_GROUP = Pattern.compile("^[0-9a-fA-F]{1,4}$");

    static final String INVALID_IP =
            "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
    static final String INVALID_CIDR =
            "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

    static List<FieldError> ip(String value, FieldPath path) {
        return isIp(value)
                ? List.of()
                : List.of(FieldError.invalid(path.toString(), value, INVALID_IP));
    }

    static List<FieldError> cidr(String value, FieldPath path) {
        int slash = value.indexOf('/');
        if (slash > 0) {
            String ip = value.substring(0, slash);
            String bits = value.substring(slash + 1);
            int max = isIpv4(ip) ? 32 : isIpv6(ip) ? 128 : -1;
            if (max > 0 && bits.matches("\\d{1,3}") && Integer.parseInt(bits) <= max) {
                return List.of();
            }
        }
        return List.of(FieldError.invalid(path.toString(), value, INVALID_CIDR));
    }

    static boolean isIp(String s) {
        return isIpv4(s) || isIpv6(s);
    }

    static boolean isIpv4(String s) {
        var m = IPV4.matcher(s);
        if (!m.matches()) {
            return false;
        }
        for (int i = 1; i <= 4; i++) {
            if (Integer.parseInt(m.group(i)) > 255) {
                return false;
            }
        }
        return true;
    }

    static boolean isIpv6(String s) {
        if (s.isEmpty() || !s.contains(":")) {
            return false;
        }
        String body = s;
        int groupsNeeded = 8;
        int lastColon = body.lastIndexOf(':');
        String tail = body.substring(lastColon + 1);
        if (tail.contains(".")) {
            if (!isIpv4(tail)) {
                return false;
            }
            body = body.substring(0, lastColon + 1) + "0:0";
        }
        int dbl = body.indexOf("::");
        if (dbl != body.lastIndexOf("::")) {
            return false;
        }
        if (dbl >= 0) {
            String left = body.substring(0, dbl);
            String right = body.substring(dbl + 2);
            int count = groups(left) + groups(right);
            return count >= 0 && count < groupsNeeded;
        }
        return groups(body) == groupsNeeded;
    }

    /**
     * The number of valid hex groups separated by ':', or a large negative number when malformed.
     */
    private static int groups(String part) {
        if (part.isEmpty()) {
            return 0;
        }
        String[] gs = part.split(":", -1);
        for (String g : gs) {
            if (!HEX_GROUP.matcher(g).matches()) {
                return -100;
            }
        }
        return gs.length;
    }
}
