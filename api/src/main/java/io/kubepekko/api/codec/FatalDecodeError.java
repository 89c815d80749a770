package io.kubepekko.api.codec;

/**
 * An error that stops Go's decoder at once, as one returned by a custom {@code UnmarshalJSON}
 * ({@code IntOrString}, {@code Quantity}, {@code metav1.Time}) does; ordinary type errors are
 * recorded and decoding goes on. Thrown inside one pass and caught at its top, so it carries no
 * stack trace.
 */
final class FatalDecodeError extends Exception {
    private static final long serialVersionUID = 1L;

    FatalDecodeError(String message) {
        super(message, null, false, false);
    }
}
