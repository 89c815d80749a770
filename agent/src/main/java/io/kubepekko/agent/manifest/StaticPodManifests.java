package io.kubepekko.agent.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.api.kinds.PodDefaults;
import io.kubepekko.api.kinds.PodSpecValidation;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Static pod manifests read into pods as the kubelet's {@code pkg/kubelet/config} does ({@code
 * applyDefaults}, {@code tryDecodeSinglePod}, {@code tryDecodePodList}): YAML or JSON (the YAML
 * parser reads both), one {@code Pod}, or from a URL (and from a manifest posted to the agent) also
 * a {@code PodList} (or {@code List}) of pods. Each pod:
 *
 * <ul>
 *   <li>without a uid gets the md5 of {@code host:<node>file:<path>} (a file) or {@code url:<url>}
 *       followed by the manifest's pod: the same manifest always gives the same uid, any change a
 *       new one (a new pod);
 *   <li>is named {@code <name>-<node>} (node lower-cased), in namespace {@code default} when it
 *       names none, bound to the node ({@code spec.nodeName});
 *   <li>carries {@code kubernetes.io/config.hash} (the uid), {@code kubernetes.io/config.source}
 *       and {@code kubernetes.io/config.seen};
 *   <li>from a file, tolerates every {@code NoExecute} taint (the kubelet keeps static pods through
 *       node problems);
 *   <li>is defaulted and validated like an API pod ({@link PodDefaults}, {@link
 *       PodSpecValidation}).
 * </ul>
 *
 * The pod's canonical JSON (object keys sorted) is hashed, so key order and formatting do not
 * change the uid, as the kubelet's hash of the decoded object does not depend on them.
 */
public final class StaticPodManifests {
    private StaticPodManifests() {}

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FieldPath SPEC = FieldPath.of("spec");

    /**
     * Reads one manifest.
     *
     * @param data the file's bytes or the URL's body
     * @param origin where it was read (hashed into each pod's uid)
     * @param nodeName this node's name
     * @param seen the value of {@code kubernetes.io/config.seen} (not hashed)
     */
    public static ManifestResult parse(
            byte[] data, ManifestOrigin origin, String nodeName, Instant seen) {
        JsonNode doc;
        try {
            doc = YAML.readTree(data);
        } catch (IOException e) {
            return invalid(
                    origin,
                    ManifestError.Problem.MALFORMED,
                    "couldn't parse as YAML or JSON: " + firstLine(e));
        }
        if (doc == null || !doc.isObject()) {
            return invalid(
                    origin,
                    ManifestError.Problem.NOT_A_POD,
                    "couldn't parse as pod: not an object");
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (kind.isEmpty()) {
            return invalid(
                    origin,
                    ManifestError.Problem.NOT_A_POD,
                    "couldn't parse as pod: Object 'Kind' is missing");
        }
        if (!apiVersion.equals("v1")) {
            return invalid(
                    origin,
                    ManifestError.Problem.NOT_A_POD,
                    "couldn't parse as pod: apiVersion \"" + apiVersion + "\" is not v1");
        }
        List<JsonNode> items = new ArrayList<>();
        if (kind.equals("Pod")) {
            items.add(doc);
        } else if ((kind.equals("PodList") || kind.equals("List"))
                && origin.kind() != ManifestOrigin.Kind.FILE) {
            doc.path("items").forEach(items::add);
        } else {
            return invalid(
                    origin,
                    ManifestError.Problem.NOT_A_POD,
                    "couldn't parse as pod: kind " + kind + " is not Pod");
        }
        List<ObjectNode> pods = new ArrayList<>();
        for (JsonNode item : items) {
            if (!item.isObject() || !item.path("kind").asText("Pod").equals("Pod")) {
                return invalid(
                        origin,
                        ManifestError.Problem.NOT_A_POD,
                        "invalid pods list: an item is not a Pod");
            }
            ObjectNode pod = ((ObjectNode) item).deepCopy();
            pod.put("apiVersion", "v1");
            pod.put("kind", "Pod");
            List<String> errors = applyDefaults(pod, origin, nodeName, seen);
            if (!errors.isEmpty()) {
                return invalid(origin, ManifestError.Problem.INVALID, "invalid pod: " + errors);
            }
            pods.add(pod);
        }
        return new ManifestResult.Pods(pods);
    }

    /** The uid the kubelet gives a pod of {@code origin} on {@code nodeName} without one. */
    public static String hash(JsonNode pod, ManifestOrigin origin, String nodeName) {
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has MD5", e);
        }
        String prefix =
                switch (origin.kind()) {
                    case FILE -> "host:" + nodeName + "file:" + origin.location();
                    case HTTP -> "url:" + origin.location();
                    // Our own: like a file, the node and the manifest's name (the kubelet has no
                    // posted source any more).
                    case SERVER -> "host:" + nodeName + "server:" + origin.location();
                };
        md5.update(prefix.getBytes(StandardCharsets.UTF_8));
        try {
            md5.update(JSON.writeValueAsBytes(canonical(pod)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tree always serializes", e);
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    /** RFC 3339 with nanoseconds, as the kubelet writes {@code kubernetes.io/config.seen}. */
    public static String seenTimestamp(Instant seen) {
        return DateTimeFormatter.ISO_INSTANT.format(seen);
    }

    private static List<String> applyDefaults(
            ObjectNode pod, ManifestOrigin origin, String nodeName, Instant seen) {
        JsonNode rawMeta = pod.get("metadata");
        if (rawMeta != null && !rawMeta.isObject()) {
            return List.of("metadata: must be an object");
        }
        if (pod.has("spec") && !pod.get("spec").isObject()) {
            return List.of("spec: must be an object");
        }
        ObjectNode meta = pod.with("metadata");
        String name = meta.path("name").asText("");
        if (name.isEmpty()) {
            return List.of("metadata.name: Required value: name or generateName is required");
        }
        String uid = meta.path("uid").asText("");
        if (uid.isEmpty()) {
            uid = hash(pod, origin, nodeName);
            meta.put("uid", uid);
        }
        String node = nodeName.toLowerCase(Locale.ROOT);
        meta.put("name", name + "-" + node);
        if (meta.path("namespace").asText("").isEmpty()) {
            meta.put("namespace", "default");
        }
        ObjectNode spec = pod.with("spec");
        spec.put("nodeName", nodeName);
        ObjectNode annotations = meta.with("annotations");
        annotations.put(StaticPodAnnotations.CONFIG_HASH, uid);
        annotations.put(StaticPodAnnotations.CONFIG_SOURCE, origin.kind().configSource());
        annotations.put(StaticPodAnnotations.CONFIG_SEEN, seenTimestamp(seen));
        if (origin.kind() == ManifestOrigin.Kind.FILE) {
            tolerateNoExecute(spec);
        }
        pod.remove("status");
        PodDefaults.defaultPodSpec(spec);

        List<String> errors = new ArrayList<>();
        for (String e : NameValidation.dns1123Subdomain(meta.path("name").asText())) {
            errors.add(
                    "metadata.name: Invalid value: \"" + meta.path("name").asText() + "\": " + e);
        }
        for (String e : NameValidation.dns1123Label(meta.path("namespace").asText())) {
            errors.add(
                    "metadata.namespace: Invalid value: \""
                            + meta.path("namespace").asText()
                            + "\": "
                            + e);
        }
        for (FieldError e : PodSpecValidation.validatePodSpec(spec, SPEC, true)) {
            errors.add(e.field() + ": " + e.body());
        }
        return errors;
    }

    /**
     * The kubelet's {@code AddOrUpdateTolerationInPod(Exists, NoExecute)}: added unless already
     * there.
     */
    private static void tolerateNoExecute(ObjectNode spec) {
        JsonNode existing = spec.get("tolerations");
        ArrayNode tolerations = existing instanceof ArrayNode a ? a : spec.putArray("tolerations");
        for (JsonNode t : tolerations) {
            if (t.path("operator").asText().equals("Exists")
                    && t.path("effect").asText().equals("NoExecute")
                    && t.path("key").asText("").isEmpty()) {
                return;
            }
        }
        tolerations.addObject().put("operator", "Exists").put("effect", "NoExecute");
    }

    /** The tree with every object's keys sorted (so the hash sees content, not layout). */
    private static JsonNode canonical(JsonNode node) {
        if (node.isObject()) {
            Map<String, JsonNode> sorted = new TreeMap<>();
            node.fields().forEachRemaining(e -> sorted.put(e.getKey(), canonical(e.getValue())));
            ObjectNode out = JSON.createObjectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(n -> out.add(canonical(n)));
            return out;
        }
        return node;
    }

    private static ManifestResult invalid(
            ManifestOrigin origin, ManifestError.Problem problem, String reason) {
        return new ManifestResult.Invalid(new ManifestError(origin, reason, problem));
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
