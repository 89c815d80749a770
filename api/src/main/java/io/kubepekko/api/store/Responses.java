package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
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
            case DELETED ->
                    ApiStatus.success(
                            type.groupResource(),
                            ObjectMeta.name(outcome.after()),
                            ObjectMeta.uid(outcome.after()));
            // Only a create through a subresource answers so: kube-apiserver's create handler sets
            // 201.
            case SUCCESS -> success(201);
        };
    }

    /**
     * {@code {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}}: the
     * {@code metav1.Status{Status: Success}} a subresource's create returns, whose code
     * kube-apiserver's create handler fills in; it has no details.
     */
    public static ObjectNode success(int code) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("kind", "Status").put("apiVersion", "v1");
        n.putObject("metadata");
        n.put("status", "Success").put("code", code);
        return n;
    }
}
