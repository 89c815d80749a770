package io.kubepekko.http.audit;

import io.kubepekko.api.meta.GoIp;
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
        return GoIp.format(address.getAddress());
    }
}
