package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;

/** Renders the body of a successful write once its resourceVersion is assigned. */
public final class Responses {
    private Responses() {}

    public static ObjectNode render(ResourceType type, WriteOutcome outcome) {
        return switch (outcome.view()) {
            case OBJECT -> outcome.after();
            case SCALE -> ScaleConversion.toScale(type, outcome.after());
            case DELETED -> ApiStatus.success(type.groupResource(), ObjectMeta.name(outcome.after()),
                    ObjectMeta.uid(outcome.after()));
        };
    }
}
