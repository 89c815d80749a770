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
     * Absent means a real write; {@code All} (or the bare parameter) a dry run; any other value is
     * invalid options — 422 on {@code <optionsKind>.meta.k8s.io}, as kube-apiserver answers.
     */
    public static boolean parse(List<String> values, String optionsKind) {
        for (String v : values) {
            if (!v.equals("All") && !v.isEmpty()) {
                ArrayNode bad = Json.MAPPER.createArrayNode();
                values.forEach(bad::add);
                throw ApiStatus.invalid("meta.k8s.io", optionsKind, "",
                        List.of(FieldError.notSupported("dryRun", BadValue.of(bad), List.of("All")))).exception();
            }
        }
        return !values.isEmpty();
    }
}
