package io.kubepekko.api.watch;

import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.selector.LabelSelector;
import java.util.Objects;

/**
 * The label and field selectors of one list or watch, evaluated against the values a {@link
 * CachedObject} carries. The field selector must be bound to the cached type ({@link
 * FieldSelector#forType}) so its labels are the ones the object's values are keyed by.
 */
public record Selection(LabelSelector labels, FieldSelector fields) {

    private static final Selection EVERYTHING =
            new Selection(LabelSelector.everything(), FieldSelector.everything());

    public Selection {
        Objects.requireNonNull(labels, "labels");
        Objects.requireNonNull(fields, "fields");
    }

    public static Selection everything() {
        return EVERYTHING;
    }

    /**
     * Parses both query parameters for {@code type}; null or empty selects everything.
     *
     * @throws io.kubepekko.api.status.ApiException 400 for bad syntax or a field label the type
     *     does not support
     */
    public static Selection parse(ResourceType type, String labelSelector, String fieldSelector) {
        return new Selection(
                LabelSelector.parse(labelSelector == null ? "" : labelSelector),
                FieldSelector.parse(fieldSelector).forType(type));
    }

    public boolean matches(CachedObject object) {
        return labels.matches(object.labels()) && fields.matchesValues(object.fields());
    }

    /** True when nothing is filtered: lists may then count remaining items without scanning. */
    public boolean isEverything() {
        return labels.isEmpty() && fields.isEmpty();
    }
}
