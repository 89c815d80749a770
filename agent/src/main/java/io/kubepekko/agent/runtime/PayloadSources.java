package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The files of the content volumes' sources, as the kubelet's configmap, secret, downwardAPI and
 * projected plugins make their payloads ({@code MakePayload}, {@code CollectData}): each item at
 * its path with its mode, and a missing object or key failing the volume with the plugin's message.
 */
final class PayloadSources {
    private PayloadSources() {}

    /** A source that could not be read; the volume's setup fails with this message. */
    static final class SourceError extends Exception {
        SourceError(String message) {
            super(message, null, false, false);
        }
    }

    static int mode(JsonNode n, String field, int dflt) {
        JsonNode v = n.get(field);
        return v != null && v.isNumber() ? v.intValue() : dflt;
    }

    /**
     * The token of a {@code serviceAccountToken} source at its path, with the volume's mode (the
     * kubelet's projected plugin; without fsUser/fsGroup, which the agent does not apply), or the
     * token request's failure.
     */
    static void tokenFile(
            JsonNode src, int mode, PodInputs inputs, Map<String, VolumePlan.FileContent> files)
            throws SourceError {
        PodInputs.Token token =
                inputs.token(TokenRequestKey.of(src))
                        .orElseThrow(() -> new SourceError("failed to fetch token: not requested"));
        if (token.error() != null) {
            throw new SourceError(token.error());
        }
        files.put(
                Json.text(src, "path"),
                new VolumePlan.FileContent(token.token().getBytes(StandardCharsets.UTF_8), mode));
    }

    static void configMapFiles(
            JsonNode src,
            int defaultMode,
            PodInputs inputs,
            Map<String, VolumePlan.FileContent> files)
            throws SourceError {
        String name = Json.text(src, "name");
        boolean optional = Json.bool(src, "optional");
        Optional<PodInputs.ConfigMapData> cm = inputs.configMap(name);
        if (cm.isEmpty()) {
            if (optional) {
                return;
            }
            throw new SourceError("configmap \"" + name + "\" not found");
        }
        Map<String, byte[]> all = new TreeMap<>();
        cm.get().data().forEach((k, v) -> all.put(k, v.getBytes(StandardCharsets.UTF_8)));
        all.putAll(cm.get().binaryData());
        List<JsonNode> items = Json.items(src, "items");
        if (items.isEmpty()) {
            all.forEach((k, v) -> files.put(k, new VolumePlan.FileContent(v, defaultMode)));
            return;
        }
        for (JsonNode item : items) {
            String key = Json.text(item, "key");
            byte[] data = all.get(key);
            if (data == null) {
                if (optional) {
                    continue;
                }
                throw new SourceError("configmap references non-existent config key: " + key);
            }
            files.put(
                    Json.text(item, "path"),
                    new VolumePlan.FileContent(data, mode(item, "mode", defaultMode)));
        }
    }

    static void secretFiles(
            JsonNode src,
            String name,
            int defaultMode,
            PodInputs inputs,
            Map<String, VolumePlan.FileContent> files)
            throws SourceError {
        boolean optional = Json.bool(src, "optional");
        Optional<PodInputs.SecretData> secret = inputs.secret(name);
        if (secret.isEmpty()) {
            if (optional) {
                return;
            }
            throw new SourceError("secret \"" + name + "\" not found");
        }
        List<JsonNode> items = Json.items(src, "items");
        if (items.isEmpty()) {
            new TreeMap<>(secret.get().data())
                    .forEach((k, v) -> files.put(k, new VolumePlan.FileContent(v, defaultMode)));
            return;
        }
        for (JsonNode item : items) {
            String key = Json.text(item, "key");
            byte[] data = secret.get().data().get(key);
            if (data == null) {
                if (optional) {
                    continue;
                }
                throw new SourceError("references non-existent secret key: " + key);
            }
            files.put(
                    Json.text(item, "path"),
                    new VolumePlan.FileContent(data, mode(item, "mode", defaultMode)));
        }
    }

    static void downwardFiles(
            JsonNode pod,
            JsonNode src,
            int defaultMode,
            NodeContext node,
            List<String> podIps,
            Map<String, VolumePlan.FileContent> files)
            throws SourceError {
        for (JsonNode item : Json.items(src, "items")) {
            String value;
            try {
                if (item.has("fieldRef")) {
                    value =
                            DownwardApi.field(
                                    pod, Json.text(item, "fieldRef", "fieldPath"), node, podIps);
                } else if (item.has("resourceFieldRef")) {
                    JsonNode ref = item.get("resourceFieldRef");
                    String containerName = Json.text(ref, "containerName");
                    JsonNode container =
                            EnvironmentBuilder.findContainer(pod, containerName)
                                    .orElseThrow(
                                            () ->
                                                    new SourceError(
                                                            "container "
                                                                    + containerName
                                                                    + " not found"));
                    value =
                            DownwardApi.resource(
                                    container,
                                    Json.text(ref, "resource"),
                                    Json.text(ref, "divisor"),
                                    node);
                } else {
                    continue;
                }
            } catch (PodConfigException e) {
                throw new SourceError(e.getMessage());
            }
            files.put(
                    Json.text(item, "path"),
                    new VolumePlan.FileContent(
                            value.getBytes(StandardCharsets.UTF_8),
                            mode(item, "mode", defaultMode)));
        }
    }
}
