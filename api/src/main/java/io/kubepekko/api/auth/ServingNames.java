package io.kubepekko.api.auth;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The names a generated serving certificate is valid for, as k3s and kubeadm list them: loopback,
 * the host, the advertised address, the {@code kubernetes} Service's cluster IP and its DNS names.
 * A certificate issued for other names (the operator changed {@code --advertise-address}) is issued
 * anew.
 *
 * @param dnsNames DNS subject alternative names, in order, without duplicates
 * @param ipAddresses IP subject alternative names as literals, in order, without duplicates
 */
public record ServingNames(List<String> dnsNames, List<String> ipAddresses) {

    /** The DNS names of the {@code kubernetes} Service in {@code default}, shortest first. */
    public static final List<String> SERVICE_DNS_NAMES =
            List.of(
                    "kubernetes",
                    "kubernetes.default",
                    "kubernetes.default.svc",
                    "kubernetes.default.svc.cluster.local");

    public ServingNames {
        dnsNames = List.copyOf(dnsNames);
        ipAddresses = List.copyOf(ipAddresses);
    }

    /**
     * The names of a server on {@code hostName}, advertised at {@code advertiseAddress} (an IP,
     * when given), whose {@code kubernetes} Service has {@code serviceIp}.
     */
    public static ServingNames of(
            String hostName, Optional<String> advertiseAddress, String serviceIp) {
        Set<String> dns = new LinkedHashSet<>();
        Set<String> ips = new LinkedHashSet<>();
        dns.add("localhost");
        ips.add("127.0.0.1");
        ips.add("::1");
        for (String name : List.of(hostName, advertiseAddress.orElse(""), serviceIp)) {
            if (!name.isEmpty()) {
                (isIpLiteral(name) ? ips : dns).add(name);
            }
        }
        dns.addAll(SERVICE_DNS_NAMES);
        return new ServingNames(List.copyOf(dns), List.copyOf(ips));
    }

    /**
     * Whether {@code text} is written as an IP address (dotted IPv4, or IPv6 with colons) rather
     * than a DNS name.
     */
    public static boolean isIpLiteral(String text) {
        return text.matches("\\d{1,3}(\\.\\d{1,3}){3}") || text.contains(":");
    }
}
