package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * ConfigMaps: key syntax, no key in both data and binaryData, 1 MiB in total, and {@code
 * immutable}.
 */
public final class ConfigMapStrategy implements Strategy {

    /** Maximum total size of a ConfigMap's or Secret's data, in bytes. */
    static final int MAX_SIZE = 1024 * 1024;

    static final String IMMUTABLE_WHEN_SET = "field is immutable when `immutable` is set";

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode data = obj.path("data");
        JsonNode binary = obj.path("binaryData");
        long total = 0;
        var it = data.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            errs.addAll(keyErrors(e.getKey(), FieldPath.of("data")));
            if (binary.has(e.getKey())) {
                errs.add(
                        FieldError.invalid(
                                FieldPath.of("data").key(e.getKey()).toString(),
                                e.getKey(),
                                "duplicate of key present in binaryData"));
            }
            total += NameValidation.byteLength(e.getValue().asText());
        }
        var bit = binary.properties().iterator();
        while (bit.hasNext()) {
            var e = bit.next();
            errs.addAll(keyErrors(e.getKey(), FieldPath.of("binaryData")));
            total += decodedLength(e.getValue());
        }
        if (total > MAX_SIZE) {
            errs.add(FieldError.tooLong(FieldPath.of("").toString(), MAX_SIZE));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(immutableContent(obj, old, "data", "binaryData"));
        errs.addAll(validateCreate(obj));
        return errs;
    }

    /** Once {@code immutable: true}, neither the flag nor the named content fields may change. */
    static List<FieldError> immutableContent(ObjectNode obj, ObjectNode old, String... fields) {
        List<FieldError> errs = new ArrayList<>();
        if (!old.path("immutable").asBoolean(false)) {
            return errs;
        }
        if (!obj.path("immutable").asBoolean(false)) {
            errs.add(FieldError.forbidden("immutable", IMMUTABLE_WHEN_SET));
        }
        for (String f : fields) {
            if (!sameMap(obj.get(f), old.get(f))) {
                errs.add(FieldError.forbidden(f, IMMUTABLE_WHEN_SET));
            }
        }
        return errs;
    }

    static List<FieldError> keyErrors(String key, FieldPath map) {
        List<FieldError> errs = new ArrayList<>();
        for (String msg : NameValidation.configMapKey(key)) {
            errs.add(FieldError.invalid(map.key(key).toString(), key, msg));
        }
        return errs;
    }

    /** The byte length of a base64 value; malformed base64 counts its text length. */
    static long decodedLength(JsonNode v) {
        String s = v.asText();
        try {
            return Base64.getDecoder().decode(s).length;
        } catch (IllegalArgumentException e) {
            return s.length();
        }
    }

    /**
     * Go's {@code reflect.DeepEqual} of maps, where a nil and an empty map differ but absent and
     * null do not.
     */
    private static boolean sameMap(JsonNode a, JsonNode b) {
        return Nodes.same(a, b);
    }
}
