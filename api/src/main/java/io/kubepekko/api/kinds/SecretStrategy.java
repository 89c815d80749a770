package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Secrets: {@code stringData} folded into {@code data}, type {@code Opaque} by default, key syntax,
 * 1 MiB in total, the per-type required keys, and the immutability of {@code type} and of {@code
 * immutable} secrets.
 */
public final class SecretStrategy implements Strategy {

    static final String SERVICE_ACCOUNT_NAME_KEY = "kubernetes.io/service-account.name";
    private static final String REDACTED = "<secret contents redacted>";
    private static final FieldPath DATA = FieldPath.of("data");

    @Override
    public void applyDefaults(ObjectNode obj) {
        mergeStringData(obj);
        Nodes.defaultText(obj, "type", "Opaque");
    }

    /**
     * {@code stringData} is write-only: its entries replace those of {@code data} (base64-encoded)
     * and it is never stored, as Kubernetes' conversion does.
     */
    static void mergeStringData(ObjectNode obj) {
        JsonNode stringData = obj.remove("stringData");
        if (stringData == null || !stringData.isObject() || stringData.isEmpty()) {
            return;
        }
        ObjectNode data = Nodes.obj(obj, "data");
        stringData
                .properties()
                .iterator()
                .forEachRemaining(
                        e ->
                                data.put(
                                        e.getKey(),
                                        Base64.getEncoder()
                                                .encodeToString(
                                                        e.getValue()
                                                                .asText()
                                                                .getBytes(
                                                                        StandardCharsets.UTF_8))));
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode data = obj.path("data");
        long total = 0;
        var it = data.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            errs.addAll(ConfigMapStrategy.keyErrors(e.getKey(), DATA));
            total += ConfigMapStrategy.decodedLength(e.getValue());
        }
        if (total > ConfigMapStrategy.MAX_SIZE) {
            errs.add(FieldError.tooLong(DATA.toString(), ConfigMapStrategy.MAX_SIZE));
        }
        errs.addAll(typeRules(obj, data));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(obj, "type");
        if (!type.equals(Nodes.text(old, "type"))) {
            errs.add(FieldError.invalid("type", type, "field is immutable"));
        }
        errs.addAll(ConfigMapStrategy.immutableContent(obj, old, "data"));
        errs.addAll(validateCreate(obj));
        return errs;
    }

    private static List<FieldError> typeRules(ObjectNode obj, JsonNode data) {
        List<FieldError> errs = new ArrayList<>();
        switch (Nodes.text(obj, "type")) {
            case "kubernetes.io/service-account-token" -> {
                if (Nodes.text(Nodes.at(obj, "metadata", "annotations"), SERVICE_ACCOUNT_NAME_KEY)
                        .isEmpty()) {
                    errs.add(
                            FieldError.required(
                                    FieldPath.of("metadata", "annotations")
                                            .key(SERVICE_ACCOUNT_NAME_KEY)
                                            .toString(),
                                    ""));
                }
            }
            case "kubernetes.io/dockercfg" -> jsonKey(data, ".dockercfg", errs);
            case "kubernetes.io/dockerconfigjson" -> jsonKey(data, ".dockerconfigjson", errs);
            case "kubernetes.io/basic-auth" -> {
                if (!data.has("username") && !data.has("password")) {
                    errs.add(FieldError.required(DATA.key("username").toString(), ""));
                    errs.add(FieldError.required(DATA.key("password").toString(), ""));
                }
            }
            case "kubernetes.io/ssh-auth" -> {
                if (ConfigMapStrategy.decodedLength(data.path("ssh-privatekey")) == 0) {
                    errs.add(FieldError.required(DATA.key("ssh-privatekey").toString(), ""));
                }
            }
            case "kubernetes.io/tls" -> {
                if (!data.has("tls.crt")) {
                    errs.add(FieldError.required(DATA.key("tls.crt").toString(), ""));
                }
                if (!data.has("tls.key")) {
                    errs.add(FieldError.required(DATA.key("tls.key").toString(), ""));
                }
            }
            default -> {}
        }
        return errs;
    }

    /** The key must exist and hold a JSON object (Go unmarshals it into a map). */
    private static void jsonKey(JsonNode data, String key, List<FieldError> errs) {
        if (!data.has(key)) {
            errs.add(FieldError.required(DATA.key(key).toString(), ""));
            return;
        }
        String problem;
        try {
            byte[] raw = Base64.getDecoder().decode(data.get(key).asText());
            JsonNode parsed = Json.MAPPER.readTree(raw);
            problem =
                    parsed != null && parsed.isObject()
                            ? null
                            : "json: cannot unmarshal "
                                    + jsonKind(parsed)
                                    + " into Go value of type map[string]interface {}";
        } catch (IllegalArgumentException | IOException e) {
            problem = "invalid character in JSON content";
        }
        if (problem != null) {
            errs.add(FieldError.invalid(DATA.key(key).toString(), REDACTED, problem));
        }
    }

    private static String jsonKind(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "empty input";
        }
        if (n.isArray()) {
            return "array";
        }
        if (n.isTextual()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        return n.isBoolean() ? "bool" : "null";
    }
}
