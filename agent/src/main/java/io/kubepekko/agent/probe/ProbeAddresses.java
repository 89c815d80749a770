package io.kubepekko.agent.probe;

/** Go's {@code net.JoinHostPort}: an IPv6 address in brackets. */
final class ProbeAddresses {
    private ProbeAddresses() {}

    static String hostPort(String host, int port) {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
