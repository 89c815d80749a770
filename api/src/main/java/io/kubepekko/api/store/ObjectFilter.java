package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.selector.LabelSelector;
import java.util.function.Predicate;

/** The selection a list, watch or deletecollection makes: label and field selectors together. */
public final class ObjectFilter {
    private ObjectFilter() {}

    /**
     * Parses both selectors for {@code type}; bad syntax or an unsupported field label answers 400.
     * Empty or null selectors select everything.
     */
    public static Predicate<ObjectNode> of(
            ResourceType type, String labelSelector, String fieldSelector) {
        LabelSelector labels = LabelSelector.parse(labelSelector == null ? "" : labelSelector);
        FieldSelector fields =
                FieldSelector.parse(fieldSelector == null ? "" : fieldSelector).forType(type);
        if (labels.isEmpty() && fields.isEmpty()) {
            return o -> true;
        }
        return o -> labels.matchesObject(o) && fields.matches(o);
    }
}
