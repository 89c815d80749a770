package io.kubepekko.http.security;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cipher suite names {@code --tls-cipher-suites} accepts: kube takes Go's IANA names (its
 * secure and insecure lists, and two older names of the ChaCha20 suites), which are also JSSE's.
 * Suites the JDK does not implement (RC4, for instance) are accepted and left out when serving, as
 * Go serves only what it implements. TLS 1.3 suites are not configurable in Go; naming them changes
 * nothing, and they stay enabled whatever the list.
 */
public final class CipherSuites {
    private CipherSuites() {}

    /** kube's name to the IANA (and JSSE) name. */
    private static final Map<String, String> KNOWN = known();

    private static Map<String, String> known() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String name :
                List.of(
                        "TLS_AES_128_GCM_SHA256",
                        "TLS_AES_256_GCM_SHA384",
                        "TLS_CHACHA20_POLY1305_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
                        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
                        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
                        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
                        "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
                        "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
                        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
                        "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
                        // Go's insecure list, still accepted by kube (with a warning).
                        "TLS_RSA_WITH_RC4_128_SHA",
                        "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
                        "TLS_RSA_WITH_AES_128_CBC_SHA",
                        "TLS_RSA_WITH_AES_256_CBC_SHA",
                        "TLS_RSA_WITH_AES_128_CBC_SHA256",
                        "TLS_RSA_WITH_AES_128_GCM_SHA256",
                        "TLS_RSA_WITH_AES_256_GCM_SHA384",
                        "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA",
                        "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
                        "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
                        "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256",
                        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256")) {
            m.put(name, name);
        }
        m.put(
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305",
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");
        m.put(
                "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305",
                "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256");
        return Map.copyOf(m);
    }

    /**
     * Go's TLS 1.3 preference on hardware with AES instructions (crypto/tls's
     * defaultCipherSuitesTLS13).
     */
    private static final List<String> GO_TLS13_ORDER =
            List.of(
                    "TLS_AES_128_GCM_SHA256",
                    "TLS_AES_256_GCM_SHA384",
                    "TLS_CHACHA20_POLY1305_SHA256");

    /**
     * {@code enabled} with its TLS 1.3 suites first, in the order Go's server prefers them, the
     * others after them in their given order: the order a server that picks by its own preference
     * needs to choose what kube-apiserver chooses for a client offering AES-GCM.
     */
    public static String[] inGoOrder(String[] enabled) {
        List<String> ordered = new ArrayList<>();
        List<String> given = List.of(enabled);
        for (String suite : GO_TLS13_ORDER) {
            if (given.contains(suite)) {
                ordered.add(suite);
            }
        }
        for (String suite : enabled) {
            if (!ordered.contains(suite)) {
                ordered.add(suite);
            }
        }
        return ordered.toArray(String[]::new);
    }

    /** A name {@code --tls-cipher-suites} does not know. */
    public static final class Unknown extends Exception {
        private static final long serialVersionUID = 1L;

        Unknown(String name) {
            super("Cipher suite " + name + " not supported or doesn't exist", null, false, false);
        }
    }

    /**
     * The IANA names of the comma list {@code text} ({@code ""}: none, the JDK's defaults serve).
     *
     * @throws Unknown naming the first name kube would refuse, in kube's words
     */
    public static List<String> parse(String text) throws Unknown {
        List<String> names = new ArrayList<>();
        if (text.isBlank()) {
            return names;
        }
        for (String given : text.split(",")) {
            String name = given.trim();
            String iana = KNOWN.get(name);
            if (iana == null) {
                throw new Unknown(name);
            }
            if (!names.contains(iana)) {
                names.add(iana);
            }
        }
        return List.copyOf(names);
    }

    /** Whether {@code name} is a TLS 1.3 suite (not configurable, as in Go). */
    static boolean tls13(String name) {
        return !name.contains("_WITH_");
    }
}
