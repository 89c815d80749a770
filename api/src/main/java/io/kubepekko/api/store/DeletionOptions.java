package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.GoStrconv;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A delete's options ({@code meta.k8s.io/v1 DeleteOptions}) as kube-apiserver reads them: from the
 * body when there is one, else from the query, never both; then validated (422 on {@code
 * DeleteOptions.meta.k8s.io}). A query value that does not parse is a 400, as Go's parameter codec
 * reports it.
 *
 * @param gracePeriodSeconds null when not given
 * @param propagationPolicy null when not given
 * @param orphanDependents the deprecated flag; null when not given
 */
public record DeletionOptions(
        Preconditions preconditions,
        boolean dryRun,
        Long gracePeriodSeconds,
        PropagationPolicy propagationPolicy,
        Boolean orphanDependents) {

    /** The policies as kube-apiserver lists them in its error. */
    private static final List<String> POLICIES = List.of("Foreground", "Background", "Orphan");

    /** Options from a decoded DeleteOptions body (already checked against its schema). */
    public static DeletionOptions fromBody(JsonNode body) {
        JsonNode pre = body.path("preconditions");
        Preconditions preconditions =
                new Preconditions(
                        pre.hasNonNull("uid") ? pre.get("uid").asText() : null,
                        pre.hasNonNull("resourceVersion")
                                ? pre.get("resourceVersion").asText()
                                : null);
        List<String> dry = new ArrayList<>();
        body.path("dryRun").forEach(d -> dry.add(d.asText()));
        return validated(
                preconditions,
                dry,
                body.hasNonNull("gracePeriodSeconds")
                        ? body.get("gracePeriodSeconds").asLong()
                        : null,
                body.hasNonNull("propagationPolicy")
                        ? body.get("propagationPolicy").asText()
                        : null,
                body.hasNonNull("orphanDependents")
                        ? body.get("orphanDependents").asBoolean()
                        : null);
    }

    /** Options from the query parameters (all values of one name, in order). */
    public static DeletionOptions fromQuery(Function<String, List<String>> query) {
        return validated(
                Preconditions.NONE,
                query.apply("dryRun"),
                first(query, "gracePeriodSeconds").map(GoStrconv::parseInt).orElse(null),
                first(query, "propagationPolicy").orElse(null),
                first(query, "orphanDependents").map(GoStrconv::parseBool).orElse(null));
    }

    private static DeletionOptions validated(
            Preconditions preconditions,
            List<String> dryRun,
            Long grace,
            String policy,
            Boolean orphan) {
        boolean dry = DryRun.parse(dryRun, "DeleteOptions");
        List<FieldError> errors = new ArrayList<>();
        if (orphan != null && policy != null) {
            errors.add(
                    FieldError.invalid(
                            "propagationPolicy",
                            policy,
                            "orphanDependents and deletionPropagation cannot be both set"));
        }
        if (policy != null && PropagationPolicy.of(policy).isEmpty()) {
            List<String> supported = new ArrayList<>(POLICIES);
            supported.add("nil");
            errors.add(FieldError.notSupported("propagationPolicy", policy, supported));
        }
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid("meta.k8s.io", "DeleteOptions", "", errors).exception();
        }
        return new DeletionOptions(
                preconditions,
                dry,
                grace,
                policy == null ? null : PropagationPolicy.of(policy).orElseThrow(),
                orphan);
    }

    private static Optional<String> first(Function<String, List<String>> query, String name) {
        List<String> values = query.apply(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
