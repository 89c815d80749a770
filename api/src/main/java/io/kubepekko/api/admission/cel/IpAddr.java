package io.kubepekko.api.admission.cel;

import java.math.BigInteger;

/**
 * An IP address as Go's {@code netip.Addr} holds it (kube's CEL {@code net.IP}): 32 or 128 bits.
 * {@link #parse} reads text with Go's rules and words its errors as Go does ({@code ParseAddr("x"):
 * ...}), since kube's messages carry them: the JDK's {@code InetAddress} would look a host name up
 * and accepts forms Go refuses (octal-looking octets, fewer than four IPv4 fields), and Guava's
 * parser turns {@code ::ffff:1.2.3.4} into an IPv4 address, so neither can tell kube's refusals
 * apart.
 */
record IpAddr(BigInteger bits, int width, String zone) {

    static final int V4 = 32;
    static final int V6 = 128;

    /** A text Go's {@code netip.ParseAddr} refuses, in its words. */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    boolean is4() {
        return width == V4;
    }

    /** Go's {@code Is4In6}: {@code ::ffff:a.b.c.d}. */
    boolean is4In6() {
        return width == V6 && bits.shiftRight(32).equals(BigInteger.valueOf(0xffff));
    }

    /** Byte {@code i} from the left (0 is the first). */
    int octet(int i) {
        return bits.shiftRight(width - 8 * (i + 1)).intValue() & 0xff;
    }

    boolean isUnspecified() {
        return bits.signum() == 0;
    }

    boolean isLoopback() {
        return is4() ? octet(0) == 127 : bits.equals(BigInteger.ONE);
    }

    boolean isLinkLocalMulticast() {
        return is4()
                ? octet(0) == 224 && octet(1) == 0 && octet(2) == 0
                : octet(0) == 0xff && (octet(1) & 0x0f) == 0x02;
    }

    boolean isLinkLocalUnicast() {
        return is4()
                ? octet(0) == 169 && octet(1) == 254
                : octet(0) == 0xfe && (octet(1) & 0xc0) == 0x80;
    }

    boolean isMulticast() {
        return is4() ? (octet(0) & 0xf0) == 0xe0 : octet(0) == 0xff;
    }

    /**
     * Go's {@code IsGlobalUnicast}: neither unspecified, broadcast, loopback, multicast nor
     * link-local.
     */
    boolean isGlobalUnicast() {
        if (is4() && bits.equals(BigInteger.valueOf(0xffffffffL))) {
            return false;
        }
        return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
    }

    /** The address with every bit after the first {@code prefix} cleared. */
    IpAddr masked(int prefix) {
        BigInteger mask =
                BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE).shiftRight(prefix).not();
        return new IpAddr(
                bits.and(mask).and(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE)),
                width,
                "");
    }

    /**
     * Go's {@code Addr.String}: dotted IPv4, RFC 5952 IPv6 (the longest run of 2+ zero fields as
     * ::).
     */
    @Override
    public String toString() {
        if (is4()) {
            return octet(0) + "." + octet(1) + "." + octet(2) + "." + octet(3);
        }
        int[] f = new int[8];
        for (int i = 0; i < 8; i++) {
            f[i] = bits.shiftRight(112 - 16 * i).intValue() & 0xffff;
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && f[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        StringBuilder out = new StringBuilder();
        if (is4In6()) {
            out.append("::ffff:")
                    .append(octet(12))
                    .append('.')
                    .append(octet(13))
                    .append('.')
                    .append(octet(14))
                    .append('.')
                    .append(octet(15));
        } else {
            for (int i = 0; i < 8; i++) {
                if (i == bestStart) {
                    out.append("::");
                    i += bestLen - 1;
                    continue;
                }
                if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                    out.append(':');
                }
                out.append(Integer.toHexString(f[i]));
            }
        }
        return zone.isEmpty() ? out.toString() : out + "%" + zone;
    }

    /** Go's {@code netip.ParseAddr}. */
    static IpAddr parse(String s) throws ParseException {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.':
                    return parse4(s, s);
                case ':':
                    return parse6(s);
                case '%':
                    throw error(s, "missing IPv6 address", null);
                default:
            }
        }
        throw error(s, "unable to parse IP", null);
    }

    private static ParseException error(String in, String msg, String at) {
        String text = "ParseAddr(" + GoQuote.quote(in) + "): " + msg;
        return new ParseException(at == null ? text : text + " (at " + GoQuote.quote(at) + ")");
    }

    private static IpAddr parse4(String s, String in) throws ParseException {
        long value = 0;
        int fields = 0;
        int field = 0;
        int digits = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digits == 1 && field == 0) {
                    throw error(in, "IPv4 field has octet with leading zero", null);
                }
                field = field * 10 + (c - '0');
                digits++;
                if (field > 255) {
                    throw error(in, "IPv4 field has value >255", null);
                }
            } else if (c == '.') {
                if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
                    throw error(in, "IPv4 field must have at least one digit", s.substring(i));
                }
                if (fields == 3) {
                    throw error(in, "IPv4 address too long", null);
                }
                value = value << 8 | field;
                fields++;
                field = 0;
                digits = 0;
            } else {
                throw error(in, "unexpected character", s.substring(i));
            }
        }
        if (fields < 3) {
            throw error(in, "IPv4 address too short", null);
        }
        return new IpAddr(BigInteger.valueOf(value << 8 | field), V4, "");
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    private static IpAddr parse6(String in) throws ParseException {
        String s = in;
        String zone = "";
        int percent = s.indexOf('%');
        if (percent >= 0) {
            zone = s.substring(percent + 1);
            s = s.substring(0, percent);
            if (zone.isEmpty()) {
                throw error(in, "zone must be a non-empty string", null);
            }
        }
        int[] fields = new int[8];
        int n = 0;
        int ellipsis = -1;
        if (s.startsWith("::")) {
            ellipsis = 0;
            s = s.substring(2);
            if (s.isEmpty()) {
                return new IpAddr(BigInteger.ZERO, V6, zone);
            }
        }
        while (n < 8) {
            int i = 0;
            int acc = 0;
            while (i < s.length()) {
                int d = hex(s.charAt(i));
                if (d < 0) {
                    break;
                }
                acc = acc << 4 | d;
                i++;
                if (i > 4 || acc > 0xffff) {
                    throw error(in, "IPv6 field has value >=2^16", s);
                }
            }
            if (i == 0) {
                throw error(in, "each colon-separated field must have at least one digit", s);
            }
            if (i < s.length() && s.charAt(i) == '.') {
                if (ellipsis < 0 && n != 6) {
                    throw error(
                            in,
                            "embedded IPv4 address must replace the final 2 fields of the address",
                            s);
                }
                if (n + 1 >= 8) {
                    throw error(
                            in,
                            "too many hex fields to fit an embedded IPv4 at the end of the address",
                            s);
                }
                IpAddr v4;
                try {
                    v4 = parse4(s, s);
                } catch (ParseException e) {
                    throw error(in, e.getMessage(), s);
                }
                long v = v4.bits().longValue();
                fields[n++] = (int) (v >>> 16);
                fields[n++] = (int) (v & 0xffff);
                s = "";
                break;
            }
            fields[n++] = acc;
            s = s.substring(i);
            if (s.isEmpty()) {
                break;
            }
            if (s.charAt(0) != ':') {
                throw error(in, "unexpected character, want colon", s);
            } else if (s.length() == 1) {
                throw error(in, "colon must be followed by more characters", s);
            }
            s = s.substring(1);
            if (s.charAt(0) == ':') {
                if (ellipsis >= 0) {
                    throw error(in, "multiple :: in address", s);
                }
                ellipsis = n;
                s = s.substring(1);
                if (s.isEmpty()) {
                    break;
                }
            }
        }
        if (!s.isEmpty()) {
            throw error(in, "trailing garbage after address", s);
        }
        if (n < 8) {
            if (ellipsis < 0) {
                throw error(in, "address string too short", null);
            }
            int shift = 8 - n;
            for (int j = n - 1; j >= ellipsis; j--) {
                fields[j + shift] = fields[j];
            }
            for (int j = ellipsis + shift - 1; j >= ellipsis; j--) {
                fields[j] = 0;
            }
        } else if (ellipsis >= 0) {
            throw error(in, "the :: must expand to at least one field of zeros", null);
        }
        BigInteger value = BigInteger.ZERO;
        for (int f : fields) {
            value = value.shiftLeft(16).or(BigInteger.valueOf(f));
        }
        return new IpAddr(value, V6, zone);
    }
}
