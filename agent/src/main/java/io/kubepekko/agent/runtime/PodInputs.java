package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The ConfigMaps and Secrets of the pod's namespace that its environment and volumes refer to, and
 * the service-account tokens its projected volumes ask for, fetched by the caller. A name absent
 * here is an object that does not exist (kube's {@code configmap "x" not found}). Equal by content,
 * so inputs read again can be told apart from a change (a token refreshed is one).
 */
public record PodInputs(
        Map<String, ConfigMapData> configMaps,
        Map<String, SecretData> secrets,
        Map<TokenRequestKey, Token> tokens) {

    public static final PodInputs NONE = new PodInputs(Map.of(), Map.of());

    public PodInputs {
        configMaps = Map.copyOf(configMaps);
        secrets = Map.copyOf(secrets);
        tokens = Map.copyOf(tokens);
    }

    public PodInputs(Map<String, ConfigMapData> configMaps, Map<String, SecretData> secrets) {
        this(configMaps, secrets, Map.of());
    }

    /**
     * A token of the pod's service account, or why there is none (kube's {@code failed to fetch
     * token: …}, the volume's mount error).
     */
    public record Token(String token, String error) {
        public static Token of(String token) {
            return new Token(token, null);
        }

        public static Token failed(String error) {
            return new Token(null, error);
        }
    }

    /** The token the projection {@code key} gets, when it was asked for. */
    public Optional<Token> token(TokenRequestKey key) {
        return Optional.ofNullable(tokens.get(key));
    }

    public PodInputs withToken(TokenRequestKey key, Token token) {
        Map<TokenRequestKey, Token> m = new HashMap<>(tokens);
        m.put(key, token);
        return new PodInputs(configMaps, secrets, m);
    }

    /** A ConfigMap's {@code data} (text) and {@code binaryData} (bytes). */
    public record ConfigMapData(Map<String, String> data, Map<String, byte[]> binaryData) {
        public ConfigMapData {
            data = Map.copyOf(data);
            binaryData = Map.copyOf(binaryData);
        }

        public static ConfigMapData of(Map<String, String> data) {
            return new ConfigMapData(data, Map.of());
        }

        /** Reads a ConfigMap object as the API serves it. */
        public static ConfigMapData of(JsonNode configMap) {
            Map<String, byte[]> binary = new LinkedHashMap<>();
            Json.stringMap(configMap, "binaryData")
                    .forEach((k, v) -> binary.put(k, Base64.getDecoder().decode(v)));
            return new ConfigMapData(Json.stringMap(configMap, "data"), binary);
        }

        /**
         * By content: the same text and the same bytes (a re-read ConfigMap that did not change is
         * equal).
         */
        @Override
        public boolean equals(Object o) {
            return o instanceof ConfigMapData c
                    && c.data.equals(data)
                    && sameBytes(c.binaryData, binaryData);
        }

        @Override
        public int hashCode() {
            return data.hashCode() * 31 + bytesHash(binaryData);
        }
    }

    /** A Secret's {@code data}, decoded. */
    public record SecretData(Map<String, byte[]> data) {
        public SecretData {
            data = Map.copyOf(data);
        }

        public static SecretData ofStrings(Map<String, String> data) {
            Map<String, byte[]> out = new HashMap<>();
            data.forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
            return new SecretData(out);
        }

        /**
         * Reads a Secret object as the API serves it ({@code data} base64; {@code stringData} is
         * never stored).
         */
        public static SecretData of(JsonNode secret) {
            Map<String, byte[]> out = new LinkedHashMap<>();
            Json.stringMap(secret, "data")
                    .forEach((k, v) -> out.put(k, Base64.getDecoder().decode(v)));
            return new SecretData(out);
        }

        /** By content: the same keys and bytes (a re-read Secret that did not change is equal). */
        @Override
        public boolean equals(Object o) {
            return o instanceof SecretData d && sameBytes(d.data, data);
        }

        @Override
        public int hashCode() {
            return bytesHash(data);
        }
    }

    private static boolean sameBytes(Map<String, byte[]> a, Map<String, byte[]> b) {
        if (!a.keySet().equals(b.keySet())) {
            return false;
        }
        for (var e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static int bytesHash(Map<String, byte[]> m) {
        int h = 0;
        for (var e : m.entrySet()) {
            h += e.getKey().hashCode() ^ Arrays.hashCode(e.getValue());
        }
        return h;
    }

    public Optional<ConfigMapData> configMap(String name) {
        return Optional.ofNullable(configMaps.get(name));
    }

    public Optional<SecretData> secret(String name) {
        return Optional.ofNullable(secrets.get(name));
    }

    public PodInputs withConfigMap(String name, ConfigMapData cm) {
        Map<String, ConfigMapData> m = new HashMap<>(configMaps);
        m.put(name, cm);
        return new PodInputs(m, secrets, tokens);
    }

    public PodInputs withSecret(String name, SecretData s) {
        Map<String, SecretData> m = new HashMap<>(secrets);
        m.put(name, s);
        return new PodInputs(configMaps, m, tokens);
    }
}
