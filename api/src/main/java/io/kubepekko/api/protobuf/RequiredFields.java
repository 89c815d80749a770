package io.kubepekko.api.protobuf;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The fields of a message whose JSON has no {@code omitempty}: Go writes their zero values too
 * ({@code "ready": false}, {@code "imageID": ""}), so a zero decoded from protobuf is kept for
 * them. Kubernetes' OpenAPI marks exactly those fields (non-pointer, without omitempty) as
 * required; the official client's models, which the schemas already come from, carry that list.
 */
final class RequiredFields {
    private RequiredFields() {}

    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    private static final ConcurrentHashMap<String, Set<String>> BY_MESSAGE =
            new ConcurrentHashMap<>();

    /** The required JSON fields of a message; empty when the client has no model for it. */
    static Set<String> of(ProtoMessage message) {
        return BY_MESSAGE.computeIfAbsent(message.name(), RequiredFields::load);
    }

    private static Set<String> load(String qualified) {
        String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
        String group = qualified.substring(0, qualified.indexOf('.'));
        String groupPrefix = Character.toUpperCase(group.charAt(0)) + group.substring(1) + "V1";
        // The group's own prefixed model first (CoreV1Event, RbacV1Subject), then the plain one.
        for (String prefix : List.of(groupPrefix, "V1")) {
            Set<String> found = required(MODELS + prefix + simple);
            if (found != null) {
                return found;
            }
        }
        return Set.of();
    }

    @SuppressWarnings("unchecked")
    private static Set<String> required(String className) {
        try {
            Field f = Class.forName(className).getField("openapiRequiredFields");
            return Set.copyOf((Collection<String>) f.get(null));
        } catch (ReflectiveOperationException | ClassCastException e) {
            return null;
        }
    }
}
