package io.kubepekko.agent.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * The host's resolver configuration ({@code /etc/resolv.conf}) as the kubelet reads it for pods
 * that use the node's DNS ({@code dnsPolicy: Default}, host-network {@code ClusterFirst}, or {@code
 * ClusterFirst} without a cluster DNS): {@code nameserver}, {@code search} and {@code options}
 * lines (dns.go {@code parseResolvConf}).
 */
public record ResolvConf(List<String> servers, List<String> searches, List<String> options) {

    public static final ResolvConf EMPTY = new ResolvConf(List.of(), List.of(), List.of());

    public ResolvConf {
        servers = List.copyOf(servers);
        searches = List.copyOf(searches);
        options = List.copyOf(options);
    }

    /**
     * Parses resolv.conf text; the last {@code search} line wins, as in the resolver and the
     * kubelet.
     */
    public static ResolvConf parse(String text) {
        List<String> servers = new ArrayList<>();
        List<String> searches = new ArrayList<>();
        List<String> options = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw;
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            String[] f = line.trim().split("\\s+");
            if (f.length < 1 || f[0].isEmpty()) {
                continue;
            }
            switch (f[0]) {
                case "nameserver" -> {
                    if (f.length > 1) {
                        servers.add(f[1]);
                    }
                }
                case "search" -> {
                    searches.clear();
                    for (int i = 1; i < f.length; i++) {
                        // kube drops "." and trims a trailing dot so one domain counts once (dns.go
                        // parseResolvConf)
                        if (!f[i].equals(".")) {
                            searches.add(
                                    f[i].endsWith(".")
                                            ? f[i].substring(0, f[i].length() - 1)
                                            : f[i]);
                        }
                    }
                }
                case "options" -> {
                    for (int i = 1; i < f.length; i++) {
                        options.add(f[i]);
                    }
                }
                default -> {}
            }
        }
        return new ResolvConf(servers, searches, options);
    }
}
