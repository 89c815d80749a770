package io.kubepekko.api.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A request body decoded against its kind's schema.
 *
 * @param object the object with every unknown field removed; safe to store
 * @param unknownFields paths of the fields that were removed, e.g. {@code spec.containers[0].foo}
 * @param duplicateFields paths of fields given more than once, e.g. {@code metadata.name}
 * @param warnings texts for {@code Warning: 299} headers, one per problem; empty unless the field
 *     validation was {@link FieldValidation#WARN}
 */
public record DecodedBody(
        ObjectNode object,
        List<String> unknownFields,
        List<String> duplicateFields,
        List<String> warnings) {
    public DecodedBody {
        unknownFields = List.copyOf(unknownFields);
        duplicateFields = List.copyOf(duplicateFields);
        warnings = List.copyOf(warnings);
    }
}
