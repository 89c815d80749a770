package io.kubepekko.api.meta;

/**
 * IP addresses printed as Go's {@code net.IP.String()} prints them: IPv4 (and IPv4-mapped IPv6)
 * dotted, IPv6 in RFC 5952's form (lowercase hex without leading zeros, the longest run of two or
 * more zero groups, the first of equal runs, as {@code ::}). Kube compares and logs addresses in
 * this form (an IPAddress's canonical name, an audit event's source IPs).
 */
public final class GoIp {
    private GoIp() {}

    /**
     * The text of an address given as its 4 or 16 bytes, each 0 to 255.
     *
     * @throws IllegalArgumentException for another length
     */
    public static String format(int[] ip) {
        if (ip.length == 4) {
            return ip[0] + "." + ip[1] + "." + ip[2] + "." + ip[3];
        }
        if (ip.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + ip.length);
        }
        if (v4Mapped(ip)) {
            return ip[12] + "." + ip[13] + "." + ip[14] + "." + ip[15];
        }
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (ip[2 * i] << 8) | ip[2 * i + 1];
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLen - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(g[i]));
        }
        return s.toString();
    }

    /** The same for an address's bytes as Java holds them (signed). */
    public static String format(byte[] ip) {
        int[] unsigned = new int[ip.length];
        for (int i = 0; i < ip.length; i++) {
            unsigned[i] = ip[i] & 0xff;
        }
        return format(unsigned);
    }

    /** {@code ::ffff:a.b.c.d}. */
    public static boolean v4Mapped(int[] ip) {
        if (ip.length != 16) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (ip[i] != 0) {
                return false;
            }
        }
        return ip[10] == 0xff && ip[11] == 0xff;
    }
}
