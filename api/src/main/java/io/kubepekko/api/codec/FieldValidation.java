package io.kubepekko.api.codec;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;

/**
 * The {@code fieldValidation} directive of create, update and patch: what to do with unknown and
 * duplicate fields in a body.
 */
public enum FieldValidation {
    /** Reject the request with 400 BadRequest listing every unknown and duplicate field. */
    STRICT("Strict"),
    /** Drop unknown fields and answer one warning per problem. Kubernetes' default. */
    WARN("Warn"),
    /** Drop unknown fields silently. */
    IGNORE("Ignore");

    /** The values Kubernetes accepts, sorted as its error message lists them. */
    private static final List<String> SUPPORTED = List.of("", "Ignore", "Strict", "Warn");

    private final String queryValue;

    FieldValidation(String queryValue) {
        this.queryValue = queryValue;
    }

    /** The spelling on the wire: {@code Strict}, {@code Warn} or {@code Ignore}. */
    public String queryValue() {
        return queryValue;
    }

    /**
     * Parses the parameter of a create request ({@link #parse(String, String)} with {@code
     * CreateOptions}).
     */
    public static FieldValidation parse(String queryValue) {
        return parse(queryValue, "CreateOptions");
    }

    /**
     * Parses the query parameter. Absent or empty means {@link #WARN}; the three values are
     * case-sensitive, as in Kubernetes. Anything else is rejected the way kube-apiserver rejects
     * invalid request options: 422 Invalid on the options kind, e.g. {@code
     * CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict":
     * supported values: "", "Ignore", "Strict", "Warn"}.
     *
     * @param optionsKind {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}
     */
    public static FieldValidation parse(String queryValue, String optionsKind) {
        List<FieldError> errors = errors(queryValue);
        if (!errors.isEmpty()) {
            throw ApiStatus.invalid("meta.k8s.io", optionsKind, "", errors).exception();
        }
        if (queryValue == null || queryValue.isEmpty()) {
            return WARN;
        }
        for (FieldValidation v : values()) {
            if (v.queryValue.equals(queryValue)) {
                return v;
            }
        }
        throw new IllegalStateException(queryValue);
    }

    /** kube-apiserver's {@code ValidateFieldValidation}: empty, or one of the three values. */
    public static List<FieldError> errors(String queryValue) {
        if (queryValue == null || queryValue.isEmpty()) {
            return List.of();
        }
        for (FieldValidation v : values()) {
            if (v.queryValue.equals(queryValue)) {
                return List.of();
            }
        }
        return List.of(FieldError.notSupported("fieldValidation", queryValue, SUPPORTED));
    }
}
