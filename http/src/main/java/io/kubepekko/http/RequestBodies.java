package io.kubepekko.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;

import java.io.IOException;
import java.util.List;

/** Decodes request bodies into object trees (JSON, YAML; no Content-Type means JSON). */
final class RequestBodies {
    private RequestBodies() {}

    /** A decoded body and the warnings decoding produced. */
    record Decoded(ObjectNode object, List<String> warnings) {}

    static final String ACCEPTED = "application/json, application/yaml";

    static boolean isJson(String mediaType) {
        return mediaType == null || mediaType.isEmpty() || mediaType.equals("application/json")
                || mediaType.equals("application/octet-stream");
    }

    static Decoded decode(String mediaType, byte[] body, ResourceType type, String fieldValidation) {
        JsonNode node;
        try {
            if (isJson(mediaType)) {
                node = Json.MAPPER.readTree(body);
            } else if (mediaType.equals("application/yaml")) {
                node = Json.YAML.readTree(body);
            } else {
                throw ApiStatus.unsupportedMediaType("the body of the request was in an unknown format - "
                        + "accepted media types include: " + ACCEPTED).exception();
            }
        } catch (JsonProcessingException e) {
            throw ApiStatus.badRequest("error decoding body: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()).exception();
        } catch (IOException e) {
            throw ApiStatus.badRequest("error reading body: " + e.getMessage()).exception();
        }
        if (!(node instanceof ObjectNode obj)) {
            throw ApiStatus.badRequest("the body of the request must be a JSON object").exception();
        }
        return new Decoded(obj, List.of());
    }
}
