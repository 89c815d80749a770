package io.kubepekko.api.meta;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;

/**
 * Query parameter values as kube-apiserver's parameter codec reads them (Go's {@code strconv}): the
 * same accepted spellings, and a 400 with Go's message for anything else.
 */
public final class GoStrconv {
    private GoStrconv() {}

    /** {@code strconv.ParseBool}: 1, t, T, TRUE, true, True and their false counterparts. */
    public static boolean parseBool(String v) {
        return switch (v) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default ->
                    throw ApiStatus.badRequest(
                                    "strconv.ParseBool: parsing "
                                            + FieldError.quote(v)
                                            + ": invalid syntax")
                            .exception();
        };
    }

    /** {@code strconv.ParseInt} of a 64-bit decimal. */
    public static long parseInt(String v) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiStatus.badRequest(
                            "strconv.ParseInt: parsing " + FieldError.quote(v) + ": invalid syntax")
                    .exception();
        }
    }
}
