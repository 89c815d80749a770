package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import java.util.List;

/** The {@code dryRun} option of writes, from the query or a DeleteOptions body. */
public final class DryRun {
    private DryRun() {}

    /**
     * No value means a real write; values that are all {@code All} a dry run. Anything else is
     * invalid options — 422 on {@code <optionsKind>.meta.k8s.io}, as kube-apiserver answers. That
     * includes the bare parameter ({@code ?dryRun} or {@code ?dryRun=}): Go's query parser reads it
     * as one empty value, which kube-apiserver's option validation does not allow either.
     */
    public static boolean parse(List<String> values, String optionsKind) {
        List<FieldError> errors = errors(values);
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid("meta.k8s.io", optionsKind, "", errors).exception();
        }
        return !values.isEmpty();
    }

    /** kube-apiserver's {@code ValidateDryRun}: every value must be {@code All}. */
    static List<FieldError> errors(List<String> values) {
        for (String v : values) {
            if (!v.equals("All")) {
                ArrayNode bad = Json.MAPPER.createArrayNode();
                values.forEach(bad::add);
                return List.of(FieldError.notSupported("dryRun", BadValue.of(bad), List.of("All")));
            }
        }
        return List.of();
    }
}
