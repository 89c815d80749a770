package io.kubepekko.api.admission.cel;

import io.kubepekko.api.status.FieldError;

/**
 * Go's {@code strconv.Quote} ({@code %q}), which kube's CEL error messages use for the text at
 * fault and cel-go's {@code format} for strings inside lists and maps: the same quoting as kube's
 * field errors, {@link FieldError#quote}.
 */
final class GoQuote {

    private GoQuote() {}

    static String quote(String s) {
        return FieldError.quote(s);
    }
}
