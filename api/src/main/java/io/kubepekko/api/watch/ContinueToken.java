package io.kubepekko.api.watch;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * A list continuation in kube-apiserver's wire format: unpadded base64url of {@code
 * {"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key>"}}. Clients treat it as opaque, but keeping
 * Kubernetes' shape lets tools that peek into it (and our own tests) read it.
 *
 * @param resourceVersion the snapshot every page is served from; negative means "the latest", which
 *     kube-apiserver issues when a consistent continuation is impossible
 * @param startKey the key of the first item of the next page ({@code namespace/name}, or {@code
 *     name} for cluster-scoped kinds)
 */
public record ContinueToken(long resourceVersion, String startKey) {

    /** The only encoding version kube-apiserver has ever accepted. */
    public static final String VERSION = "meta.k8s.io/v1";

    private static final String INVALID = "continue key is not valid";

    public ContinueToken {
        if (startKey == null || startKey.isEmpty()) {
            throw new IllegalArgumentException("continue token needs a start key");
        }
        if (resourceVersion == 0) {
            throw new IllegalArgumentException("continue token needs a resource version");
        }
    }

    /**
     * Whether the next page is read at the latest version rather than the first page's snapshot.
     */
    public boolean latest() {
        return resourceVersion < 0;
    }

    /** The {@code metadata.continue} value. */
    public String encode() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("v", VERSION);
        n.put("rv", resourceVersion);
        n.put("start", startKey);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(n));
    }

    /**
     * Reads a client's {@code continue} parameter.
     *
     * @throws io.kubepekko.api.status.ApiException 400 BadRequest {@code invalid continue token:
     *     continue key is not valid: ...} for anything kube-apiserver would refuse
     */
    public static ContinueToken decode(String value) {
        String why = base64Problem(value);
        if (why != null) {
            throw ReadErrors.invalidContinue(INVALID + ": " + why).exception();
        }
        byte[] json = Base64.getUrlDecoder().decode(value.replace("\r", "").replace("\n", ""));
        String version = "";
        long rv = 0;
        String start = "";
        JsonNode tree;
        try {
            tree = readSingleValue(json);
        } catch (JsonEOFException e) {
            throw ReadErrors.invalidContinue(INVALID + ": unexpected end of JSON input")
                    .exception();
        } catch (JsonProcessingException e) {
            // Go's JSON syntax messages are not reproduced; clients only see the common prefix.
            throw ReadErrors.invalidContinue(INVALID + ": invalid JSON: " + e.getOriginalMessage())
                    .exception();
        } catch (IOException e) {
            throw ReadErrors.invalidContinue(INVALID + ": invalid JSON").exception();
        }
        if (!tree.isObject()) {
            if (!tree.isNull()) {
                throw ReadErrors.invalidContinue(
                                INVALID
                                        + ": json: cannot unmarshal "
                                        + goJsonType(tree)
                                        + " into Go value of type storage.continueToken")
                        .exception();
            }
        } else {
            // Go's decoder matches field names case-insensitively and ignores unknown fields.
            for (Iterator<Map.Entry<String, JsonNode>> it = tree.properties().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                JsonNode v = f.getValue();
                if (v.isNull()) {
                    continue;
                }
                switch (f.getKey().toLowerCase(Locale.ROOT)) {
                    case "v" -> version = stringField("v", v);
                    case "start" -> start = stringField("start", v);
                    case "rv" -> rv = int64Field(v);
                    default -> {}
                }
            }
        }
        if (!VERSION.equals(version)) {
            throw ReadErrors.invalidContinue(
                            INVALID + ": server does not recognize this encoded version " + version)
                    .exception();
        }
        if (rv == 0) {
            throw ReadErrors.invalidContinue(
                            INVALID
                                    + ": incorrect encoded start resourceVersion (version "
                                    + VERSION
                                    + ")")
                    .exception();
        }
        if (start.isEmpty()) {
            throw ReadErrors.invalidContinue(
                            INVALID + ": encoded start key empty (version " + VERSION + ")")
                    .exception();
        }
        if (!isCleanPath(start)) {
            // A key that is not a clean path could climb out of the listed collection.
            throw ReadErrors.invalidContinue(INVALID + ": " + start).exception();
        }
        return new ContinueToken(rv, start);
    }

    private static JsonNode readSingleValue(byte[] json) throws IOException {
        try (JsonParser p = Json.MAPPER.getFactory().createParser(json)) {
            if (p.nextToken() == null) {
                throw new JsonEOFException(p, null, "no content");
            }
            JsonNode tree = Json.MAPPER.readTree(p);
            if (p.nextToken() != null) {
                throw new JsonParseException(p, "data after top-level value");
            }
            return tree;
        }
    }

    private static String stringField(String name, JsonNode v) {
        if (!v.isTextual()) {
            throw typeMismatch(goJsonType(v), name, "string");
        }
        return v.textValue();
    }

    private static long int64Field(JsonNode v) {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        if (v.isNumber()) {
            throw typeMismatch("number " + v.asText(), "rv", "int64");
        }
        throw typeMismatch(goJsonType(v), "rv", "int64");
    }

    private static RuntimeException typeMismatch(String what, String field, String goType) {
        return ReadErrors.invalidContinue(
                        INVALID
                                + ": json: cannot unmarshal "
                                + what
                                + " into Go struct field continueToken."
                                + field
                                + " of type "
                                + goType)
                .exception();
    }

    private static String goJsonType(JsonNode v) {
        if (v.isTextual()) {
            return "string";
        }
        if (v.isNumber()) {
            return "number";
        }
        if (v.isBoolean()) {
            return "bool";
        }
        if (v.isArray()) {
            return "array";
        }
        return "object";
    }

    /**
     * Go's unpadded base64url decoder: the problem with the input in its words, or null. It skips
     * CR and LF, rejects padding, and reports byte offsets.
     */
    private static String base64Problem(String s) {
        int valid = 0;
        int quantumStart = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n') {
                continue;
            }
            boolean inAlphabet =
                    (c >= 'A' && c <= 'Z')
                            || (c >= 'a' && c <= 'z')
                            || (c >= '0' && c <= '9')
                            || c == '-'
                            || c == '_';
            if (!inAlphabet) {
                return illegalAt(s, i);
            }
            if (valid % 4 == 0) {
                quantumStart = i;
            }
            valid++;
        }
        return valid % 4 == 1 ? illegalAt(s, quantumStart) : null;
    }

    private static String illegalAt(String s, int charIndex) {
        int byteOffset = s.substring(0, charIndex).getBytes(StandardCharsets.UTF_8).length;
        return "illegal base64 data at input byte " + byteOffset;
    }

    /**
     * Go's {@code path.Clean("/" + key) == "/" + key}: no empty, "." or ".." segments, no trailing
     * slash.
     */
    private static boolean isCleanPath(String key) {
        String rooted = key.startsWith("/") ? key : "/" + key;
        if (rooted.equals("/")) {
            return true;
        }
        if (rooted.endsWith("/")) {
            return false;
        }
        for (String segment : rooted.substring(1).split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
