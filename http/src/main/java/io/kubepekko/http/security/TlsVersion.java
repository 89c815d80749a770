package io.kubepekko.http.security;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The lowest TLS version the secure port accepts, by kube's {@code --tls-min-version} names. The
 * JDK refuses TLS 1.0 and 1.1 by default (jdk.tls.disabledAlgorithms): naming them is accepted, as
 * kube accepts it, but only 1.2 and 1.3 are negotiated.
 */
public enum TlsVersion {
    TLS10("VersionTLS10", "TLSv1"),
    TLS11("VersionTLS11", "TLSv1.1"),
    TLS12("VersionTLS12", "TLSv1.2"),
    TLS13("VersionTLS13", "TLSv1.3");

    private final String flagName;
    private final String protocol;

    TlsVersion(String flagName, String protocol) {
        this.flagName = flagName;
        this.protocol = protocol;
    }

    /** The name {@code --tls-min-version} takes. */
    public String flagName() {
        return flagName;
    }

    /** The version by its flag name. */
    public static Optional<TlsVersion> named(String flagName) {
        return Arrays.stream(values()).filter(v -> v.flagName.equals(flagName)).findFirst();
    }

    /** The JSSE protocol names of this version and every later one. */
    List<String> protocolsFromHere() {
        return Arrays.stream(values())
                .filter(v -> v.compareTo(this) >= 0)
                .map(v -> v.protocol)
                .toList();
    }
}
