package io.kubepekko.http.audit;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An event's {@code sourceIPs} as kube's {@code utilnet.SourceIPs} lists them: the valid addresses
 * of {@code X-Forwarded-For} in order, then {@code X-Real-Ip} unless already listed, then the
 * connection's address unless it is the last one listed. Addresses print as Go prints them ({@code
 * ::1}, not {@code 0:0:0:0:0:0:0:1}).
 */
public final class SourceIps {
    private SourceIps() {}

    // a literal only: InetAddress.getByName would resolve a host name
    private static final Pattern LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /**
     * @param forwardedFor the {@code X-Forwarded-For} header, or null
     * @param realIp the {@code X-Real-Ip} header, or null
     * @param remote the connection's peer address
     */
    public static List<String> of(String forwardedFor, String realIp, InetAddress remote) {
        List<String> ips = new ArrayList<>();
        if (forwardedFor != null && !forwardedFor.isEmpty()) {
            for (String part : forwardedFor.split(",", -1)) {
                parse(part.trim()).ifPresent(ips::add);
            }
        }
        if (realIp != null && !realIp.isEmpty()) {
            parse(realIp).filter(ip -> !ips.contains(ip)).ifPresent(ips::add);
        }
        if (remote != null) {
            String ip = format(remote);
            if (ips.isEmpty() || !ips.get(ips.size() - 1).equals(ip)) {
                ips.add(ip);
            }
        }
        return ips;
    }

    private static Optional<String> parse(String text) {
        if (!LITERAL.matcher(text).matches()) {
            return Optional.empty();
        }
        if (!text.contains(":") && !text.matches("(\\d{1,3})(\\.\\d{1,3}){3}")) {
            return Optional.empty();
        }
        try {
            return Optional.of(format(InetAddress.getByName(text)));
        } catch (UnknownHostException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Go's {@code net.IP.String()}: IPv4 dotted, IPv6 with the longest zero run as {@code ::}. */
    static String format(InetAddress address) {
        if (address instanceof Inet4Address || !(address instanceof Inet6Address)) {
            return address.getHostAddress();
        }
        byte[] b = address.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
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
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }
}
